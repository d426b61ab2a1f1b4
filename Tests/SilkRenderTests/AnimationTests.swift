import Foundation
import Testing
import SilkGeometry
import SilkRaster
import SilkSystem
@testable import SilkRender

private typealias AffineTransform = SilkGeometry.AffineTransform

/// The curves against values computed independently by `scripts/animation-reference.py`:
/// springs by integrating the equation of motion with RK4 in 10 µs steps (Silk uses the
/// closed-form solution), Béziers by bisecting the Bernstein form 200 times (Silk uses
/// Newton's method on the polynomial form).
@Suite struct AnimationCurveTests {
    typealias Spring = LayerAnimation.Spring

    static let springs: [(Spring, settling: Double, values: [(Double, Double)])] = [
        (Spring(mass: 1, stiffness: 100, damping: 10), 1.2702,
         [(0.05, 0.104405473), (0.1, 0.340299847), (0.2, 0.849425635), (0.3, 1.124354767), (0.5, 1.074590567), (0.8, 0.979006627)]),
        (Spring(mass: 1, stiffness: 100, damping: 20), 0.9233,
         [(0.05, 0.090204010), (0.1, 0.264241118), (0.2, 0.593994150), (0.3, 0.800851727), (0.5, 0.959572318), (0.8, 0.996980836)]),
        (Spring(mass: 1, stiffness: 100, damping: 40), 2.6058,
         [(0.05, 0.069705206), (0.1, 0.177736576), (0.2, 0.369639978), (0.3, 0.517775356), (0.5, 0.717828826), (0.8, 0.873699207)]),
        (Spring(mass: 2, stiffness: 300, damping: 5, initialVelocity: 3), 5.4420,
         [(0.05, 0.306776279), (0.1, 0.814333477), (0.2, 1.665680142), (0.3, 1.550174735), (0.5, 0.459888287), (0.8, 1.332247000)]),
    ]

    @Test(arguments: 0..<4)
    func springMatchesIntegratedReference(_ i: Int) {
        let (spring, settling, values) = Self.springs[i]
        for (t, expected) in values {
            #expect(abs(spring.value(at: t) - expected) < 1e-6, "spring \(i) at \(t): \(spring.value(at: t)) vs \(expected)")
        }
        // The settling time is the last moment the spring is 0.1 % away from its end (±5 ms).
        #expect(abs(spring.settlingDuration - settling) < 0.005, "spring \(i) settles at \(spring.settlingDuration), reference \(settling)")
        #expect(spring.value(at: settling + 0.01) == 1 || abs(spring.value(at: settling + 0.01) - 1) < 0.001)
    }

    @Test func cubicBezierMatchesBisectedReference() {
        let cases: [((Double, Double, Double, Double), [(Double, Double)])] = [
            ((0.25, 0.1, 0.25, 1), [(0.1, 0.094796306), (0.25, 0.408510591), (0.5, 0.802403388), (0.75, 0.960458978), (0.9, 0.994316477)]),
            ((0.42, 0, 0.58, 1), [(0.1, 0.019722454), (0.25, 0.129161931), (0.5, 0.5), (0.75, 0.870838069), (0.9, 0.980277546)]),
            ((0.68, -0.55, 0.27, 1.55), [(0.1, -0.066271410), (0.25, -0.082935093), (0.5, 0.596596292), (0.75, 1.088824395), (0.9, 1.062695450)]),
        ]
        for ((x1, y1, x2, y2), values) in cases {
            let timing = LayerAnimation.Timing.cubicBezier(x1: x1, y1: y1, x2: x2, y2: y2)
            #expect(timing(0) == 0 && timing(1) == 1)
            for (t, expected) in values {
                #expect(abs(timing(t) - expected) < 1e-6, "bezier \(x1),\(y1),\(x2),\(y2) at \(t): \(timing(t)) vs \(expected)")
            }
        }
    }

