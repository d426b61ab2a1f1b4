import Glibc
import SilkRunLoop
import SilkSystem

/// Why the framebuffer (or an input device) cannot be used: one message for the user that names
/// the device and the problem, and for permissions the group to join.
public struct FramebufferError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The device node does not exist.
        case missing
        /// open(2) refused: EACCES/EPERM.
        case permissionDenied(group: String?)
        /// An ioctl, mmap or read failed.
        case systemCall(SystemCallError)
        /// The device went away while in use (unplugged, driver unbound): ENODEV, ENXIO or EIO.
        case vanished(SystemCallError)
        /// The pixel format, depth or geometry is not one Silk can draw.
        case unsupported(String)
        /// The path exists but is something else (a tty, a regular file): what it is.
        case notAFramebuffer(String)
    }
    public let device: String
    public let kind: Kind

    public init(device: String, kind: Kind) { self.device = device; self.kind = kind }

    /// Maps a failed open of `device` to a helpful error (`defaultGroup`: the group such devices
    /// usually belong to, named when the node's own group cannot be read).
    static func opening(_ device: String, _ error: SystemCallError, defaultGroup: String) -> FramebufferError {
        switch error.errno {
        case ENOENT, ENODEV, ENXIO: return FramebufferError(device: device, kind: .missing)
        case EACCES, EPERM:
            return FramebufferError(device: device, kind: .permissionDenied(group: groupName(owning: device) ?? defaultGroup))
        default: return FramebufferError(device: device, kind: .systemCall(error))
        }
    }

    /// `.vanished` for a failed call whose errno says the device is gone (ENODEV, ENXIO, EIO).
    var vanishedIfGone: FramebufferError {
        if case let .systemCall(e) = kind, e.errno == ENODEV || e.errno == ENXIO || e.errno == EIO {
            return FramebufferError(device: device, kind: .vanished(e))
        }
        return self
    }

    public var description: String {
        switch kind {
        case .missing:
            return "\(device) does not exist (is a framebuffer driver loaded? name another device, or set SILK_FBDEV)"
        case let .permissionDenied(group):
            let g = group ?? "video"
            return "\(device): permission denied — add the user to the '\(g)' group (sudo usermod -aG \(g) $USER, then log in again) or run as root"
        case let .systemCall(e):
            return "\(device): \(e)"
        case let .vanished(e):
            return "\(device) went away (unplugged, or its driver was unbound): \(e)"
        case let .unsupported(why):
            return "\(device): unsupported framebuffer: \(why)"
        case let .notAFramebuffer(what):
            return "\(device) is not a framebuffer device (it is \(what)); name a /dev/fbN device, or set SILK_FBDEV"
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
