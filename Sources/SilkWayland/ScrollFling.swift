import Foundation
import SilkInput
import SilkRunLoop

/// Kinetic scrolling after a touchpad scroll: `wl_pointer.axis_stop` says the fingers lifted;
/// if they were moving, scrolling continues at the release velocity and decays with the same
/// model as a `ScrollNode`'s fling (`Deceleration`: exponential, τ = 325 ms), delivered as
/// continuous scroll events on a 60 Hz main-loop timer until it is slower than 20 pt/s. Any new
/// scroll, button or leave stops it. Main thread.
final class ScrollFling {
    var deliver: ((ScrollDelta) -> Void)?
    /// Recent continuous deltas (time in seconds), for the release velocity.
    private var samples: [(t: Double, dx: Double, dy: Double)] = []
    private var velocity = (x: 0.0, y: 0.0)
    private var timer: TimerToken?
    private var last = 0.0
    static let timeConstant = Deceleration.timeConstant
    static let minimumSpeed = Deceleration.minimumSpeed
    static let window = 0.1

    func track(_ delta: ScrollDelta, at t: Double) {
        samples.append((t, delta.dx, delta.dy))
        samples.removeAll { $0.t < t - ScrollFling.window }
    }

    /// The velocity (points per second) the recent samples give at `t`.
    func releaseVelocity(at t: Double) -> (x: Double, y: Double) {
        let recent = samples.filter { $0.t >= t - ScrollFling.window }
        guard recent.count >= 2, let first = recent.first else { return (0, 0) }
        let span = max(t - first.t, 1.0 / 120)
        return (recent.reduce(0) { $0 + $1.dx } / span, recent.reduce(0) { $0 + $1.dy } / span)
    }

    func start(at t: Double) {
        velocity = releaseVelocity(at: t)
        samples = []
        guard (velocity.x * velocity.x + velocity.y * velocity.y).squareRoot() >= ScrollFling.minimumSpeed * 2 else { return }
        last = t
        timer = EventLoop.main.addTimer(after: .milliseconds(16), repeating: .microseconds(16_667)) { [unowned self] in
            step(now: InputClock.now)
        }
    }

    /// One animation step at `now`: delivers the distance travelled since the last step.
    func step(now: Double) {
        let dt = max(0, now - last)
        last = now
        var x = Deceleration(velocity: velocity.x), y = Deceleration(velocity: velocity.y)
        let dx = x.advance(by: dt), dy = y.advance(by: dt)
        velocity = (x.velocity, y.velocity)
        deliver?(ScrollDelta(dx: dx, dy: dy, source: .continuous))
        if (velocity.x * velocity.x + velocity.y * velocity.y).squareRoot() < ScrollFling.minimumSpeed { stop() }
    }

    var isRunning: Bool { timer != nil }
    /// Still faster than `minimumSpeed` (the timer stops once it is not).
    var isDecelerating: Bool { (velocity.x * velocity.x + velocity.y * velocity.y).squareRoot() >= ScrollFling.minimumSpeed }

    /// Sets the fling's velocity without a timer (tests drive `step(now:)` themselves).
    func setVelocityForTesting(x: Double = 0, y: Double, at t: Double) {
        velocity = (x, y)
        last = t
    }

    func stop() {
        if let timer { EventLoop.main.cancelTimer(timer) }
        timer = nil
        samples = []
    }
}