    @Test func badCurveInputIsClampedNeverNaN() {
        // NaN and infinite control points give linear timing.
        #expect(LayerAnimation.Timing.cubicBezier(x1: .nan, y1: 0, x2: 1, y2: 1)(0.3) == 0.3)
        #expect(LayerAnimation.Timing.cubicBezier(x1: 0.2, y1: Double.infinity, x2: 1, y2: 1)(0.7) == 0.7)
        // x outside 0…1 is clamped, so the curve stays a function of time.
        let v = LayerAnimation.Timing.cubicBezier(x1: -3, y1: 0, x2: 7, y2: 1)(0.5)
        #expect(v.isFinite && v >= 0 && v <= 1)
        #expect(LayerAnimation.Timing.linear(.nan) == 1)
        // A spring that would never settle (no damping, negative damping, NaN) is damped
        // enough to settle within the 10 s cap.
        for damping in [0.0, -5.0, Double.nan, -Double.infinity] {
            let s = LayerAnimation.Spring(mass: 1, stiffness: 100, damping: damping)
            #expect(s.damping > 0)
            #expect(s.settlingDuration > 0 && s.settlingDuration <= LayerAnimation.Spring.maximumSettlingDuration)
            #expect(s.value(at: s.settlingDuration) == 1)
        }
        // Nonsense physics becomes the defaults; huge velocities are bounded; nothing is NaN.
        let odd = LayerAnimation.Spring(mass: .nan, stiffness: -1, damping: 1e300, initialVelocity: .infinity)
        #expect(odd.mass == 1 && odd.stiffness == 100 && odd.initialVelocity == 0)
        #expect(odd.settlingDuration <= LayerAnimation.Spring.maximumSettlingDuration)
        for t in stride(from: 0.0, through: 11, by: 0.25) { #expect(odd.value(at: t).isFinite) }
        let weak = LayerAnimation.Spring(mass: 1e6, stiffness: 1e-6, damping: 0, initialVelocity: 1e9)
        #expect(weak.settlingDuration == LayerAnimation.Spring.maximumSettlingDuration)
        #expect(weak.value(at: 10) == 1)
    }

    @Test func badTimesAreClamped() {
        for d in [-1.0, 0.0, Double.nan, Double.infinity, -Double.infinity] {
            let a = LayerAnimation(property: .opacity(from: 0, to: 1), duration: d, delay: d, repeatCount: d)
            #expect(a.duration == 0.001, "duration \(d)")
            #expect(a.delay == 0, "delay \(d)")
            #expect(a.repeatCount == (d == .infinity ? .infinity : 1), "repeat \(d)")
        }
    }
}

/// Animations evaluated the way the compositor does (`AnimationClock`), frame by frame.
@Suite struct AnimationEvaluationTests {
    func box() -> Layer {
        let l = Layer()
        l.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        l.backgroundColor = .red
        return l
    }

    @Test func delayRepeatAndAutoreverse() {
        let l = box()
        l.position = Point(x: 100, y: 5)
        l.add(LayerAnimation(property: .position(from: Point(x: 0, y: 5), to: nil), duration: 1, timing: .linear,
                             delay: 0.5, repeatCount: 2, autoreverses: true))
        var clock = AnimationClock()
        let s = l.snapshot()
        func x(_ t: Double) -> Double { clock.beginFrame(); return clock.evaluate(s, at: t).position.x }
        #expect(x(0) == 0)          // the start: the delay shows `from`
        #expect(x(0.4) == 0)
        #expect(abs(x(1.0) - 50) < 1e-9)   // half way out
        #expect(abs(x(1.5) - 100) < 1e-9)  // the end of the first pass
        #expect(abs(x(2.0) - 50) < 1e-9)   // coming back
        #expect(abs(x(3.0) - 50) < 1e-9)   // second repeat, out again
        #expect(clock.hasRunningAnimations)
        #expect(x(4.6) == 100)             // ended: the model value shows
        #expect(!clock.hasRunningAnimations)
    }

