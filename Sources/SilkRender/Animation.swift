#if canImport(Glibc)
import Glibc
#endif
import SilkGeometry
import SilkSystem

/// An animation of one layer property, evaluated by the render thread at each frame's time
/// (Core Animation's `CABasicAnimation`/`CASpringAnimation` in one value type).
///
/// The layer keeps its *model* value (what you set); while an animation runs, the compositor
/// shows the *presentation* value it computes from the animation at the frame time. An animation
/// starts at the first frame composited after the commit that carries it, waits `delay` seconds
/// (showing its `from` value), then runs `duration` seconds eased by `timing`, `repeatCount`
/// times (each repeat played back again when `autoreverses`). When it ends the model value shows
/// again (unless `isRemovedOnCompletion` is false: then the end value stays until the animation
/// is removed), and `completion` runs on the main loop.
///
/// **Retargeting.** With `beginsFromCurrentState`, the `from` value in `property` is only a
/// fallback: the compositor starts the animation from what the previous animation of the same
/// property on the same layer shows at that frame (the presentation value), so interrupting a
/// move with a new one never jumps. `DisplayNode.animate(…)` and layout transitions use it.
///
/// **Bad input** never crashes or hangs: non-positive or non-finite durations become 1 ms,
/// negative or non-finite delays 0, non-positive or NaN repeat counts 1 (`.infinity` repeats
/// until removed), NaN Bézier control points give linear timing, spring parameters are clamped
/// (see ``Spring``), and `Layer.add(_:)` refuses an animation whose values are not finite
/// (its completion reports `false`).
public struct LayerAnimation: Sendable, Hashable {
    /// The property an animation drives, with its start and end values. An end value of nil
    /// means the layer's model value (read at each frame, so a model change mid-animation
    /// retargets the end).
    public enum Property: Sendable, Hashable {
        /// From `from` to `to` (nil: the layer's model opacity).
        case opacity(from: Double, to: Double?)
        /// From `from` to `to` (nil: the layer's model position).
        case position(from: Point, to: Point?)
        /// The bounds: size (and scroll origin), from `from` to `to` (nil: the model bounds).
        case bounds(from: Rect, to: Rect?)
        /// The transform about the anchor point, interpolated by decomposition into translation,
        /// scale, shear and rotation (the shorter way round), so a rotation never passes through
        /// a squashed matrix.
        case transform(from: AffineTransform, to: AffineTransform?)
        /// The background colour, interpolated in premultiplied sRGB (nil `from`: transparent).
        case backgroundColor(from: Color?, to: Color?)
        /// The corner radius in points.
        case cornerRadius(from: Double, to: Double?)
        /// The border width in points.
        case borderWidth(from: Double, to: Double?)
        /// The border colour (nil `from`: transparent).
        case borderColor(from: Color?, to: Color?)

        /// Which layer property this drives; a layer runs one animation per key.
        public var key: Key {
            switch self {
            case .opacity: .opacity
            case .position: .position
            case .bounds: .bounds
            case .transform: .transform
            case .backgroundColor: .backgroundColor
            case .cornerRadius: .cornerRadius
            case .borderWidth: .borderWidth
            case .borderColor: .borderColor
            }
        }

        /// The start value as an interpolatable value.
        var fromValue: AnimatedValue {
            switch self {
            case let .opacity(f, _), let .cornerRadius(f, _), let .borderWidth(f, _): .number(f)
            case let .position(f, _): .point(f)
            case let .bounds(f, _): .rect(f)
            case let .transform(f, _): .transform(TransformParts(f))
            case let .backgroundColor(f, _), let .borderColor(f, _): .color(f)
            }
        }

        /// The end value, or nil for the model value.
        var toValue: AnimatedValue? {
            switch self {
            case let .opacity(_, t), let .cornerRadius(_, t), let .borderWidth(_, t): t.map { .number($0) }
            case let .position(_, t): t.map { .point($0) }
            case let .bounds(_, t): t.map { .rect($0) }
            case let .transform(_, t): t.map { .transform(TransformParts($0)) }
            case let .backgroundColor(_, t), let .borderColor(_, t): t.map { .color($0) }
            }
        }

        /// Whether every number in the start and end values is finite (NaN targets are refused).
        public var hasFiniteValues: Bool { fromValue.isFinite && (toValue?.isFinite ?? true) }
    }

