import SilkGeometry
#if canImport(Glibc)
import Glibc
#endif

/// A vector outline: subpaths of straight lines, quadratic and cubic Bézier curves and circular
/// arcs, in user space (points). A value type: build it on any thread, share it freely.
///
/// Filled with ``Canvas/fill(_:rule:with:)`` or stroked with ``Canvas/stroke(_:style:with:)``;
/// the canvas's transform, clip and opacity apply as to every other shape.
public struct Path: Sendable, Hashable {
    /// One drawing command; coordinates are user space.
    public enum Element: Sendable, Hashable {
        /// Starts a new subpath at the point.
        case move(to: Point)
        /// A straight line from the current point.
        case line(to: Point)
        /// A quadratic Bézier curve from the current point through the pull of `control`.
        case quadCurve(to: Point, control: Point)
        /// A cubic Bézier curve from the current point.
        case curve(to: Point, control1: Point, control2: Point)
        /// A circular arc around `center` from `startAngle` to `endAngle` (radians, 0 along +x,
        /// growing clockwise on screen since y points down). When a subpath is open, a line joins
        /// its current point to the arc's start.
        case arc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool)
        /// Closes the subpath with a line back to its start.
        case close
    }

    /// The commands in order.
    public private(set) var elements: [Element] = []
    /// The point the next segment starts from (nil before the first `move`).
    public private(set) var currentPoint: Point?
    private var subpathStart: Point?

    /// An empty path.
    public init() {}

    /// Whether the path has no commands.
    public var isEmpty: Bool { elements.isEmpty }

    /// Starts a new subpath at `point`.
    public mutating func move(to point: Point) {
        elements.append(.move(to: point)); currentPoint = point; subpathStart = point
    }
    /// A straight line to `point` (a `move` when the path has no current point).
    public mutating func addLine(to point: Point) {
        guard currentPoint != nil else { return move(to: point) }
        elements.append(.line(to: point)); currentPoint = point
    }
    /// Straight lines through `points`, starting a new subpath at the first.
    public mutating func addLines(_ points: [Point]) {
        guard let first = points.first else { return }
        move(to: first)
        for p in points.dropFirst() { addLine(to: p) }
    }
    /// A quadratic Bézier curve to `point` with one `control` point.
    public mutating func addQuadCurve(to point: Point, control: Point) {
        if currentPoint == nil { move(to: control) }
        elements.append(.quadCurve(to: point, control: control)); currentPoint = point
    }
    /// A cubic Bézier curve to `point` with two control points.
    public mutating func addCurve(to point: Point, control1: Point, control2: Point) {
        if currentPoint == nil { move(to: control1) }
        elements.append(.curve(to: point, control1: control1, control2: control2)); currentPoint = point
    }
    /// A circular arc (see ``Element/arc(center:radius:startAngle:endAngle:clockwise:)``).
    /// `clockwise` is as seen on screen (y down): angles grow clockwise.
    public mutating func addArc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool = true) {
        let r = radius.isFinite ? max(0, radius) : radius
        elements.append(.arc(center: center, radius: r, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise))
        let end = Point(x: center.x + r * cos(endAngle), y: center.y + r * sin(endAngle))
        if currentPoint == nil { subpathStart = Point(x: center.x + r * cos(startAngle), y: center.y + r * sin(startAngle)) }
        currentPoint = end
    }
    /// Closes the current subpath back to its start; the next segment starts there.
    public mutating func closeSubpath() {
        guard currentPoint != nil else { return }
        elements.append(.close); currentPoint = subpathStart
    }

    /// A closed rectangle (clockwise on screen).
    public mutating func addRect(_ rect: Rect) {
        addLines(Shapes.rect(rect)); closeSubpath()
    }
    /// A closed ellipse inscribed in `rect`, as four cubic curves.
    public mutating func addEllipse(in rect: Rect) {
        let k = 0.5522847498307936  // 4/3·(√2−1): a quarter circle as one cubic
        let cx = rect.midX, cy = rect.midY, rx = rect.width / 2, ry = rect.height / 2
        move(to: Point(x: cx + rx, y: cy))
        addCurve(to: Point(x: cx, y: cy + ry), control1: Point(x: cx + rx, y: cy + k * ry), control2: Point(x: cx + k * rx, y: cy + ry))
        addCurve(to: Point(x: cx - rx, y: cy), control1: Point(x: cx - k * rx, y: cy + ry), control2: Point(x: cx - rx, y: cy + k * ry))
        addCurve(to: Point(x: cx, y: cy - ry), control1: Point(x: cx - rx, y: cy - k * ry), control2: Point(x: cx - k * rx, y: cy - ry))
        addCurve(to: Point(x: cx + rx, y: cy), control1: Point(x: cx + k * rx, y: cy - ry), control2: Point(x: cx + rx, y: cy - k * ry))
        closeSubpath()
    }
    /// A closed rectangle with circular corners of `cornerRadius` (clamped to half the shorter side).
    public mutating func addRoundedRect(_ rect: Rect, cornerRadius: Double) {
        let r = max(0, min(cornerRadius.isFinite ? cornerRadius : 0, min(rect.width, rect.height) / 2))
        guard r > 0 else { return addRect(rect) }
        move(to: Point(x: rect.minX + r, y: rect.minY))
        addArc(center: Point(x: rect.maxX - r, y: rect.minY + r), radius: r, startAngle: -.pi / 2, endAngle: 0)
        addArc(center: Point(x: rect.maxX - r, y: rect.maxY - r), radius: r, startAngle: 0, endAngle: .pi / 2)
        addArc(center: Point(x: rect.minX + r, y: rect.maxY - r), radius: r, startAngle: .pi / 2, endAngle: .pi)
        addArc(center: Point(x: rect.minX + r, y: rect.minY + r), radius: r, startAngle: .pi, endAngle: 1.5 * .pi)
        closeSubpath()
    }

    /// Whether every coordinate, radius and angle is finite (a path with NaN or ∞ draws nothing).
    public var isFinite: Bool {
        func ok(_ p: Point) -> Bool { p.x.isFinite && p.y.isFinite }
        for e in elements {
            switch e {
            case let .move(p), let .line(p): if !ok(p) { return false }
            case let .quadCurve(p, c): if !ok(p) || !ok(c) { return false }
            case let .curve(p, c1, c2): if !ok(p) || !ok(c1) || !ok(c2) { return false }
            case let .arc(c, r, a0, a1, _):
                if !ok(c) || !r.isFinite || !a0.isFinite || !a1.isFinite { return false }
            case .close: break
            }
        }
        return true
    }

    /// A box containing the path: every point and control point, and the full circle of every
    /// arc (cheap and conservative; nil for an empty path).
    public var controlPointBounds: Rect? {
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        func add(_ p: Point) { x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y) }
        for e in elements {
            switch e {
            case let .move(p), let .line(p): add(p)
            case let .quadCurve(p, c): add(p); add(c)
            case let .curve(p, c1, c2): add(p); add(c1); add(c2)
            case let .arc(c, r, _, _, _):
                add(Point(x: c.x - r, y: c.y - r)); add(Point(x: c.x + r, y: c.y + r))
            case .close: break
            }
        }
        guard x0 <= x1, y0 <= y1 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// An upper bound on the path's length after `transform`: the length of its control polygon
    /// plus each arc's full circumference. Used to refuse dash patterns that would make millions
    /// of dashes.
    func lengthBound(under t: AffineTransform) -> Double {
        var total = 0.0
        var last: Point?, start: Point?
        let s = max(abs(t.a) + abs(t.c), abs(t.b) + abs(t.d))
        func to(_ p: Point) {
            let d = t.apply(to: p)
            if let l = last { total += l.distance(to: d) }
            last = d
        }
        for e in elements {
            switch e {
            case let .move(p): last = nil; to(p); start = last
            case let .line(p): to(p)
            case let .quadCurve(p, c): to(c); to(p)
            case let .curve(p, c1, c2): to(c1); to(c2); to(p)
            case let .arc(c, r, a0, a1, _):
                total += 2 * .pi * r * s * max(1, abs(a1 - a0) / (2 * .pi) + 1)
                last = t.apply(to: Point(x: c.x + r * cos(a1), y: c.y + r * sin(a1)))
            case .close: if let s0 = start, let l = last { total += l.distance(to: s0) }; last = start
            }
        }
        return total
    }
}