    @Test func completionsReportFinishedOnceAndReplacedAsFalse() {
        let l = box()
        let log = Locked<[String]>([])
        l.add(LayerAnimation(property: .opacity(from: 0, to: nil), duration: 0.1, completion: { ok in log.withLock { $0.append("fade \(ok)") } }))
        var clock = AnimationClock()
        clock.beginFrame(); _ = clock.evaluate(l.snapshot(), at: 0)
        #expect(clock.completions.isEmpty)
        clock.beginFrame(); _ = clock.evaluate(l.snapshot(), at: 0.2)
        #expect(clock.completions.count == 1)
        clock.completions.forEach { $0() }
        clock.beginFrame(); _ = clock.evaluate(l.snapshot(), at: 0.3)
        #expect(clock.completions.isEmpty)   // once
        // Replaced before it ended: `false`, at once, on the thread that replaced it.
        l.add(LayerAnimation(property: .position(from: .zero, to: nil), duration: 5, completion: { ok in log.withLock { $0.append("move \(ok)") } }))
        l.add(LayerAnimation(property: .position(from: .zero, to: nil), duration: 5))
        // Finished ones are not reported again when removed.
        l.removeAllAnimations()
        #expect(log.current == ["fade true", "move false"])
        // A NaN target is refused, and says so.
        l.add(LayerAnimation(property: .position(from: .zero, to: Point(x: .nan, y: 0)), duration: 1, completion: { ok in log.withLock { $0.append("nan \(ok)") } }))
        #expect(l.animations.isEmpty)
        #expect(log.current.last == "nan false")
    }

    /// An off-screen render that settles the tree (`Window.renderImage`) must not end the
    /// window's animations: no completions there, and the window's compositor still plays them.
    @Test func offscreenSettlingDoesNotEndAnimations() throws {
        let root = box()
        root.frame = Rect(x: 0, y: 0, width: 20, height: 20)
        let ran = Locked(0)
        root.add(LayerAnimation(property: .opacity(from: 0, to: nil), duration: 1, completion: { _ in ran.withLock { $0 += 1 } }))
        let s = root.snapshot()
        let offscreen = try Compositor(pixelWidth: 20, pixelHeight: 20)
        offscreen.endsAnimations = false
        offscreen.compositeFully(s, at: 0)
        #expect(offscreen.composite(s, at: 3600).completions.isEmpty)
        let window = try Compositor(pixelWidth: 20, pixelHeight: 20)
        #expect(window.composite(s, at: 0).hasRunningAnimations)
        let end = window.composite(s, at: 1.5)
        #expect(!end.hasRunningAnimations && end.completions.count == 1)
        end.completions.forEach { $0() }
        #expect(ran.current == 1)
    }

    /// Interrupting a move with a new one that begins from the current state continues from
    /// the on-screen value: no frame jumps further than the motion itself would carry it.
    @Test(arguments: [LayerAnimation.Timing.linear, .easeInOut, .spring(.default)])
    func retargetingStartsFromThePresentationValue(_ timing: LayerAnimation.Timing) {
        let l = box()
        l.position = Point(x: 200, y: 5)
        l.add(LayerAnimation(property: .position(from: Point(x: 0, y: 5), to: nil), duration: 1, timing: timing))
        var clock = AnimationClock()
        var xs: [Double] = []
        var t = 0.0
        for frame in 0..<120 {
            if frame == 30 {
                // Mid-flight, the target changes: a new animation towards the new model value.
                l.position = Point(x: -100, y: 5)
                l.add(LayerAnimation(property: .position(from: Point(x: 200, y: 5), to: nil), duration: 1, timing: timing,
                                     beginsFromCurrentState: true))
            }
            xs.append(clock.evaluate(l.snapshot(), at: t).position.x)
            t += 1.0 / 60
        }
        let steps = zip(xs, xs.dropFirst()).map { abs($1 - $0) }
        let before = steps[..<29].max()!, at = steps[29]
        // The step across the retarget is no larger than the largest step of the first flight
        // (a jump to `from` would be a step of ~150 points).
        #expect(at <= max(before, 1) * 1.5, "step at retarget \(at), largest before \(before)")
        #expect(abs(xs.last! - -100) < 0.5)
        // Without beginsFromCurrentState the same change jumps to `from`: the test can fail.
        let l2 = box()
        l2.position = Point(x: 200, y: 5)
        l2.add(LayerAnimation(property: .position(from: Point(x: 0, y: 5), to: nil), duration: 1, timing: timing))
        var clock2 = AnimationClock()
        let mid = clock2.evaluate(l2.snapshot(), at: 0.0)
        _ = clock2.evaluate(l2.snapshot(), at: 0.5)
        l2.add(LayerAnimation(property: .position(from: Point(x: 200, y: 5), to: nil), duration: 1, timing: timing))
        let jumped = clock2.evaluate(l2.snapshot(), at: 0.5 + 1.0 / 60).position.x
        #expect(mid.position.x == 0 && abs(jumped - 200) < 5)
    }