    /// The animatable layer properties, one running animation per key and layer.
    public enum Key: Int, Sendable, Hashable, CaseIterable {
        /// ``Layer/opacity``.
        case opacity
        /// ``Layer/position``.
        case position
        /// ``Layer/bounds``.
        case bounds
        /// ``Layer/transform``.
        case transform
        /// ``Layer/backgroundColor``.
        case backgroundColor
        /// ``Layer/cornerRadius``.
        case cornerRadius
        /// ``Layer/borderWidth``.
        case borderWidth
        /// ``Layer/borderColor``.
        case borderColor
    }

    /// The easing curve, mapping linear progress 0…1 to eased progress: `linear`; cubic
    /// `easeIn` (t³), `easeOut` (the default) and `easeInOut` polynomials; a CSS-style
    /// `cubicBezier` through (0, 0), (x1, y1), (x2, y2), (1, 1); or a `spring`, whose progress
    /// may overshoot 1 and whose natural length is ``Spring/settlingDuration``.
    public enum Timing: Sendable, Hashable {
        /// Constant speed.
        case linear
        /// Starts slowly: t³.
        case easeIn
        /// Ends slowly: 1 − (1 − t)³ (the default).
        case easeOut
        /// Slow at both ends: a cubic in each half.
        case easeInOut
        /// A cubic Bézier timing function as in CSS `cubic-bezier(x1, y1, x2, y2)`: x1 and x2 are
        /// clamped to 0…1; any NaN or infinite control value gives linear timing.
        case cubicBezier(x1: Double, y1: Double, x2: Double, y2: Double)
        /// A damped spring; progress t maps to the spring at t × its settling duration.
        case spring(Spring)

        /// Maps linear progress 0…1 (clamped) to eased progress.
        public func callAsFunction(_ t: Double) -> Double {
            let t = t.isNaN ? 1 : min(1, max(0, t))
            switch self {
            case .linear: return t
            case .easeIn: return t * t * t
            case .easeOut: let u = 1 - t; return 1 - u * u * u
            case .easeInOut: return t < 0.5 ? 4 * t * t * t : 1 - pow(-2 * t + 2, 3) / 2
            case let .cubicBezier(x1, y1, x2, y2):
                return UnitBezier(x1: x1, y1: y1, x2: x2, y2: y2).value(at: t)
            case let .spring(s):
                return t >= 1 ? 1 : s.value(at: t * s.settlingDuration)
            }
        }
    }

    /// A damped harmonic oscillator pulling the value from 0 to 1 (Core Animation's
    /// `CASpringAnimation`): `mass` (kg), `stiffness` (N/m), `damping` (N·s/m) and
    /// `initialVelocity` (the start speed in units of the whole distance per second: 2 covers
    /// the distance in half a second if it kept going).
    ///
    /// Clamps (so that every spring settles and nothing is NaN): a mass or stiffness that is not
    /// finite or not positive becomes 1 or 100, and both are kept within 10⁻⁶…10⁶; a
    /// non-finite velocity becomes 0 and velocities are kept within ±1000; a damping below
    /// 2 · mass · ln(1/``settlingThreshold``) / ``maximumSettlingDuration`` (≈ 1.38 × mass,
    /// zero and negative damping included) is raised to it, so even an undamped spring decays
    /// within about 10 s. A spring that still has not settled after
    /// ``maximumSettlingDuration`` (a very weak one) snaps to its end there.
    public struct Spring: Sendable, Hashable {
        /// The moving mass (> 0).
        public let mass: Double
        /// The spring constant (> 0).
        public let stiffness: Double
        /// The damping coefficient (raised so the spring settles, see above).
        public let damping: Double
        /// The start velocity, in distances per second towards the end value.
        public let initialVelocity: Double
        /// Seconds until the spring stays within ``settlingThreshold`` of its end value (at most
        /// ``maximumSettlingDuration``): the animation's natural duration.
        public let settlingDuration: Double

        /// The remaining distance (a fraction of the whole) under which a spring counts as
        /// settled: 0.001 (1 pt of a 1,000 pt move).
        public static let settlingThreshold = 0.001
        /// The longest a spring animation runs (seconds); it snaps to its end value there.
        public static let maximumSettlingDuration = 10.0

        /// UIKit's default-feeling spring: mass 1, stiffness 100, damping 10 (damping ratio 0.5).
        public static let `default` = Spring()

