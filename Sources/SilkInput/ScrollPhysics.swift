import Foundation
import SilkGeometry

// Kinetic scrolling, as values: the one deceleration model that both `ScrollNode` (finger and
// pointer drags, paging) and the Wayland seat's touchpad fling (`ScrollFling`, which delivers
// the distances as scroll events) use. Nothing here reads a clock: callers advance it by `dt`,
// so tests drive it on a virtual clock.

/// The axes a scroll container moves along.
public struct ScrollDirections: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Up and down (the y axis).
    public static let vertical = ScrollDirections(rawValue: 1)
    /// Left and right (the x axis).
    public static let horizontal = ScrollDirections(rawValue: 2)
    /// Both axes (a map, a large image).
    public static let both: ScrollDirections = [.vertical, .horizontal]
}

/// What happens at the ends of the content.
public enum ScrollEdgeBehavior: Hashable, Sendable {
    /// Scrolling stops at the edge.
    case clamped
    /// A drag past the edge meets growing resistance (rubber band); a fling overshoots and
    /// springs back.
    case elastic
}

/// Exponential deceleration: the velocity decays as v·e^(−t/τ), so a fling released at v
/// travels v·τ in all. τ = 325 ms is what iOS and libinput-based toolkits feel like.
public struct Deceleration: Hashable, Sendable {
    /// τ, the time constant in seconds: after τ the velocity has fallen to 1/e.
    public static let timeConstant = 0.325
    /// Below this speed (points per second) the motion stops.
    public static let minimumSpeed = 20.0

    /// The current velocity in points per second (signed along the axis).
    public var velocity: Double
    /// A deceleration starting at `velocity` points per second (the release velocity of a drag).
    public init(velocity: Double) { self.velocity = velocity }

    /// Advances by `dt` seconds; returns the distance covered (exact for the exponential).
    public mutating func advance(by dt: Double) -> Double {
        let decay = exp(-max(0, dt) / Deceleration.timeConstant)
        let distance = velocity * Deceleration.timeConstant * (1 - decay)
        velocity *= decay
        return distance
    }

    /// True until the speed falls below ``minimumSpeed``.
    public var isMoving: Bool { abs(velocity) >= Deceleration.minimumSpeed }

    /// The distance a fling released at `velocity` covers before it stops.
    public static func projectedDistance(velocity: Double) -> Double { velocity * timeConstant }
}

/// The release velocity of a drag: the mean velocity over the last `window` seconds of samples.
public struct VelocityTracker: Sendable {
    /// How far back in seconds samples count: 100 ms, so a pause before lifting the finger
    /// releases with little velocity.
    public static let window = 0.1
    private var samples: [(t: Double, p: Point)] = []
    /// A tracker with no samples.
    public init() {}

    /// Records the pointer or finger at `position` (points) at `t` seconds; drops samples older
    /// than ``window``.
    public mutating func add(_ position: Point, at t: Double) {
        samples.append((t, position))
        samples.removeAll { $0.t < t - VelocityTracker.window }
    }
    /// Forgets every sample (a new drag begins).
    public mutating func reset() { samples = [] }

    /// Points per second, (0, 0) with fewer than two recent samples.
    public func velocity(at t: Double) -> Point {
        let recent = samples.filter { $0.t >= t - VelocityTracker.window }
        guard recent.count >= 2, let first = recent.first, let last = recent.last else { return .zero }
        let span = max(last.t - first.t, 1.0 / 240)
        return Point(x: (last.p.x - first.p.x) / span, y: (last.p.y - first.p.y) / span)
    }
}

/// One axis of a scroll container in motion: decelerating inside the content, springing back
/// from an overscroll (elastic edges), stopping at the edge (clamped), or springing to a target
/// (paging, animated `setContentOffset`). Deterministic: `advance(by:)` integrates in fixed
/// 1/480 s sub-steps, so the same `dt`s give the same positions.
public struct KineticAxis: Hashable, Sendable {
    /// What moves the axis now.
    public enum Mode: Hashable, Sendable {
        /// Slowing down exponentially (``Deceleration``) after a fling.
        case decelerating
        /// A critically damped spring to `target` (paging, animated scrolls, snapping back).
        case spring(target: Double)
        /// Not moving.
        case resting
    }
    /// The scroll offset along the axis, in points (0 is the start of the content).
    public var position: Double
    /// The velocity in points per second (signed; positive towards the end of the content).
    public var velocity: Double
    /// Whether the axis decelerates, springs to a target, or rests.
    public var mode: Mode
    /// Spring stiffness (s⁻²); critically damped. ω = 14 s⁻¹ settles in about 0.4 s.
    public static let springOmega = 14.0
    static let subStep = 1.0 / 480

    /// An axis at `position` points moving at `velocity` points per second in `mode`.
    public init(position: Double, velocity: Double = 0, mode: Mode = .resting) {
        self.position = position; self.velocity = velocity; self.mode = mode
    }

    /// True until the axis comes to rest (a scroll container keeps asking for frames meanwhile).
    public var isMoving: Bool { mode != .resting }

    /// Advances by `dt` seconds within the content range `0...maxOffset`.
    public mutating func advance(by dt: Double, maxOffset: Double, edges: ScrollEdgeBehavior) {
        var remaining = max(0, dt)
        let upper = max(0, maxOffset)
        while remaining > 0 && mode != .resting {
            let h = min(KineticAxis.subStep, remaining)
            remaining -= h
            switch mode {
            case .resting: break
            case .decelerating:
                if position < 0 || position > upper {
                    if edges == .clamped {
                        position = min(max(position, 0), upper); velocity = 0; mode = .resting
                    } else {
                        // Overscrolled: a spring pulls back to the edge, slowing the fling first.
                        mode = .spring(target: position < 0 ? 0 : upper)
                        stepSpring(h, target: position < 0 ? 0 : upper)
                    }
                } else {
                    var d = Deceleration(velocity: velocity)
                    position += d.advance(by: h)
                    velocity = d.velocity
                    if edges == .clamped && (position < 0 || position > upper) {
                        position = min(max(position, 0), upper); velocity = 0; mode = .resting
                    } else if !d.isMoving && position >= 0 && position <= upper {
                        velocity = 0; mode = .resting
                    }
                }
            case let .spring(target):
                stepSpring(h, target: target)
                if abs(position - target) < 0.25 && abs(velocity) < Deceleration.minimumSpeed {
                    position = target; velocity = 0; mode = .resting
                }
            }
        }
    }

    private mutating func stepSpring(_ h: Double, target: Double) {
        // x'' = −ω²(x − target) − 2ω x'  (semi-implicit Euler, stable for h·ω ≪ 1).
        let w = KineticAxis.springOmega
        let a = -w * w * (position - target) - 2 * w * velocity
        velocity += a * h
        position += velocity * h
    }

    /// A drag's offset past an edge shown with resistance (iOS's rubber band): `excess` points
    /// of finger travel beyond the edge move the content `(1 − 1/(excess·0.55/dimension + 1))·dimension`.
    public static func rubberBand(_ excess: Double, dimension: Double) -> Double {
        guard dimension > 0 else { return 0 }
        let sign: Double = excess < 0 ? -1 : 1
        let e = abs(excess)
        return sign * (1 - 1 / (e * 0.55 / dimension + 1)) * dimension
    }
}
