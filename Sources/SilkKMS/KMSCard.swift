// Finding the display on a DRM card: which card, which connector, which mode, which CRTC — the
// plain data first (`KMSMode`, `KMSConnectorInfo`, `KMSCard.chooseMode`, testable without a
// device), then the libdrm calls that read them from an open card.
import CDRM
import Foundation
import Glibc
import SilkFramebuffer
import SilkSystem

/// A display mode a connector offers.
public struct KMSMode: Sendable, Equatable, CustomStringConvertible {
    /// Active width in pixels.
    public let width: Int
    /// Active height in pixels.
    public let height: Int
    /// Vertical refresh in Hz, from the pixel clock and totals (59.94, not 60, when it is).
    public let refresh: Double
    /// The connector marks it preferred (the panel's native mode).
    public let preferred: Bool
    /// The kernel's mode, as `drmModeSetCrtc` takes it.
    let raw: drmModeModeInfo

    init(_ m: drmModeModeInfo) {
        raw = m
        width = Int(m.hdisplay); height = Int(m.vdisplay)
        var rate = Double(m.vrefresh)
        if m.htotal > 0, m.vtotal > 0, m.clock > 0 {
            rate = Double(m.clock) * 1000 / (Double(m.htotal) * Double(m.vtotal))
            if m.flags & UInt32(DRM_MODE_FLAG_INTERLACE) != 0 { rate *= 2 }
            if m.flags & UInt32(DRM_MODE_FLAG_DBLSCAN) != 0 { rate /= 2 }
            if m.vscan > 1 { rate /= Double(m.vscan) }
        }
        refresh = rate
        preferred = m.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0
    }

    /// A mode without kernel timings (tests of `KMSCard.chooseMode`).
    public init(width: Int, height: Int, refresh: Double, preferred: Bool) {
        var m = drmModeModeInfo()
        m.hdisplay = UInt16(clamping: width); m.vdisplay = UInt16(clamping: height)
        m.vrefresh = UInt32(max(0, refresh.rounded()))
        raw = m
        self.width = width; self.height = height; self.refresh = refresh; self.preferred = preferred
    }

    /// `1024x768@60.00`.
    public var description: String { "\(width)x\(height)@\(String(format: "%.2f", refresh))" }

    /// Equal when size, rate and preference are (the raw timings are not compared).
    public static func == (a: KMSMode, b: KMSMode) -> Bool {
        a.width == b.width && a.height == b.height && a.refresh == b.refresh && a.preferred == b.preferred
    }
}

/// What a card says about one of its connectors.
public struct KMSConnectorInfo: Sendable {
    /// The connector's object ID.
    public let id: UInt32
    /// `HDMI-A-1`, `Virtual-1`, `DSI-1` (type name and index, as the kernel names them).
    public let name: String
    /// Whether a display is connected.
    public let connected: Bool
    /// The modes it offers (empty when disconnected).
    public let modes: [KMSMode]
    /// The encoder driving it now (0: none).
    let encoderID: UInt32
    /// The encoders that can drive it.
    let encoders: [UInt32]
}

/// Choosing a card's display: pure functions over what the card reports, and the libdrm calls.
public enum KMSCard {
    /// The mode for `request` among `modes`: without a request the preferred mode (else the first);
    /// with one, a mode of that size — the closest rate to the one asked for (within 1 Hz), else
    /// the preferred or first of that size. nil when none fits.
    public static func chooseMode(_ modes: [KMSMode], request: KMSModeRequest?) -> KMSMode? {
        guard let request else { return modes.first(where: \.preferred) ?? modes.first }
        let sized = modes.filter { $0.width == request.width && $0.height == request.height }
        guard let rate = request.refresh else { return sized.first(where: \.preferred) ?? sized.first }
        let best = sized.min { abs($0.refresh - rate) < abs($1.refresh - rate) }
        guard let best, abs(best.refresh - rate) < 1 else { return nil }
        return best
    }

    /// The modes as one short list for messages: `1024x768@60.00 (preferred), 800x600@60.32, …`
    /// (at most 12, then the count of the rest).
    public static func describe(_ modes: [KMSMode]) -> String {
        if modes.isEmpty { return "none" }
        var seen = Set<String>(), items: [String] = []
        for m in modes {
            let s = m.description + (m.preferred ? " (preferred)" : "")
            if seen.insert(s).inserted { items.append(s) }
        }
        return items.prefix(12).joined(separator: ", ") + (items.count > 12 ? ", … (\(items.count - 12) more)" : "")
    }