/// Which points a filled path covers where its subpaths overlap or cross themselves.
public enum FillRule: Sendable, Hashable {
    /// Inside where the outline winds around the point a non-zero number of times (SVG `nonzero`).
    case nonZero
    /// Inside where a ray from the point crosses the outline an odd number of times (SVG `evenodd`).
    case evenOdd
}

/// The shape drawn at the open ends of a stroked subpath.
public enum LineCap: Sendable, Hashable {
    /// The stroke stops square at the end point.
    case butt
    /// A half circle around the end point.
    case round
    /// A half square around the end point (the stroke extends by half its width).
    case square
}

/// The shape drawn where two stroked segments meet.
public enum LineJoin: Sendable, Hashable {
    /// A sharp corner, cut to a bevel when longer than ``StrokeStyle/miterLimit``.
    case miter
    /// A circular corner.
    case round
    /// The corner cut straight across.
    case bevel
}

/// How a path is stroked: width, caps, joins, miter limit and dashes (user space, points).
public struct StrokeStyle: Sendable, Hashable {
    /// The stroke's width, centred on the path (points; ≤ 0 or non-finite draws nothing).
    public var lineWidth: Double
    /// The shape at open ends.
    public var lineCap: LineCap
    /// The shape at corners.
    public var lineJoin: LineJoin
    /// The ratio of miter length to line width beyond which a miter join is bevelled (≥ 1).
    public var miterLimit: Double
    /// Alternating dash and gap lengths (points); empty for a solid stroke. A pattern with a
    /// negative or non-finite length, or one that sums to zero, draws solid; so does a pattern
    /// that would cut the path into more than ``maximumDashCount`` dashes.
    public var dashes: [Double]
    /// How far into the dash pattern the stroke starts (points).
    public var dashPhase: Double

    /// More dashes than this along one stroke (a 0.01-point pattern on a long path) would take
    /// seconds to rasterize; such a stroke is drawn solid instead.
    public static let maximumDashCount = 100_000

    /// A stroke style; by default 1 point wide, butt caps, miter joins (limit 10), solid.
    public init(lineWidth: Double = 1, lineCap: LineCap = .butt, lineJoin: LineJoin = .miter,
                miterLimit: Double = 10, dashes: [Double] = [], dashPhase: Double = 0) {
        self.lineWidth = lineWidth; self.lineCap = lineCap; self.lineJoin = lineJoin
        self.miterLimit = miterLimit; self.dashes = dashes; self.dashPhase = dashPhase
    }
}