    /// A spring taking over a moving value keeps its speed: right after the hand-over the value
    /// moves at the old animation's 300 pt/s (without the carried velocity it starts from rest).
    @Test func springRetargetCarriesVelocity() {
        let l = box()
        l.position = Point(x: 300, y: 5)
        l.add(LayerAnimation(property: .position(from: Point(x: 0, y: 5), to: nil), duration: 1, timing: .linear))
        var clock = AnimationClock()
        for frame in 0..<20 { clock.beginFrame(); _ = clock.evaluate(l.snapshot(), at: Double(frame) / 60) }
        l.position = Point(x: 600, y: 5)
        l.add(LayerAnimation(property: .position(from: .zero, to: nil), spring: .init(dampingRatio: 1, response: 0.5),
                             beginsFromCurrentState: true))
        let t0 = 20.0 / 60, dt = 1e-5
        let x0 = clock.evaluate(l.snapshot(), at: t0).position.x
        let x1 = clock.evaluate(l.snapshot(), at: t0 + dt).position.x
        #expect(abs(x0 - 100) < 1e-6)                                   // no jump in value
        #expect(abs((x1 - x0) / dt - 300) < 5, "speed after the hand-over \((x1 - x0) / dt) pt/s")  // nor in speed
    }

    @Test func everyPropertyAnimates() {
        let l = box()
        l.bounds = Rect(x: 0, y: 0, width: 40, height: 20)
        l.transform = AffineTransform(rotationAngle: .pi / 2)
        l.backgroundColor = Color(red: 0, green: 0, blue: 1)
        l.cornerRadius = 8
        l.borderWidth = 4
        l.borderColor = .white
        let props: [LayerAnimation.Property] = [
            .bounds(from: Rect(x: 0, y: 0, width: 20, height: 10), to: nil), .transform(from: .identity, to: nil),
            .backgroundColor(from: Color(red: 1, green: 0, blue: 0), to: nil), .cornerRadius(from: 0, to: nil),
            .borderWidth(from: 0, to: nil), .borderColor(from: nil, to: nil), .opacity(from: 0, to: 0.5),
        ]
        for p in props { l.add(LayerAnimation(property: p, duration: 1, timing: .linear)) }
        var clock = AnimationClock()
        let s = l.snapshot()
        _ = clock.evaluate(s, at: 0)
        let v = clock.evaluate(s, at: 0.5)
        #expect(v.bounds.size == Size(width: 30, height: 15))
        let quarter = AffineTransform(rotationAngle: .pi / 4)
        #expect(abs(v.transform.a - quarter.a) < 1e-9 && abs(v.transform.b - quarter.b) < 1e-9 && abs(v.transform.c - quarter.c) < 1e-9)
        #expect(abs(v.backgroundColor!.red - 0.5) < 1e-9 && abs(v.backgroundColor!.blue - 0.5) < 1e-9)
        #expect(v.cornerRadius == 4 && v.borderWidth == 2)
        #expect(abs(v.borderColor!.alpha - 0.5) < 1e-9 && v.borderColor!.red == 1)  // from transparent: same hue
        #expect(v.opacity == 0.25)
    }

    /// Degenerate values along the way — a zero scale, a spring overshooting into a mirror, a
    /// size of zero — composite without a crash and settle on the model.
    @Test func degenerateFramesCompositeSafely() throws {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 40, height: 40)
        let l = Layer()
        l.frame = Rect(x: 10, y: 10, width: 20, height: 20)
        let image = try Bitmap(width: 8, height: 8)
        image.fill(.red)
        l.contents = image
        l.backgroundColor = .blue
        l.cornerRadius = 4
        root.addSublayer(l)
        l.add(LayerAnimation(property: .transform(from: AffineTransform(scaleX: 0, y: 0), to: nil),
                             spring: .init(mass: 1, stiffness: 400, damping: 2)))
        l.add(LayerAnimation(property: .bounds(from: Rect(x: 0, y: 0, width: 0, height: 0), to: nil), duration: 0.2,
                             timing: .cubicBezier(x1: 0.5, y1: -2, x2: 0.5, y2: 3)))
        let c = try Compositor(pixelWidth: 40, pixelHeight: 40)
        var t = 0.0
        while c.composite(root.snapshot(), at: t).hasRunningAnimations && t < 20 { t += 1.0 / 60 }
        #expect(t < LayerAnimation.Spring.maximumSettlingDuration + 0.1)
        #expect(c.backBuffer.argb32(x: 20, y: 20) == 0xffff_0000)
    }