    /// The DRM cards present (`/dev/dri/card0`, `card1`, …), in number order.
    public static func candidatePaths(directory: String = "/dev/dri") -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.compactMap { n -> (Int, String)? in
            guard n.hasPrefix("card"), let i = Int(n.dropFirst(4)) else { return nil }
            return (i, directory + "/" + n)
        }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Opens `path` read-write (non-blocking: the flip events are read only when epoll says so)
    /// and checks that it is a DRM device with modesetting. Throws a `KMSError` naming what the
    /// path is otherwise.
    static func open(_ path: String, seat: (any DeviceSeat)? = nil) throws(KMSError) -> Int32 {
        var st = stat()
        if stat(path, &st) != 0 {
            throw KMSError.opening(path, SystemCallError(call: "stat(\(path))", errno: errno))
        }
        switch st.st_mode & S_IFMT {
        case S_IFCHR: break
        case S_IFREG: throw KMSError(device: path, kind: .notADRMDevice("it is a regular file"))
        case S_IFDIR: throw KMSError(device: path, kind: .notADRMDevice("it is a directory"))
        default: throw KMSError(device: path, kind: .notADRMDevice("it is not a character device"))
        }
        let fd: Int32
        if let seat {
            do { fd = try seat.openDevice(path) } catch {
                if error.errno == ENOENT || error.errno == ENODEV || error.errno == ENXIO { throw KMSError(device: path, kind: .missing) }
                throw KMSError(device: path, kind: .seatRefused(error))
            }
        } else {
            do {
                fd = try systemCall("open(\(path))") { Glibc.open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
            } catch { throw KMSError.opening(path, error) }
        }
        if let version = drmGetVersion(fd) {
            drmFreeVersion(version)
        } else {
            close(fd, seat: seat)
            throw KMSError(device: path, kind: .notADRMDevice("a character device that does not answer DRM_IOCTL_VERSION"))
        }
        guard drmIsKMS(fd) != 0 else {
            close(fd, seat: seat)
            throw KMSError(device: path, kind: .notADRMDevice("a DRM device without modesetting (a render-only GPU?)"))
        }
        return fd
    }

    /// Closes a card opened by `open` (through the seat when it was opened through one).
    static func close(_ fd: Int32, seat: (any DeviceSeat)?) {
        if let seat { seat.closeDevice(fd: fd) } else { Glibc.close(fd) }
    }

    /// The card's connectors with their state and modes (no forced probe: what the kernel knows).
    static func connectors(fd: Int32, probe: Bool = true) -> [KMSConnectorInfo] {
        guard let res = drmModeGetResources(fd) else { return [] }
        defer { drmModeFreeResources(res) }
        var out: [KMSConnectorInfo] = []
        for i in 0..<Int(res.pointee.count_connectors) {
            let id = res.pointee.connectors[i]
            guard let c = probe ? drmModeGetConnector(fd, id) : drmModeGetConnectorCurrent(fd, id) else { continue }
            defer { drmModeFreeConnector(c) }
            out.append(info(c.pointee))
        }
        return out
    }

    static func info(_ c: drmModeConnector) -> KMSConnectorInfo {
        let typeName = drmModeGetConnectorTypeName(c.connector_type).map { String(cString: $0) } ?? "Unknown\(c.connector_type)"
        let modes = (0..<Int(c.count_modes)).map { KMSMode(c.modes[$0]) }
        let encoders = (0..<Int(c.count_encoders)).map { c.encoders[$0] }
        return KMSConnectorInfo(id: c.connector_id, name: "\(typeName)-\(c.connector_type_id)",
                                connected: c.connection == DRM_MODE_CONNECTED && !modes.isEmpty,
                                modes: modes, encoderID: c.encoder_id, encoders: encoders)
    }

    /// `HDMI-A-1 (disconnected), Virtual-1 (connected, 28 modes)`.
    static func describe(_ connectors: [KMSConnectorInfo]) -> String {
        connectors.isEmpty ? "the card reports no connectors"
            : connectors.map { "\($0.name) (\($0.connected ? "connected, \($0.modes.count) modes" : "disconnected"))" }.joined(separator: ", ")
    }

    /// A CRTC for `connector`: the one its encoder drives now, else the first its encoders may use.
    /// Returns the CRTC's ID and index in the card's list (vblank requests name the index).
    static func crtc(fd: Int32, for connector: KMSConnectorInfo) -> (id: UInt32, index: Int)? {
        guard let res = drmModeGetResources(fd) else { return nil }
        defer { drmModeFreeResources(res) }
        let crtcs = (0..<Int(res.pointee.count_crtcs)).map { res.pointee.crtcs[$0] }
        if connector.encoderID != 0, let e = drmModeGetEncoder(fd, connector.encoderID) {
            let id = e.pointee.crtc_id
            drmModeFreeEncoder(e)
            if id != 0, let i = crtcs.firstIndex(of: id) { return (id, i) }
        }
        for encoderID in connector.encoders {
            guard let e = drmModeGetEncoder(fd, encoderID) else { continue }
            let possible = e.pointee.possible_crtcs
            drmModeFreeEncoder(e)
            for (i, id) in crtcs.enumerated() where possible & (1 << UInt32(i)) != 0 { return (id, i) }
        }
        return nil
    }
}
