// The virtual console under the framebuffer: switched to graphics mode (so fbcon neither draws
// text nor its blinking cursor over the picture), unblanked, cursor hidden and screen blanking off
// while Silk runs — and all of it put back on every way out: a normal exit and SIGINT/SIGTERM
// (the event loop's `.exit` observers call `restore()`), `exit()` and fatal signals (the C console
// guard's atexit and signal handlers, armed here).
import CSilkLinux
import Foundation
import Glibc
import SilkRunLoop
import SilkSystem

/// The console Silk took over; `restore()` gives it back (once; later calls do nothing).
public final class Console: @unchecked Sendable {
    /// The tty whose mode was changed ("/dev/tty1").
    public let ttyPath: String
    private let fd: Int32
    private let previousMode: Int32
    private let lock = Lock()
    private var restored = false

    static let KD_TEXT: Int32 = 0x00, KD_GRAPHICS: Int32 = 0x01

    /// Takes the active virtual console: the process's own tty when it is a VT (a systemd unit
    /// with `TTYPath=`), else the foreground VT found through /dev/tty0 (VT_GETSTATE).
    /// Changing the mode needs the VT to be the controlling tty or CAP_SYS_TTY_CONFIG (root).
    public static func take() throws(FramebufferError) -> Console {
        var candidates: [String] = []
        if isatty(0) == 1, let name = ttyname(0).map({ String(cString: $0) }), name.range(of: #"^/dev/tty[0-9]+$"#, options: .regularExpression) != nil {
            candidates.append(name)
        }
        if let active = activeVT() { candidates.append("/dev/tty\(active)") }
        candidates.append("/dev/tty0")
        var lastError: FramebufferError?
        for path in candidates {
            do { return try Console(path: path) } catch { lastError = error }
        }
        throw lastError ?? FramebufferError(device: "/dev/tty0", kind: .missing)
    }

    /// The foreground VT's number (VT_GETSTATE on /dev/tty0), if readable.
    static func activeVT() -> Int? {
        let fd = open("/dev/tty0", O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var state = vt_stat()
        guard silk_ioctl_ptr(fd, SILK_VT_GETSTATE, &state) == 0 else { return nil }
        return Int(state.v_active)
    }

    private init(path: String) throws(FramebufferError) {
        ttyPath = path
        let fd: Int32
        do {
            fd = try systemCall("open(\(path))") { open(path, O_RDWR | O_CLOEXEC | O_NOCTTY) }
        } catch { throw FramebufferError.opening(path, error, defaultGroup: "tty") }
        var mode: Int32 = 0
        do {
            _ = try systemCall("ioctl(KDGETMODE)") { silk_ioctl_ptr(fd, SILK_KDGETMODE, &mode) }
            _ = try systemCall("ioctl(KDSETMODE, KD_GRAPHICS)") { silk_ioctl_int(fd, SILK_KDSETMODE, UInt(Console.KD_GRAPHICS)) }
        } catch {
            Glibc.close(fd)
            if error.errno == EPERM || error.errno == EACCES {
                throw FramebufferError(device: path, kind: .permissionDenied(group: nil))
            }
            throw FramebufferError(device: path, kind: .systemCall(error))
        }
        self.fd = fd
        previousMode = mode
        // Hide the cursor, turn blanking and VESA powerdown off (console_codes(4)).
        write("\u{1b}[?25l\u{1b}[9;0]\u{1b}[14;0]")
        // Put back: the previous mode, the cursor, the kernel's blanking interval.
        let minutes = Console.blankingMinutes()
        let back = "\u{1b}[?25h\u{1b}[9;\(minutes)]"
        _ = back.withCString { silk_console_guard_arm(fd, previousMode, $0, strlen($0)) }
    }

    deinit { restore(); close(fd) }

    private func write(_ s: String) {
        _ = s.withCString { Glibc.write(fd, $0, strlen($0)) }
    }

    /// The kernel's console blanking interval in minutes (`consoleblank`, seconds), 0 if unknown.
    static func blankingMinutes() -> Int {
        guard let s = try? String(contentsOfFile: "/sys/module/kernel/parameters/consoleblank", encoding: .utf8),
              let seconds = Int(s.trimmingCharacters(in: .whitespacesAndNewlines)) else { return 0 }
        return (seconds + 59) / 60
    }

    /// Puts the console back (mode, cursor, blanking) and reports what the mode reads now
    /// (KDGETMODE), e.g. "/dev/tty1 back in text mode (KD_TEXT)". Any thread; idempotent.
    @discardableResult
    public func restore() -> String {
        lock.lock(); defer { lock.unlock() }
        if !restored {
            restored = true
            silk_console_guard_restore()
        }
        var mode: Int32 = -1
        _ = silk_ioctl_ptr(fd, SILK_KDGETMODE, &mode)
        let name = mode == Console.KD_TEXT ? "text mode (KD_TEXT)" : mode == Console.KD_GRAPHICS ? "graphics mode (KD_GRAPHICS)" : "mode \(mode)"
        return "\(ttyPath) back in \(name)"
    }
}