    /// Transforms interpolate by parts: a scale-and-rotate halfway is half the scale and half
    /// the angle, never a squashed matrix.
    @Test func transformsInterpolateByDecomposition() {
        let from = AffineTransform.identity
        let to = AffineTransform(rotationAngle: 2).scaledBy(x: 3, y: 3).concatenating(AffineTransform(translationX: 10, y: -4))
        let parts = TransformParts(to)
        #expect(abs(parts.sx - 3) < 1e-9 && abs(parts.sy - 3) < 1e-9 && abs(parts.angle - 2) < 1e-9 && abs(parts.shear) < 1e-9)
        let m = parts.matrix
        #expect(abs(m.a - to.a) < 1e-9 && abs(m.b - to.b) < 1e-9 && abs(m.c - to.c) < 1e-9 && abs(m.d - to.d) < 1e-9 && m.tx == to.tx)
        // A mirror and a shear survive the round trip.
        let odd = AffineTransform(a: 1, b: 0.3, c: 0.5, d: -2, tx: 1, ty: 2)
        let r = TransformParts(odd).matrix
        #expect(abs(r.a - odd.a) < 1e-9 && abs(r.b - odd.b) < 1e-9 && abs(r.c - odd.c) < 1e-9 && abs(r.d - odd.d) < 1e-9)
        guard case let .transform(half) = AnimatedValue.transform(TransformParts(from)).interpolated(to: .transform(parts), 0.5) else {
            Issue.record("not a transform"); return
        }
        #expect(abs(half.sx - 2) < 1e-9 && abs(half.angle - 1) < 1e-9 && half.tx == 5)
    }
}

/// What the render thread shows mid-animation, on the headless presenter's virtual clock.
@Suite struct AnimationFrameTests {
    /// A 20 × 20 square rotating by a quarter turn over 0.5 s, linear: the frame at virtual time
    /// 0.25 s (frame 15) shows it turned by 45°, a diamond.
    @Test func midAnimationFrameShowsTheInterpolatedTransform() throws {
        let presenter = try HeadlessPresenter(pixelWidth: 64, pixelHeight: 64)
        let render = try RenderThread(presenter: presenter, clearColor: .white)
        let captured = Locked<Bitmap?>(nil)
        render.onFrame { report in
            if report.timing.index == 15 { captured.withLock { $0 = try? presenter.currentFrame() } }
        }
        render.completionHandler = { blocks in blocks.forEach { $0() } }   // no main loop here
        render.start()
        defer { render.stop() }
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 64, height: 64)
        root.backgroundColor = .white
        let square = Layer()
        square.frame = Rect(x: 22, y: 22, width: 20, height: 20)
        square.backgroundColor = .blue
        square.transform = AffineTransform(rotationAngle: .pi / 2)
        let ended = Locked(false)
        square.add(LayerAnimation(property: .transform(from: .identity, to: nil), duration: 0.5, timing: .linear,
                                  completion: { ok in ended.withLock { $0 = ok } }))
        root.addSublayer(square)
        render.commit(root.snapshot())
        #expect(render.waitUntilPresented(timeout: 20, includingAnimations: true))
        let frame = try #require(captured.current)
        let blue: UInt32 = 0xff00_00ff, white: UInt32 = 0xffff_ffff
        // The diamond's tips reach 14.1 px from the centre (32, 32) along the axes …
        #expect(frame.argb32(x: 32 + 12, y: 32) == blue)
        #expect(frame.argb32(x: 32, y: 32 - 12) == blue)
        // … and the unrotated square's corners are outside it.
        #expect(frame.argb32(x: 32 + 8, y: 32 + 8) == white)
        #expect(frame.argb32(x: 32 - 9, y: 32 - 9) == white)
        // At the end (a quarter turn of a square) it is the square again, and the completion ran.
        let last = try presenter.currentFrame()
        #expect(last.argb32(x: 32 + 8, y: 32 + 8) == blue)
        #expect(last.argb32(x: 32 + 12, y: 32) == white)
        #expect(ended.current)
    }
}
