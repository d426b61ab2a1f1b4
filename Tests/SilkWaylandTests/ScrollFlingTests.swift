import SilkInput
import Testing
@testable import SilkWayland

/// Kinetic scrolling after a touchpad scroll (`wl_pointer.axis_stop`).
@Suite struct ScrollFlingTests {
    @Test func releaseVelocityComesFromTheLastHundredMilliseconds() {
        let fling = ScrollFling()
        // An old, fast sample outside the window, then 10 pt every 10 ms: 1,000 pt/s.
        fling.track(ScrollDelta(dy: 500, source: .continuous), at: 0.0)
        for i in 0..<10 { fling.track(ScrollDelta(dy: 10, source: .continuous), at: 1.0 + Double(i) * 0.01) }
        let v = fling.releaseVelocity(at: 1.1)
        #expect(abs(v.y - 1000) < 1)
        #expect(v.x == 0)
    }

    @Test func stepsDecayAndAddUpToVelocityTimesTau() {
        let fling = ScrollFling()
        for i in 0..<10 { fling.track(ScrollDelta(dy: 10, source: .continuous), at: Double(i) * 0.01) }
        var travelled = 0.0, steps = 0, last = Double.infinity
        fling.deliver = { d in travelled += d.dy; steps += 1; #expect(d.dy <= last); last = d.dy }
        // Drive the steps by hand (no loop timer): start's velocity, then 60 Hz steps.
        let v = fling.releaseVelocity(at: 0.1).y
        fling.setVelocityForTesting(y: v, at: 0.1)
        var t = 0.1
        while steps < 600 { t += 1.0 / 60; fling.step(now: t); if !fling.isDecelerating { break } }
        // A full exponential decay travels v·τ; stopping below 20 pt/s leaves out 20·τ at most.
        #expect(travelled <= v * ScrollFling.timeConstant + 0.001)
        #expect(travelled >= (v - ScrollFling.minimumSpeed) * ScrollFling.timeConstant - 0.001)
        #expect(steps > 10)
    }
}
