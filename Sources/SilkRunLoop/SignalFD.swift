// signalfd(2): SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGUSR1 arrive as readable data on the loop, so shutdown runs ordinary
// code (the `.exit` observers) instead of async-signal-unsafe handlers.
//
// signalfd only sees signals that are *blocked*: a signal that some thread leaves unblocked is
// delivered to that thread with its default action (terminate) and never reaches the descriptor.
// Threads inherit their creator's mask, which is why `EventLoop.installSignalHandling()` must run
// on the main thread before any other thread exists.
import CSilkLinux
import Glibc
import SilkSystem
import Synchronization

/// The signals the loop turns into an orderly exit.
public enum TerminationSignal: Int32, Sendable, CaseIterable {
    /// SIGHUP (the terminal or ssh session that started it closed).
    case hangUp = 1
    /// SIGINT (Ctrl-C on a terminal).
    case interrupt = 2
    /// SIGQUIT (Ctrl-\ on a terminal).
    case quit = 3
    /// SIGUSR1 (sent by scripts; its default action would kill the process without cleanup).
    case user1 = 10
    /// SIGTERM (`kill`, systemd stop).
    case terminate = 15

    /// The conventional name, for messages ("SIGTERM").
    public var name: String {
        switch self {
        case .hangUp: "SIGHUP"
        case .interrupt: "SIGINT"
        case .quit: "SIGQUIT"
        case .user1: "SIGUSR1"
        case .terminate: "SIGTERM"
        }
    }

    /// The termination signal pending for the calling thread or the process, if any, left
    /// pending (so a loop run later still ends on it). Signals are blocked once
    /// `EventLoop.installSignalHandling()` ran, so a wait outside the loop — connecting to a
    /// compositor — polls this to stay interruptible.
    public static func pending() -> TerminationSignal? {
        TerminationSignal(rawValue: silk_pending_termination_signal())
    }
}

/// A non-blocking signalfd for the termination signals, closed on deinit. Creating it blocks
/// them in the calling thread (`silk_signalfd_int_term`). Used only by its loop's thread.
final class SignalFD {
    let fd: Int32

    init() throws(SystemCallError) {
        fd = try systemCall("signalfd") { silk_signalfd_int_term() }
    }

    deinit { close(fd) }

    /// Reads one pending signal (`read` of a `signalfd_siginfo`), or `nil` when none is pending.
    func next() throws(SystemCallError) -> TerminationSignal? {
        let number = try systemCall("read(signalfd)") { silk_signalfd_read(fd) }
        return TerminationSignal(rawValue: number)
    }
}

/// Set once `installSignalHandling()` has blocked the signals; `EventLoop.main` then watches them.
let signalHandlingInstalled = Atomic<Bool>(false)

extension EventLoop {
    /// Blocks the termination signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1) in the calling
    /// thread so that `EventLoop.main` can receive them through a signalfd and end `run()` with
    /// `.interrupted`, `.terminated`, … after running its `.exit` observers (where the app
    /// restores the terminal or console), and ignores SIGPIPE (a closed pipe is an EPIPE error).
    ///
    /// **Call it first thing in `main()`, on the main thread, before any other thread starts**
    /// (including libdispatch workers and Swift tasks): new threads inherit the blocked mask, and
    /// a thread that does not block the signals would take them with the default action, killing
    /// the process without running the exit observers. `Application` calls it for you.
    /// Calling it again is harmless. Calls `pthread_sigmask(SIG_BLOCK)`.
    public static func installSignalHandling() {
        if silk_block_int_term() != 0 {
            preconditionFailure("\(SystemCallError(call: "pthread_sigmask", errno: Glibc.errno))")
        }
        signalHandlingInstalled.store(true, ordering: .releasing)
    }
}
