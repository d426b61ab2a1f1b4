#if canImport(Glibc)
import Glibc
#endif
import SilkGeometry

// The render thread's side of animations: interpolatable values, the animatable values of one
// layer, and the clock state the compositor keeps between frames (start times, resolved start
// values for retargeting, completions to hand to the main loop).

/// A value an animation interpolates.
enum AnimatedValue: Hashable, Sendable {
    case number(Double)
    case point(Point)
    case rect(Rect)
    case transform(TransformParts)
    case color(Color?)

    var isFinite: Bool {
        switch self {
        case let .number(v): v.isFinite
        case let .point(p): p.x.isFinite && p.y.isFinite
        case let .rect(r): r.origin.x.isFinite && r.origin.y.isFinite && r.size.width.isFinite && r.size.height.isFinite
        case let .transform(t): [t.tx, t.ty, t.sx, t.sy, t.shear, t.angle].allSatisfy(\.isFinite)
        case let .color(c): c.map { [$0.red, $0.green, $0.blue, $0.alpha].allSatisfy(\.isFinite) } ?? true
        }
    }

    /// `self` + (`to` − `self`) · k (k may leave 0…1 for springs and overshooting curves).
    func interpolated(to o: AnimatedValue, _ k: Double) -> AnimatedValue {
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * k }
        switch (self, o) {
        case let (.number(a), .number(b)): return .number(mix(a, b))
        case let (.point(a), .point(b)): return .point(Point(x: mix(a.x, b.x), y: mix(a.y, b.y)))
        case let (.rect(a), .rect(b)):
            return .rect(Rect(x: mix(a.minX, b.minX), y: mix(a.minY, b.minY),
                              width: max(0, mix(a.width, b.width)), height: max(0, mix(a.height, b.height))))
        case let (.transform(a), .transform(b)):
            var da = b.angle - a.angle
            // The shorter way round.
            if da > .pi { da -= 2 * .pi } else if da < -.pi { da += 2 * .pi }
            return .transform(TransformParts(tx: mix(a.tx, b.tx), ty: mix(a.ty, b.ty), sx: mix(a.sx, b.sx), sy: mix(a.sy, b.sy),
                                             shear: mix(a.shear, b.shear), angle: a.angle + da * k))
        case let (.color(a), .color(b)):
            // Premultiplied: a fade from transparent keeps the target's hue instead of passing
            // through black. Nil is transparent.
            guard a != nil || b != nil else { return .color(nil) }
            let ca = a ?? b!.withAlpha(0), cb = b ?? a!.withAlpha(0)
            let alpha = min(1, max(0, mix(ca.alpha, cb.alpha)))
            func channel(_ x: Double, _ y: Double) -> Double {
                guard alpha > 0 else { return 0 }
                return min(1, max(0, mix(x * ca.alpha, y * cb.alpha) / alpha))
            }
            return .color(Color(red: channel(ca.red, cb.red), green: channel(ca.green, cb.green),
                                blue: channel(ca.blue, cb.blue), alpha: alpha))
        default:
            return o  // mismatched kinds cannot happen: both ends come from one property
        }
    }
}

/// An affine transform as translation, scale, shear and rotation, which interpolate smoothly
/// (the matrix = scale(sx, sy) · shear(k) · rotation(angle), then the translation).
struct TransformParts: Hashable, Sendable {
    var tx, ty, sx, sy, shear, angle: Double

    init(tx: Double, ty: Double, sx: Double, sy: Double, shear: Double, angle: Double) {
        self.tx = tx; self.ty = ty; self.sx = sx; self.sy = sy; self.shear = shear; self.angle = angle
    }

    init(_ m: AffineTransform) {
        tx = m.tx; ty = m.ty
        sx = (m.a * m.a + m.b * m.b).squareRoot()
        angle = sx > 0 ? atan2(m.b, m.a) : 0
        let ux = cos(angle), uy = sin(angle)
        // Second row = sy·k·u + sy·u⊥, with u⊥ = (−sin, cos); sy is signed (a mirror flips it).
        sy = -m.c * uy + m.d * ux
        let syk = m.c * ux + m.d * uy
        shear = sy != 0 ? syk / sy : 0
    }

