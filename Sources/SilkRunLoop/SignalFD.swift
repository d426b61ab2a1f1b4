// signalfd(2): SIGINT and SIGTERM arrive as readable data on the loop, so shutdown runs ordinary
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
    /// SIGINT (Ctrl-C on a terminal).
    case interrupt = 2
    /// SIGTERM (`kill`, systemd stop).
    case terminate = 15
}

/// A non-blocking signalfd for SIGINT and SIGTERM, closed on deinit. Creating it blocks both
/// signals in the calling thread (`silk_signalfd_int_term`). Used only by its loop's thread.
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
    /// Blocks SIGINT and SIGTERM in the calling thread so that `EventLoop.main` can receive them
    /// through a signalfd and end `run()` with `.interrupted` / `.terminated` after running its
    /// `.exit` observers (where the app restores the terminal or console).
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
