// /dev/input/eventN through open(2), ioctl(2) (EVIOCGNAME, EVIOCGBIT, EVIOCGABS, EVIOCGRAB,
// EVIOCSCLOCKID) and read(2); every call goes through `systemCall`, which retries EINTR.
import CSilkLinux
import Glibc
import SilkRunLoop
import SilkSystem

/// One open evdev device (non-blocking, close-on-exec); closed in deinit.
public final class EvdevDevice {
    public let path: String
    public let fd: Int32
    public let name: String
    public let capabilities: InputCapabilities
    public private(set) var isGrabbed = false
    /// The seat the device was opened through (nil: opened directly).
    private let seat: (any DeviceSeat)?

    /// Opens `path` read-only, or through `seat` when given (seatd/logind: no `input` group
    /// needed). Permission problems name the group owning the node ("input").
    public init(path: String, seat: (any DeviceSeat)? = nil) throws(FramebufferError) {
        self.path = path
        self.seat = seat
        let fd = try EvdevDevice.openNode(path, seat: seat)
        self.fd = fd
        var buffer = [CChar](repeating: 0, count: 256)
        name = silk_evdev_name(fd, &buffer, Int32(buffer.count)) >= 0
            ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
        func bits(_ type: Int32, count: Int) -> Set<UInt16> {
            var b = [UInt8](repeating: 0, count: (count + 7) / 8)
            guard silk_evdev_bits(fd, type, &b, Int32(b.count)) >= 0 else { return [] }
            var s = Set<UInt16>()
            for i in 0..<count where b[i / 8] & (1 << (i % 8)) != 0 { s.insert(UInt16(i)) }
            return s
        }
        capabilities = InputCapabilities(eventTypes: bits(0, count: 32), keys: bits(Int32(EV.key), count: 0x300),
                                         relativeAxes: bits(Int32(EV.rel), count: 0x10), absoluteAxes: bits(Int32(EV.abs), count: 0x40))
        // Timestamps on CLOCK_MONOTONIC, like the rest of Silk (best effort).
        var clock = Int32(CLOCK_MONOTONIC)
        _ = silk_ioctl_ptr(fd, SILK_EVIOCSCLOCKID, &clock)
    }

    deinit {
        if isGrabbed { _ = silk_ioctl_int(fd, SILK_EVIOCGRAB, 0) }
        EvdevDevice.closeNode(fd, seat: seat)
    }

    /// The one way Silk opens an input node, for its evdev reader and for libinput's
    /// `open_restricted`: through `seat` when given (seatd/logind: no `input` group needed), else
    /// open(2) with `flags` (non-blocking and close-on-exec are always added). Permission problems
    /// name the group owning the node ("input").
    public static func openNode(_ path: String, seat: (any DeviceSeat)?, flags: Int32 = O_RDONLY) throws(FramebufferError) -> Int32 {
        do {
            if let seat { return try seat.openDevice(path) }
            return try systemCall("open(\(path))") { open(path, flags | O_NONBLOCK | O_CLOEXEC) }
        } catch { throw FramebufferError.opening(path, error, defaultGroup: "input") }
    }

    /// Closes a descriptor `openNode` returned (through the seat that opened it).
    public static func closeNode(_ fd: Int32, seat: (any DeviceSeat)?) {
        if let seat { seat.closeDevice(fd: fd) } else { close(fd) }
    }

    /// EVIOCGABS: an absolute axis's range.
    public func range(of axis: UInt16) -> AxisRange? {
        var info = input_absinfo()
        guard silk_evdev_absinfo(fd, Int32(axis), &info) == 0 else { return nil }
        return AxisRange(info.minimum, info.maximum)
    }

    /// EVIOCGRAB: only this process receives the device's events (not the console, not others).
    public func grab() throws(FramebufferError) {
        do { _ = try systemCall("ioctl(EVIOCGRAB)") { silk_ioctl_int(fd, SILK_EVIOCGRAB, 1) } }
        catch { throw FramebufferError(device: path, kind: .systemCall(error)) }
        isGrabbed = true
    }

    /// Reads what is available (non-blocking). Returns nil when the device is gone (ENODEV).
    public func readEvents() -> [EvdevEvent]? {
        var out: [EvdevEvent] = []
        var buffer = [UInt8](repeating: 0, count: EvdevEvent.size * 64)
        while true {
            let n: Int
            do throws(SystemCallError) {
                n = try systemCall("read(evdev)") { buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
            } catch {
                if error.errno == EAGAIN { return out }
                return error.errno == ENODEV ? (out.isEmpty ? nil : out) : out
            }
            if n > 0 {
                out += buffer.withUnsafeBytes { EvdevEvent.parse(UnsafeRawBufferPointer(rebasing: $0.prefix(n))) }
                if n < buffer.count { return out }
                continue
            }
            return out.isEmpty ? nil : out
        }
    }
}

/// inotify(7) on a directory: creations, deletions and attribute changes (udev sets permissions
/// just after a node appears, so IN_ATTRIB retries a device that could not be opened yet).
public final class DirectoryWatch {
    public let fd: Int32
    public init(path: String) throws(FramebufferError) {
        do {
            fd = try systemCall("inotify_init1") { silk_inotify_init() }
            _ = try systemCall("inotify_add_watch(\(path))") { silk_inotify_watch_directory(fd, path) }
        } catch { throw FramebufferError(device: path, kind: .systemCall(error)) }
    }
    deinit { close(fd) }

    public enum Change: Equatable { case appeared(String), disappeared(String) }

    /// The names that changed since the last call.
    public func changes() -> [Change] {
        var out: [Change] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            guard let n = try? systemCall("read(inotify)", { buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }),
                  n > 0 else { return out }
            var o = 0
            // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[len]; }
            while o + 16 <= n {
                let mask = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: o + 4, as: UInt32.self) }
                let len = Int(buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: o + 12, as: UInt32.self) })
                let nameBytes = buffer[(o + 16)..<min(n, o + 16 + len)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                if mask & (SILK_IN_DELETE | SILK_IN_MOVED_FROM) != 0 { out.append(.disappeared(name)) }
                else if mask & (SILK_IN_CREATE | SILK_IN_ATTRIB | SILK_IN_MOVED_TO) != 0 { out.append(.appeared(name)) }
                o += 16 + len
            }
        }
    }
}