        /// A spring from its physical parameters (clamped as described on the type).
        public init(mass: Double = 1, stiffness: Double = 100, damping: Double = 10, initialVelocity: Double = 0) {
            func clamp(_ v: Double, default d: Double) -> Double { v.isFinite && v > 0 ? min(1e6, max(1e-6, v)) : d }
            let m = clamp(mass, default: 1)
            let k = clamp(stiffness, default: 100)
            let minDamping = 2 * m * log(1 / Spring.settlingThreshold) / Spring.maximumSettlingDuration
            let c = damping.isFinite ? min(1e9, max(minDamping, damping)) : minDamping
            let v = initialVelocity.isFinite ? min(1000, max(-1000, initialVelocity)) : 0
            self.mass = m; self.stiffness = k; self.damping = c; self.initialVelocity = v
            settlingDuration = SpringSolution(mass: m, stiffness: k, damping: c, velocity: v).settlingTime(
                threshold: Spring.settlingThreshold, limit: Spring.maximumSettlingDuration)
        }

        /// A spring described the way SwiftUI does: `dampingRatio` (1 critically damped, below 1
        /// bouncy) and `response` (seconds of one undamped oscillation), with mass 1.
        public init(dampingRatio: Double, response: Double, initialVelocity: Double = 0) {
            let r = response.isFinite && response > 0 ? response : 0.5
            let z = dampingRatio.isFinite ? max(0, dampingRatio) : 1
            let k = pow(2 * Double.pi / r, 2)
            self.init(mass: 1, stiffness: k, damping: 2 * z * k.squareRoot(), initialVelocity: initialVelocity)
        }

        /// The damping ratio ζ = damping / (2√(stiffness · mass)): below 1 the spring overshoots.
        public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

        /// The fraction of the way from start (0) to end (1) at `time` seconds after the start;
        /// may overshoot 1 (or dip below 0). Exactly 1 from ``settlingDuration`` on.
        public func value(at time: Double) -> Double {
            guard time > 0 else { return 0 }
            guard time < settlingDuration else { return 1 }
            return 1 - SpringSolution(mass: mass, stiffness: stiffness, damping: damping, velocity: initialVelocity)
                .displacement(at: time)
        }
    }

    /// Identifies the animation (unique in the process); the compositor keys its start time by it.
    public let id: UInt64
    /// What is animated, from where to where.
    public var property: Property
    /// Seconds of one pass (> 0). For a spring timing, its settling duration unless you set another.
    public var duration: Double
    /// How progress is eased over ``duration``.
    public var timing: Timing
    /// Seconds to wait after the start before moving (≥ 0); the `from` value shows meanwhile.
    public var delay: Double {
        get { _delay }
        set { _delay = newValue.isFinite && newValue > 0 ? newValue : 0 }
    }
    /// How many passes to play (1 by default; fractions play part of the last pass; `.infinity`
    /// repeats until the animation is removed; non-positive or NaN values become 1).
    public var repeatCount: Double {
        get { _repeatCount }
        set { _repeatCount = newValue > 0 ? newValue : 1 }
    }
    /// Plays each pass forwards then backwards (a pass then takes twice ``duration``).
    public var autoreverses = false
    /// Starts from the value currently on screen when the layer already animates this property
    /// (`from` is then only used when it does not). See the type's "Retargeting".
    public var beginsFromCurrentState = false
    /// When false, the end value keeps showing after the animation ends, until it is removed
    /// from the layer (Core Animation's `fillMode = .forwards` with `isRemovedOnCompletion =
    /// false`); layout transitions fade removed nodes out this way. Default true.
    public var isRemovedOnCompletion = true
    /// Runs once when the animation ends (`true`) or is removed or replaced before it ended
    /// (`false`). See ``completion`` for the thread.
    let ending: AnimationEnding

    private var _delay: Double = 0
    private var _repeatCount: Double = 1

    nonisolated(unsafe) private static var counter: UInt64 = 0
    private static let lock = Lock()

    /// An animation of `property` over `duration` seconds (non-positive or non-finite values become
    /// 1 ms), eased by `timing`.
    public init(property: Property, duration: Double, timing: Timing = .easeOut) {
        id = LayerAnimation.lock.withLock { LayerAnimation.counter += 1; return LayerAnimation.counter }
        self.property = property
        self.duration = duration.isFinite && duration > 0 ? duration : 0.001
        self.timing = timing
        ending = AnimationEnding()
    }

