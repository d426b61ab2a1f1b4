// timerfd(2): how real-clock timers wake the loop with nanosecond precision. The loop keeps one
// timerfd armed for its earliest deadline; the timer queue itself lives in Timers.swift.
import CSilkLinux
import Glibc
import SilkSystem

/// A non-blocking CLOCK_MONOTONIC timerfd (`timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC |
/// TFD_NONBLOCK)`), closed on deinit. Used only by its loop's thread.
final class TimerFD {
    let fd: Int32
    /// The deadline currently armed, so that re-arming to the same instant costs no syscall.
    private(set) var armedDeadline: LoopInstant?

    init() throws(SystemCallError) {
        fd = try systemCall("timerfd_create") { silk_timerfd_create_monotonic() }
    }

    deinit { close(fd) }

    /// Arms a single absolute expiry (`timerfd_settime(TFD_TIMER_ABSTIME)`), or disarms for `nil`.
    /// A deadline already past fires at once.
    func arm(at deadline: LoopInstant?) throws(SystemCallError) {
        guard deadline != armedDeadline else { return }
        // 0 would mean "disarm" to the kernel; CLOCK_MONOTONIC is never 0 after boot anyway.
        let nanoseconds = deadline.map { max($0.nanoseconds, 1) } ?? 0
        _ = try systemCall("timerfd_settime") { silk_timerfd_arm_absolute(fd, nanoseconds) }
        armedDeadline = deadline
    }

    /// Consumes the expiry count (`read`) after the descriptor was reported readable. The timer
    /// is one-shot, so after an expiry it is no longer armed.
    func clear() throws(SystemCallError) {
        var expirations: UInt64 = 0
        do throws(SystemCallError) {
            _ = try systemCall("read(timerfd)") { read(fd, &expirations, MemoryLayout<UInt64>.size) }
        } catch where error.errno == EAGAIN {
            return
        }
        armedDeadline = nil
    }
}
