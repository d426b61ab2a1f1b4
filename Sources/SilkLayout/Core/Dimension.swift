import SilkGeometry

/// A length in a style: a fixed number of points, a fraction of the parent's size, or `auto`
/// (decided by the layout: content size, stretch, or "no constraint" for min/max).
/// (Texture `ASDimension`; CSS lengths with `fraction` = percent / 100.)
public enum Dimension: Hashable, Sendable, CustomStringConvertible {
    case auto
    /// A fixed length in points.
    case points(Double)
    /// A fraction of the parent's length along the same axis (margins and padding: of the
    /// parent's width, as in CSS). 0.5 means 50 %.
    case fraction(Double)

    /// The length in points against `parentLength`; `nil` for `auto`, or for a fraction of an
    /// unknown (NaN or infinite) parent length.
    @inline(__always)
    public func resolve(_ parentLength: Double) -> Double? {
        switch self {
        case .auto: return nil
        case .points(let v): return v
        case .fraction(let f): return parentLength.isFinite ? f * parentLength : nil
        }
    }

    /// As `resolve`, with NaN standing for "undefined": the engine's hot path avoids optionals.
    @inline(__always)
    func value(_ parentLength: Double) -> Double {
        switch self {
        case .auto: return .nan
        case .points(let v): return v
        case .fraction(let f): return parentLength.isFinite ? f * parentLength : .nan
        }
    }

    /// True for ``auto``.
    public var isAuto: Bool { if case .auto = self { return true } else { return false } }

    public var description: String {
        switch self {
        case .auto: return "auto"
        case .points(let v): return formatPoints(v) + "pt"
        case .fraction(let f): return formatPoints(f * 100) + "%"
        }
    }
}

extension Dimension: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    /// A literal is points: `style.width = 120`.
    public init(integerLiteral value: Int) { self = .points(Double(value)) }
    /// A literal is points: `style.width = 120.5`.
    public init(floatLiteral value: Double) { self = .points(value) }
}

/// The range of sizes an element may take: `min` ≤ size ≤ `max`, per axis.
/// `max` may be infinite ("unconstrained"). (Texture `ASSizeRange`.)
public struct SizeRange: Hashable, Sendable, CustomStringConvertible {
    /// The smallest size allowed, in points (finite, ≥ 0).
    public var min: Size
    /// The largest size allowed, in points (≥ ``min``; infinite on an unconstrained axis).
    public var max: Size

    /// A range; a `max` below `min` is raised to `min`, negative or NaN values become 0.
    public init(min: Size, max: Size) {
        let minW = sanitize(min.width), minH = sanitize(min.height)
        self.min = Size(width: minW, height: minH)
        self.max = Size(width: Swift.max(minW, sanitize(max.width)), height: Swift.max(minH, sanitize(max.height)))
    }
    /// The range that allows exactly one size.
    public init(exactly size: Size) { self.init(min: size, max: size) }
    /// Anything from zero to `max`.
    public init(max: Size) { self.init(min: .zero, max: max) }

    /// 0 … ∞ on both axes.
    public static let unconstrained = SizeRange(min: .zero, max: Size(width: .infinity, height: .infinity))

    /// True when the range allows a single size (the element is told its size, not asked).
    public var isExact: Bool { min == max }

    /// `size` clamped into the range.
    public func clamp(_ size: Size) -> Size {
        Size(width: Swift.min(max.width, Swift.max(min.width, size.width)),
             height: Swift.min(max.height, Swift.max(min.height, size.height)))
    }

    /// The overlap of two ranges; when they do not overlap on an axis, `other` wins there
    /// (as Texture's `ASSizeRangeIntersect`, which prefers the outer constraint).
    public func intersection(_ other: SizeRange) -> SizeRange {
        func axis(_ aMin: Double, _ aMax: Double, _ bMin: Double, _ bMax: Double) -> (Double, Double) {
            let lo = Swift.max(aMin, bMin), hi = Swift.min(aMax, bMax)
            if lo <= hi { return (lo, hi) }
            return aMax < bMin ? (bMin, bMin) : (bMax, bMax)
        }
        let w = axis(min.width, max.width, other.min.width, other.max.width)
        let h = axis(min.height, max.height, other.min.height, other.max.height)
        return SizeRange(min: Size(width: w.0, height: h.0), max: Size(width: w.1, height: h.1))
    }

    /// The range shrunk by `dx`, `dy` on each axis (never below zero).
    public func shrunk(dx: Double, dy: Double) -> SizeRange {
        SizeRange(min: Size(width: min.width - dx, height: min.height - dy),
                  max: Size(width: max.width - dx, height: max.height - dy))
    }

    public var description: String { "[\(min) … \(max)]" }
}

@inline(__always) private func sanitize(_ v: Double) -> Double { v.isNaN || v < 0 ? 0 : v }

/// A length in points as layout messages print it: whole numbers without a fraction, others to
/// two decimals, infinities as ∞. `package`: the corpus evaluator (Tools/) prints with it; an
/// app formats its own numbers.
package func formatPoints(_ v: Double) -> String {
    if v.isInfinite { return v > 0 ? "∞" : "-∞" }
    if v == v.rounded() && abs(v) < 1e15 { return String(Int(v)) }
    return String((v * 100).rounded() / 100)
}