    /// An animation with every option: `duration` and `delay` in seconds (clamped as described on
    /// the type), `repeatCount` passes, `autoreverses`, `beginsFromCurrentState` for
    /// retargeting, and a `completion` that runs on the main loop with whether the animation
    /// finished (true) or was removed or replaced first (false). Any thread.
    public init(property: Property, duration: Double, timing: Timing = .easeOut, delay: Double = 0,
                repeatCount: Double = 1, autoreverses: Bool = false, beginsFromCurrentState: Bool = false,
                isRemovedOnCompletion: Bool = true, completion: (@Sendable (Bool) -> Void)? = nil) {
        self.init(property: property, duration: duration, timing: timing)
        self.delay = delay
        self.repeatCount = repeatCount
        self.autoreverses = autoreverses
        self.beginsFromCurrentState = beginsFromCurrentState
        self.isRemovedOnCompletion = isRemovedOnCompletion
        ending.setCompletion(completion)
    }

    /// A spring animation of `property` that lasts the spring's settling duration.
    public init(property: Property, spring: Spring, delay: Double = 0, beginsFromCurrentState: Bool = false,
                completion: (@Sendable (Bool) -> Void)? = nil) {
        self.init(property: property, duration: spring.settlingDuration, timing: .spring(spring), delay: delay,
                  beginsFromCurrentState: beginsFromCurrentState, completion: completion)
    }

    /// Called once with `true` when the animation ended on the render thread's frame clock, or
    /// `false` when it was removed or replaced before (`Layer.add(_:)` of the same key,
    /// `Layer.removeAnimation(for:)`, `removeAllAnimations()`, or refused by `add` for
    /// non-finite values). A `true` completion runs on the main loop (the render thread hands
    /// it over; a window's render thread uses `EventLoop.main`); a `false` one runs
    /// synchronously inside the call that removed the animation. Setting it replaces the
    /// previous one; the value is shared by copies of this animation. Any thread.
    public var completion: (@Sendable (Bool) -> Void)? {
        get { ending.completion }
        nonmutating set { ending.setCompletion(newValue) }
    }

    /// The whole active time: every pass, reversals included (infinite when repeating forever).
    var activeDuration: Double { duration * repeatCount * (autoreverses ? 2 : 1) }

    /// Linear progress 0…1 within the current pass at `elapsed` seconds after the delay.
    func passProgress(at elapsed: Double) -> Double {
        let cycle = autoreverses ? 2 * duration : duration
        var p: Double
        if elapsed >= activeDuration {
            // The end: where the last (possibly partial) pass stops.
            let r = repeatCount * (autoreverses ? 2 : 1)
            let frac = r - r.rounded(.down)
            let lastPass = frac == 0 ? r - 1 : r.rounded(.down)
            p = frac == 0 ? 1 : frac
            if autoreverses, lastPass.truncatingRemainder(dividingBy: 2) == 1 { p = 1 - p }
            return p
        }
        let phase = elapsed.truncatingRemainder(dividingBy: cycle)
        p = phase / duration
        if p > 1 { p = 2 - p }
        return p
    }

    /// Equal when every option is (the completion is not compared).
    public static func == (l: LayerAnimation, r: LayerAnimation) -> Bool {
        l.id == r.id && l.property == r.property && l.duration == r.duration && l.timing == r.timing
            && l._delay == r._delay && l._repeatCount == r._repeatCount && l.autoreverses == r.autoreverses
            && l.beginsFromCurrentState == r.beginsFromCurrentState && l.isRemovedOnCompletion == r.isRemovedOnCompletion
    }

    /// Hashes the identity, property, duration and timing.
    public func hash(into h: inout Hasher) {
        h.combine(id); h.combine(property); h.combine(duration); h.combine(timing)
    }
}

/// The fire-once end of an animation, shared by its copies: whichever side ends it first (the
/// render thread finishing it, or the main thread removing it) decides what the completion
/// hears.
final class AnimationEnding: Sendable {
    private struct State { var completion: (@Sendable (Bool) -> Void)?; var ended: Bool? }
    private let state = Locked(State(completion: nil, ended: nil))

    var completion: (@Sendable (Bool) -> Void)? { state.withLock { $0.completion } }
    func setCompletion(_ c: (@Sendable (Bool) -> Void)?) { state.withLock { $0.completion = c } }

    /// Whether the animation finished on the frame clock (it then never plays again).
    var hasFinished: Bool { state.withLock { $0.ended == true } }

    /// Ends the animation with `finished` if nothing ended it before; returns the completion to
    /// call (nil when already ended or there is none).
    func end(finished: Bool) -> (@Sendable (Bool) -> Void)? {
        state.withLock { s in
            guard s.ended == nil else { return nil }
            s.ended = finished
            return s.completion
        }
    }
}

