import Glibc
import SilkSystem

/// Why a DRM/KMS display cannot be used: one message for the user naming the device and the
/// problem (and for permissions the group to join).
public struct KMSError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The device node does not exist (or no /dev/dri/card* exists at all).
        case missing
        /// open(2) refused: EACCES/EPERM; the group owning the node, if known.
        case permissionDenied(group: String?)
        /// The path exists but is not a DRM device with modesetting: what it is.
        case notADRMDevice(String)
        /// No connector of the card is connected to a display (with modes).
        case noConnectedConnector(String)
        /// The requested connector is not there or not connected: the connectors there are.
        case connectorUnavailable(requested: String, available: String)
        /// The connector has no mode of the requested size and rate: the modes it has.
        case modeUnavailable(requested: String, available: String)
        /// No CRTC can drive the connector.
        case noCRTC(String)
        /// Another program (a compositor, another kiosk) is the DRM master.
        case notMaster(SystemCallError)
        /// An ioctl, mmap or allocation failed.
        case systemCall(SystemCallError)
        /// The connector was disconnected (unplugged) while in use.
        case disconnected(String)
        /// A page flip did not complete in time (the driver never sent the event).
        case flipTimeout(String)
        /// No seat (seatd, logind) could be opened or became active (`--seat libseat`): why.
        case seatUnavailable(String)
        /// `--kms-api atomic` on a driver without atomic modesetting (or that refused the commit): why.
        case atomicUnavailable(String)
        /// The device is not one the seat opens (seatd opens only DRM and evdev devices): why.
        case seatRefused(SystemCallError)
    }
    /// The device path (`/dev/dri/card0`).
    public let device: String
    /// What went wrong.
    public let kind: Kind

    /// An error for `device`.
    public init(device: String, kind: Kind) { self.device = device; self.kind = kind }

    /// Whether the error is the user's to fix on the command line or in the system's setup (a
    /// missing device, a wrong path or mode, missing permission) rather than a failure at run time.
    public var isBadInput: Bool {
        switch kind {
        case .missing, .permissionDenied, .notADRMDevice, .noConnectedConnector, .connectorUnavailable,
             .modeUnavailable, .noCRTC, .notMaster, .seatUnavailable, .seatRefused, .atomicUnavailable: return true
        case .systemCall, .disconnected, .flipTimeout: return false
        }
    }

    static func opening(_ device: String, _ error: SystemCallError) -> KMSError {
        switch error.errno {
        case ENOENT, ENODEV, ENXIO: return KMSError(device: device, kind: .missing)
        case EACCES, EPERM: return KMSError(device: device, kind: .permissionDenied(group: groupName(owning: device) ?? "video"))
        default: return KMSError(device: device, kind: .systemCall(error))
        }
    }

    /// The message for the user.
    public var description: String {
        switch kind {
        case .missing:
            return "\(device) does not exist (is a DRM driver loaded? name another card with --device /dev/dri/cardN)"
        case let .permissionDenied(group):
            let g = group ?? "video"
            if g == "root" {
                return "\(device): permission denied — the node belongs to group root: run as root, or give DRM cards the 'video' group (udev) and add the user to it"
            }
            return "\(device): permission denied — add the user to the '\(g)' group (sudo usermod -aG \(g) $USER, then log in again) or run as root"
        case let .notADRMDevice(what):
            return "\(device) is not a DRM/KMS device (\(what)); name a /dev/dri/cardN device"
        case let .noConnectedConnector(list):
            return "\(device): no connected connector with modes (\(list)); plug in a display or name another card"
        case let .connectorUnavailable(requested, available):
            return "\(device): connector \(requested) is not connected (connectors: \(available))"
        case let .modeUnavailable(requested, available):
            return "\(device): the connector has no mode \(requested) (modes: \(available))"
        case let .noCRTC(connector):
            return "\(device): no CRTC can drive connector \(connector)"
        case let .notMaster(e):
            return "\(device): cannot set the mode — another program (a compositor?) is the DRM master, or the user may not modeset: \(e)"
        case let .systemCall(e):
            return "\(device): \(e)"
        case let .disconnected(connector):
            return "\(device): connector \(connector) was disconnected (display unplugged)"
        case let .flipTimeout(why):
            return "\(device): \(why)"
        case let .atomicUnavailable(why):
            return "\(device): no atomic modesetting: \(why); use --kms-api legacy or auto"
        case let .seatUnavailable(why):
            return "no seat to open the display through (\(why)); start seatd (or log in through logind), or use --seat direct"
        case let .seatRefused(e):
            return "\(device): the seat would not open it (\(e)); is it a DRM card (/dev/dri/cardN)?"
        }
    }
}

/// The name of the group owning `path` (for "add the user to group …" hints), if it has one.
func groupName(owning path: String) -> String? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    var group = Glibc.group()
    var result: UnsafeMutablePointer<Glibc.group>?
    var buffer = [CChar](repeating: 0, count: 1024)
    guard getgrgid_r(st.st_gid, &group, &buffer, buffer.count, &result) == 0, result != nil,
          let name = group.gr_name else { return nil }
    return String(cString: name)
}
