// Seats without root: libseat (seatd, or systemd-logind) opens the DRM card and the evdev devices
// for an ordinary user, makes the process DRM master while its VT is in front, and reports VT
// switches (disable seat → stop presenting and reading input, then acknowledge; enable seat →
// set the mode again and repaint). Its descriptor is watched on the main loop by
// `FramebufferSession`; only start-up waits (bounded) for the first enable.
import CSeat
import Foundation
import Glibc
import SilkFramebuffer
import SilkSystem

/// Whether the KMS backend opens its devices through a seat (`--seat`).
public enum SeatPolicy: String, Sendable, CaseIterable {
    /// Through seatd or logind when one is running, else directly (one line says which group
    /// the user then needs).
    case auto
    /// Through seatd or logind; failing that is an error.
    case libseat
    /// Always open(2) directly (root, or the `video` and `input` groups).
    case direct
}

/// A libseat seat. Threads: any; every libseat call is made under one lock (libseat itself is
/// not thread-safe). The seat's callbacks run inside `libseat_dispatch`, on the thread holding
/// the lock, and only record the change for `dispatch` to return.
public final class LibSeat: DeviceSeat, @unchecked Sendable {
    /// `seatd seat0`, `logind seat0`.
    public private(set) var seatDescription = ""
    private let lock = Lock()
    private var seat: OpaquePointer?
    private var changes: [SeatChange] = []
    private var deviceIDs: [Int32: Int32] = [:]
    private let listener: UnsafeMutablePointer<libseat_seat_listener>

    /// The seat backends to try, in order, for `policy` (pure; the tests' seam): `LIBSEAT_BACKEND`
    /// when the user set it; else seatd when its socket exists, logind when systemd-logind runs
    /// and the process is in a login session.
    /// libseat's own "builtin" backend (an in-process seatd, root only) is never chosen
    /// implicitly: root without a seat daemon opens devices directly.
    public static func backendsToTry(policy: SeatPolicy, environment: [String: String],
                                     fileExists: (String) -> Bool) -> [String] {
        if policy == .direct { return [] }
        if let forced = environment["LIBSEAT_BACKEND"], !forced.isEmpty { return [forced] }
        var out: [String] = []
        if fileExists(environment["SEATD_SOCK"] ?? "/run/seatd.sock") { out.append("seatd") }
        // logind gives a seat only to a process in a login session (pam_systemd sets
        // XDG_SESSION_ID; a systemd unit gets one with PAMName=login).
        if fileExists("/run/systemd/seats"), let session = environment["XDG_SESSION_ID"], !session.isEmpty { out.append("logind") }
        return out
    }

    /// Opens the seat through the first backend of `backends` that works and waits (at most
    /// `timeout` seconds, the one blocking wait: start-up) until the seat is enabled. Throws a
    /// message naming what failed.
    public init(backends: [String], timeout: Double = 5) throws(KMSError) {
        listener = .allocate(capacity: 1)
        listener.initialize(to: libseat_seat_listener(
            enable_seat: { _, data in
                guard let data else { return }
                Unmanaged<LibSeat>.fromOpaque(data).takeUnretainedValue().changes.append(.enabled)
            },
            disable_seat: { _, data in
                guard let data else { return }
                Unmanaged<LibSeat>.fromOpaque(data).takeUnretainedValue().changes.append(.disabled)
            }))
        var failures: [String] = []
        var opened: (OpaquePointer, String)?
        let userSet = ProcessInfo.processInfo.environment["LIBSEAT_BACKEND"]
        for backend in backends {
            // libseat picks its backend from the environment; set it only for the call (start-up,
            // before any other Silk thread reads the environment), then put it back.
            setenv("LIBSEAT_BACKEND", backend, 1)
            let s = libseat_open_seat(listener, Unmanaged.passUnretained(self).toOpaque())
            let e = errno
            if let userSet { setenv("LIBSEAT_BACKEND", userSet, 1) } else { unsetenv("LIBSEAT_BACKEND") }
            if let s { opened = (s, backend); break }
            failures.append("\(backend): \(String(cString: strerror(e)))")
        }
        guard let opened else {
            throw KMSError(device: "seat", kind: .seatUnavailable(failures.isEmpty ? "no seatd socket and no logind" : failures.joined(separator: "; ")))
        }
        seat = opened.0
        let name = libseat_seat_name(opened.0).map { String(cString: $0) } ?? "?"
        seatDescription = "\(opened.1) \(name)"
        // Wait for the first enable (seatd sends it once the session's VT is in front; libseat's
        // `noop` backend, which opens devices with open(2), never sends one: it is always active).
        let deadline = Date(timeIntervalSinceNow: timeout)
        var enabled = opened.1 == "noop"
        lock.lock()
        while !enabled && Date() < deadline {
            let r = libseat_dispatch(opened.0, 100)
            let e = errno
            for c in changes { enabled = (c == .enabled) }
            changes.removeAll()
            if r < 0 && e != EINTR { break }
        }
        lock.unlock()
        if !enabled {
            libseat_close_seat(opened.0)
            seat = nil
            throw KMSError(device: "seat", kind: .seatUnavailable("\(seatDescription) did not become active within \(Int(timeout)) s (is another session in front on this VT?)"))
        }
    }

