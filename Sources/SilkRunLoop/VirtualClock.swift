// The loop's notion of time. A real loop reads CLOCK_MONOTONIC; a virtual loop's time stands still
// until a test moves it with `advance(by:)`, which fires the timers that fall due, in deadline
// order, each seeing `now` equal to its own deadline. That makes animation and frame-pacing tests
// deterministic: no sleeps, no flakiness on a loaded two-core CI machine.
import CSilkLinux

/// A point on a loop's clock, in nanoseconds since the clock's origin: CLOCK_MONOTONIC's origin
/// (boot) for `.monotonic` loops, 0 for `.virtual` ones. Only compare instants of the same loop.
public struct LoopInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the clock's origin (boot for a monotonic loop, 0 for a virtual one).
    public var nanoseconds: Int64

    /// The instant `nanoseconds` after the clock's origin.
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// The origin of a virtual clock.
    public static let zero = LoopInstant(nanoseconds: 0)

    /// Now on CLOCK_MONOTONIC (`clock_gettime`), the clock timerfds and real loops count in.
    public static var monotonicNow: LoopInstant { LoopInstant(nanoseconds: silk_clock_monotonic_ns()) }

    public static func < (lhs: LoopInstant, rhs: LoopInstant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// The instant `rhs` after `lhs`, saturating at the ends of `Int64` instead of trapping (a
    /// timer "never" due is `.max`).
    public static func + (lhs: LoopInstant, rhs: Duration) -> LoopInstant {
        let (sum, overflow) = lhs.nanoseconds.addingReportingOverflow(rhs.clampedNanoseconds)
        return LoopInstant(nanoseconds: overflow ? (rhs < .zero ? .min : .max) : sum)
    }

    /// The time from `rhs` to `lhs` (negative when `lhs` is earlier).
    public static func - (lhs: LoopInstant, rhs: LoopInstant) -> Duration {
        .nanoseconds(lhs.nanoseconds - rhs.nanoseconds)
    }

    public var description: String { "\(Double(nanoseconds) / 1e6) ms" }
}

/// Which clock a loop's timers run on.
public enum LoopClock: Sendable, Equatable {
    /// CLOCK_MONOTONIC, with timers delivered through a timerfd.
    case monotonic
    /// A clock that starts at `LoopInstant.zero` and moves only with `EventLoop.advance(by:)`.
    /// Waiting for descriptors, performed blocks and the `run` timeouts still use real time.
    case virtual
}

extension Duration {
    /// Whole nanoseconds, saturating at `Int64`'s range (a `Duration` holds 128 bits).
    var clampedNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflow2) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflow2 { return seconds < 0 ? .min : .max }
        return sum
    }
}

extension EventLoop {
    /// Moves a `.virtual` clock forward by `duration`, firing every timer whose deadline falls in
    /// `(now, now + duration]` in deadline order (ties: the timer scheduled first fires first).
    /// Before each handler runs, `now` equals that timer's deadline; a repeating timer fires once
    /// per period inside the window, and timers scheduled by handlers fire too if they fall due
    /// inside it. Afterwards `now` is the end of the window.
    ///
    /// Only timers run: performed blocks, the main queue and observers run on the next iteration
    /// (`runOnce(timeout: .zero)`), exactly as after a real timer wake-up.
    ///
    /// Loop thread only; not from inside a timer handler. Traps on a `.monotonic` loop.
    public func advance(by duration: Duration) {
        assertOnLoopThread()
        precondition(clock == .virtual, "advance(by:) needs a loop created with clock: .virtual")
        precondition(duration >= .zero, "a clock cannot run backwards")
        let target = now + duration
        fireTimers(dueBy: target, movingVirtualClock: true)
        virtualNanoseconds.store(target.nanoseconds, ordering: .relaxed)
    }
}