/// The closed-form solution of a damped spring released at displacement 1 with velocity `v`
/// towards 0: x'' = −(k·x + c·x') / m.
struct SpringSolution {
    let w0: Double      // undamped angular frequency √(k/m)
    let zeta: Double    // damping ratio
    let v0: Double

    init(mass: Double, stiffness: Double, damping: Double, velocity: Double) {
        w0 = (stiffness / mass).squareRoot()
        zeta = damping / (2 * (stiffness * mass).squareRoot())
        v0 = velocity
    }

    /// x(t): the fraction of the distance still to go (x(0) = 1, x'(0) = −v0).
    func displacement(at t: Double) -> Double {
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let b = (zeta * w0 - v0) / wd
            return exp(-zeta * w0 * t) * (cos(wd * t) + b * sin(wd * t))
        } else if zeta == 1 {
            return (1 + (w0 - v0) * t) * exp(-w0 * t)
        } else {
            let s = (zeta * zeta - 1).squareRoot()
            let r1 = -w0 * (zeta - s), r2 = -w0 * (zeta + s)
            let c1 = (-v0 - r2) / (r1 - r2)
            return c1 * exp(r1 * t) + (1 - c1) * exp(r2 * t)
        }
    }

    /// An upper bound of |x(t)| that decreases once it starts to (used to bracket the settling
    /// time).
    private func envelope(at t: Double) -> Double {
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let b = (zeta * w0 - v0) / wd
            return (1 + b * b).squareRoot() * exp(-zeta * w0 * t)
        } else if zeta == 1 {
            return (1 + abs(w0 - v0) * t) * exp(-w0 * t)
        } else {
            let s = (zeta * zeta - 1).squareRoot()
            let r1 = -w0 * (zeta - s), r2 = -w0 * (zeta + s)
            let c1 = (-v0 - r2) / (r1 - r2)
            return abs(c1) * exp(r1 * t) + abs(1 - c1) * exp(r2 * t)
        }
    }

    /// The first time after which |x| stays below `threshold`, at most `limit`: bracket it with
    /// the envelope, then walk back over the true curve to its last excursion.
    func settlingTime(threshold: Double, limit: Double) -> Double {
        var hi = 1.0 / 1024
        while hi < limit && (envelope(at: hi) >= threshold || envelope(at: hi * 1.01) > envelope(at: hi)) { hi *= 2 }
        hi = min(hi, limit)
        let step = min(1.0 / 1000, hi / 1000)
        var t = hi
        while t > 0 && abs(displacement(at: t)) < threshold { t -= step }
        return min(limit, max(step, t + step))
    }
}

/// A CSS cubic-Bézier timing function through (0, 0), (x1, y1), (x2, y2), (1, 1): solves
/// x(s) = t for the curve parameter s (Newton's method, then bisection), and returns y(s).
struct UnitBezier {
    let ax, bx, cx, ay, by, cy: Double
    /// x1 = y1 and x2 = y2: the identity curve, answered exactly.
    let isLinear: Bool

    init(x1: Double, y1: Double, x2: Double, y2: Double) {
        var (x1, y1, x2, y2) = (x1, y1, x2, y2)
        if ![x1, y1, x2, y2].allSatisfy(\.isFinite) { (x1, y1, x2, y2) = (0, 0, 1, 1) }  // linear
        x1 = min(1, max(0, x1)); x2 = min(1, max(0, x2))
        isLinear = x1 == y1 && x2 == y2
        cx = 3 * x1; bx = 3 * (x2 - x1) - cx; ax = 1 - cx - bx
        cy = 3 * y1; by = 3 * (y2 - y1) - cy; ay = 1 - cy - by
    }

    func x(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
    func y(_ s: Double) -> Double { ((ay * s + by) * s + cy) * s }
    func dx(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }

    /// The curve parameter whose x is `t` (x is monotone in s because x1, x2 ∈ 0…1).
    func solve(_ t: Double) -> Double {
        var s = t
        for _ in 0..<8 {
            let err = x(s) - t
            if abs(err) < 1e-9 { return s }
            let d = dx(s)
            if abs(d) < 1e-9 { break }
            s -= err / d
        }
        var lo = 0.0, hi = 1.0
        s = t
        for _ in 0..<60 {
            let v = x(s)
            if abs(v - t) < 1e-12 { break }
            if v < t { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return s
    }

    func value(at t: Double) -> Double {
        if t <= 0 { return 0 }
        if t >= 1 { return 1 }
        if isLinear { return t }
        return y(solve(t))
    }
}