    deinit {
        // Also after a failed init (a class's deinit runs once every property was set).
        if let seat { libseat_close_seat(seat) }
        // libseat keeps the listener pointer until the seat is closed.
        listener.deallocate()
    }

    /// Opens `path` through the seat (the seat daemon opens it and passes the descriptor).
    public func openDevice(_ path: String) throws(SystemCallError) -> Int32 {
        lock.lock(); defer { lock.unlock() }
        guard let seat else { throw SystemCallError(call: "libseat_open_device(\(path))", errno: EBADF) }
        var fd: Int32 = -1
        let id = libseat_open_device(seat, path, &fd)
        if id < 0 || fd < 0 { throw SystemCallError(call: "libseat_open_device(\(path))", errno: errno == 0 ? EACCES : errno) }
        // The seat opens blocking descriptors; Silk reads them only when epoll says so, never
        // blocking.
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
        deviceIDs[fd] = id
        return fd
    }

    /// Tells the seat the device is closed and closes the descriptor.
    public func closeDevice(fd: Int32) {
        lock.lock(); defer { lock.unlock() }
        if let seat, let id = deviceIDs.removeValue(forKey: fd) { _ = libseat_close_device(seat, id) }
        Glibc.close(fd)
    }

    /// The seat's descriptor (readable: call `dispatch`).
    public var eventFD: Int32 {
        lock.lock(); defer { lock.unlock() }
        return seat.map { libseat_get_fd($0) } ?? -1
    }

    /// Reads what the seat sent (never blocks) and returns the activity changes.
    public func dispatch() -> [SeatChange] {
        lock.lock(); defer { lock.unlock() }
        guard let seat else { return [] }
        _ = libseat_dispatch(seat, 0)
        let out = changes
        changes.removeAll()
        return out
    }

    /// Acknowledges a disable (the seat may now drop DRM master and revoke input devices).
    public func acknowledgeDisable() {
        lock.lock(); defer { lock.unlock() }
        if let seat { _ = libseat_disable_seat(seat) }
    }

    /// Asks the seat to switch to VT `number`.
    public func switchSession(_ number: Int) {
        lock.lock(); defer { lock.unlock() }
        if let seat, number > 0, number < 64 { _ = libseat_switch_session(seat, Int32(number)) }
    }

    /// One line for when no seat is used: who may open the devices directly, naming the group
    /// the user lacks for the card (`video`) and for the input devices (`input`). `card`: the
    /// card's path; `inputDirectory`: where the evdev devices are. `lacksGroup`: whether the
    /// user lacks one (then the line is worth showing on stderr).
    public static func directAccessNote(card: String?, inputDirectory: String = "/dev/input",
                                        reason: String) -> (line: String, lacksGroup: Bool) {
        if geteuid() == 0 { return ("seat: \(reason): opening devices directly (as root)", false) }
        var missing: [String] = []
        let cards = card.map { [$0] } ?? KMSCard.candidatePaths()
        if let c = cards.first, access(c, R_OK | W_OK) != 0 {
            missing.append("'\(groupName(owning: c) ?? "video")' for \(c)")
        }
        let events = ((try? FileManager.default.contentsOfDirectory(atPath: inputDirectory)) ?? []).filter { $0.hasPrefix("event") }.sorted()
        if let e = events.first.map({ inputDirectory + "/" + $0 }), access(e, R_OK) != 0 {
            missing.append("'\(groupName(owning: e) ?? "input")' for \(inputDirectory)/event*")
        }
        if missing.isEmpty { return ("seat: \(reason): opening devices directly (the user may open them)", false) }
        return ("seat: \(reason): opening devices directly, and the user lacks the group "
            + missing.joined(separator: " and ") + " (run seatd, or sudo usermod -aG GROUP $USER)", true)
    }
}