    var matrix: AffineTransform {
        let cs = cos(angle), sn = sin(angle)
        return AffineTransform(a: sx * cs, b: sx * sn, c: sy * (shear * cs - sn), d: sy * (shear * sn + cs), tx: tx, ty: ty)
    }
}

/// The animatable values of one layer: its model values from the snapshot, then, after
/// evaluation, what the frame shows.
struct LayerValues {
    var position: Point
    var bounds: Rect
    var transform: AffineTransform
    var opacity: Double
    var backgroundColor: Color?
    var cornerRadius: Double
    var borderWidth: Double
    var borderColor: Color?

    init(_ s: LayerSnapshot) {
        position = s.position; bounds = s.bounds; transform = s.transform; opacity = s.opacity
        backgroundColor = s.backgroundColor; cornerRadius = s.cornerRadius
        borderWidth = s.borderWidth; borderColor = s.borderColor
    }

    func value(for key: LayerAnimation.Key) -> AnimatedValue {
        switch key {
        case .opacity: .number(opacity)
        case .position: .point(position)
        case .bounds: .rect(bounds)
        case .transform: .transform(TransformParts(transform))
        case .backgroundColor: .color(backgroundColor)
        case .cornerRadius: .number(cornerRadius)
        case .borderWidth: .number(borderWidth)
        case .borderColor: .color(borderColor)
        }
    }

    mutating func set(_ v: AnimatedValue, for key: LayerAnimation.Key) {
        switch (key, v) {
        case let (.opacity, .number(x)): opacity = x
        case let (.position, .point(p)): position = p
        case let (.bounds, .rect(r)): bounds = r
        case let (.transform, .transform(t)): transform = t.matrix
        case let (.backgroundColor, .color(c)): backgroundColor = c
        case let (.cornerRadius, .number(x)): cornerRadius = max(0, x)
        case let (.borderWidth, .number(x)): borderWidth = max(0, x)
        case let (.borderColor, .color(c)): borderColor = c
        default: break
        }
    }
}

/// What the compositor remembers about animations between frames (render thread only).
struct AnimationClock {
    struct Running {
        /// The animation as added, or, for a spring that took over a moving value, with the
        /// spring's initial velocity set to carry that motion on.
        var animation: LayerAnimation
        /// Frame time of the first frame that showed it.
        var start: Double
        /// The start value: the property's `from`, or the presentation value when it began from
        /// the current state.
        let from: AnimatedValue
        /// The layer's model value of the property at the last frame that saw the animation.
        var model: AnimatedValue
        var lastSeen: Double
        var ended = false
    }
    struct LayerKey: Hashable {
        let layer: Layer.LayerID
        let key: LayerAnimation.Key
    }

    /// How long the state of an animation no frame saw (its layer hidden, under a transparent
    /// ancestor, or gone) is kept, so it resumes instead of restarting; then it is dropped.
    static let unseenGrace = 5.0

    private(set) var running: [UInt64: Running] = [:]
    /// The animation of each layer and property most recently evaluated (for retargeting).
    private var latest: [LayerKey: UInt64] = [:]
    /// Completions due (render thread → main loop).
    var completions: [@Sendable () -> Void] = []
    private(set) var hasRunningAnimations = false
    /// Whether animations that end here claim their ending (see `Compositor.endsAnimations`).
    var endsAnimations = true
    /// Some running animation will end by itself (not one repeating forever).
    private(set) var hasEndingAnimations = false

    /// Something other than an animation (an animated image's frames) needs the next frame too;
    /// `ends`: it stops by itself, so it counts as an ending animation.
    mutating func noteRunningContents(ends: Bool) {
        hasRunningAnimations = true
        if ends { hasEndingAnimations = true }
    }

    mutating func beginFrame() {
        hasRunningAnimations = false
        hasEndingAnimations = false
        completions = []
    }

    /// Drops state that no frame has seen for ``unseenGrace`` seconds.
    mutating func endFrame(at time: Double) {
        guard running.count > 0 else { return }
        let stale = running.filter { time - $0.value.lastSeen > AnimationClock.unseenGrace }.map(\.key)
        guard !stale.isEmpty else { return }
        for id in stale { running[id] = nil }
        let ids = Set(running.keys)
        latest = latest.filter { ids.contains($0.value) }
    }

    /// The values `s` shows at `time`: its model values with its animations applied.
    mutating func evaluate(_ s: LayerSnapshot, at time: Double) -> LayerValues {
        var values = LayerValues(s)
        guard !s.animations.isEmpty else { return values }
        let model = values
        for a in s.animations {
            let key = a.property.key
            let modelValue = model.value(for: key)
            var r: Running
            if let existing = running[a.id] {
                r = existing
            } else {
                var from = a.property.fromValue
                var effective = a
                if a.beginsFromCurrentState, let prev = latest[LayerKey(layer: s.id, key: key)], let p = running[prev] {
                    from = sample(p, at: time) ?? p.model
                    if let carried = springCarryingVelocity(a, of: p, from: from, to: a.property.toValue ?? modelValue, at: time) {
                        effective = carried
                    }
                }
                r = Running(animation: effective, start: time, from: from, model: modelValue, lastSeen: time)
                // An animation that already finished (its state dropped while hidden) does not replay.
                if a.ending.hasFinished, a.activeDuration.isFinite {
                    r.ended = true
                    r.start = time - a.delay - a.activeDuration
                }
            }
            r.model = modelValue
            r.lastSeen = time
            latest[LayerKey(layer: s.id, key: key)] = a.id
            let elapsed = time - r.start - a.delay
            if !r.ended && elapsed >= a.activeDuration {
                r.ended = true
                if endsAnimations, let done = a.ending.end(finished: true) { completions.append { done(true) } }
            }
            if !r.ended {
                hasRunningAnimations = true
                if a.activeDuration.isFinite { hasEndingAnimations = true }
            }
            running[a.id] = r
            if let v = sample(r, at: time) { values.set(v, for: key) }
        }
        return values
    }

    /// A spring animation (at its natural duration, without delay) that takes over a value
    /// another animation is still moving starts with that motion's velocity, projected on its
    /// own path, so the hand-over keeps the speed as well as the value (UIKit's additive
    /// springs feel). Numbers and points only; nil when nothing carries over.
    private func springCarryingVelocity(_ a: LayerAnimation, of p: Running, from: AnimatedValue, to: AnimatedValue,
                                        at time: Double) -> LayerAnimation? {
        guard case let .spring(spring) = a.timing, a.delay == 0, a.duration == spring.settlingDuration, !p.ended,
              time - p.start - p.animation.delay > 0 else { return nil }
        let h = 1.0 / 240
        guard let now = sample(p, at: time), let before = sample(p, at: time - h) else { return nil }
        let v: Double   // velocity along the new path, in path lengths per second
        switch (now, before, from, to) {
        case let (.number(x1), .number(x0), .number(f), .number(t)):
            guard abs(t - f) > 1e-9 else { return nil }
            v = (x1 - x0) / h / (t - f)
        case let (.point(p1), .point(p0), .point(f), .point(t)):
            let dx = t.x - f.x, dy = t.y - f.y, len2 = dx * dx + dy * dy
            guard len2 > 1e-12 else { return nil }
            v = ((p1.x - p0.x) * dx + (p1.y - p0.y) * dy) / h / len2
        default:
            return nil
        }
        guard v.isFinite, v != 0 else { return nil }
        let carried = LayerAnimation.Spring(mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping,
                                            initialVelocity: spring.initialVelocity + v)
        var b = a
        b.timing = .spring(carried)
        b.duration = carried.settlingDuration
        return b
    }

    /// What `r` shows at `time`, or nil when the model value shows (it ended and is removed on
    /// completion).
    private func sample(_ r: Running, at time: Double) -> AnimatedValue? {
        let a = r.animation
        let elapsed = time - r.start - a.delay
        if elapsed >= a.activeDuration && a.isRemovedOnCompletion { return nil }
        if elapsed < 0 { return r.from }
        let to = a.property.toValue ?? r.model
        return r.from.interpolated(to: to, a.timing(a.passProgress(at: elapsed)))
    }
}
