// Geometry value types shared by every Silk layer. Units are points (logical pixels) as Double;
// device pixels are points × scale. All types are Sendable values, safe to hand across threads.

/// A location in a 2-D coordinate space whose y axis points down (screen convention).
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal coordinate in points, growing to the right.
    public var x: Double
    /// The vertical coordinate in points, growing downwards.
    public var y: Double
    /// A point at `x`, `y` (points).
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    /// The origin of the coordinate space.
    public static let zero = Point(x: 0, y: 0)
    /// Adds the coordinates component-wise (a point moved by an offset).
    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    /// Subtracts the coordinates component-wise: the offset from `b` to `a`.
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    /// Multiplies both coordinates by `s`, for example to convert points to device pixels.
    public static func * (a: Point, s: Double) -> Point { Point(x: a.x * s, y: a.y * s) }
    /// The Euclidean distance to `other`, in the same units as the coordinates (a gesture's
    /// travel, for instance).
    public func distance(to other: Point) -> Double {
        let dx = other.x - x, dy = other.y - y
        return (dx * dx + dy * dy).squareRoot()
    }
    public var description: String { "(\(fmt(x)), \(fmt(y)))" }
}

/// A width and a height. Negative or non-finite values are not normalised here; layout and
/// raster code validate sizes at their boundaries (see `isValidExtent`).
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal extent in points.
    public var width: Double
    /// The vertical extent in points.
    public var height: Double
    /// A size of `width` × `height` points; neither is validated.
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    /// The size with no extent.
    public static let zero = Size(width: 0, height: 0)
    /// Both extents finite and ≥ 0.
    public var isValidExtent: Bool {
        width.isFinite && height.isFinite && width >= 0 && height >= 0
    }
    /// True unless both extents are positive (NaN counts as empty): nothing to draw or hit.
    public var isEmpty: Bool { !(width > 0 && height > 0) }
    /// Multiplies both extents by `s`, for example to convert points to device pixels.
    public static func * (a: Size, s: Double) -> Size { Size(width: a.width * s, height: a.height * s) }
    public var description: String { "\(fmt(width))×\(fmt(height))" }
}

/// An axis-aligned rectangle: origin (top-left) and size.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The top-left corner in points.
    public var origin: Point
    /// The extent in points. Not normalised: a negative size is kept as given.
    public var size: Size
    /// A rectangle with the given top-left corner and size.
    public init(origin: Point, size: Size) { self.origin = origin; self.size = size }
    /// A rectangle from its top-left corner and extents, in points.
    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Point(x: x, y: y); size = Size(width: width, height: height)
    }
    /// A rectangle of `size` at the origin: the bounds of something of that size.
    public init(size: Size) { self.init(origin: .zero, size: size) }
    /// The empty rectangle at the origin. It is empty but not ``null``.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
    /// The empty rectangle that is the identity of `union`.
    public static let null = Rect(x: .infinity, y: .infinity, width: 0, height: 0)

    /// The left edge (`origin.x`).
    public var minX: Double { origin.x }
    /// The top edge (`origin.y`).
    public var minY: Double { origin.y }
    /// The right edge: `origin.x + width`, exclusive for `contains(_:)`.
    public var maxX: Double { origin.x + size.width }
    /// The bottom edge: `origin.y + height`, exclusive for `contains(_:)`.
    public var maxY: Double { origin.y + size.height }
    /// The horizontal centre.
    public var midX: Double { origin.x + size.width / 2 }
    /// The vertical centre.
    public var midY: Double { origin.y + size.height / 2 }
    /// `size.width`, for symmetry with the edge accessors.
    public var width: Double { size.width }
    /// `size.height`, for symmetry with the edge accessors.
    public var height: Double { size.height }
    /// The centre point (``midX``, ``midY``).
    public var center: Point { Point(x: midX, y: midY) }
    /// True for ``null`` (an origin at infinity), the result of intersecting disjoint rectangles.
    public var isNull: Bool { origin.x == .infinity || origin.y == .infinity }
    /// True for ``null`` and for rectangles without a positive width and height.
    public var isEmpty: Bool { isNull || size.isEmpty }

    /// Whether `p` lies inside: the top and left edges are included, the bottom and right edges
    /// are not, so adjacent rectangles never both contain a point (hit testing relies on it).
    public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }
    /// Whether `r` lies entirely inside; an empty `r` is contained in every rectangle.
    public func contains(_ r: Rect) -> Bool {
        r.isEmpty || (r.minX >= minX && r.minY >= minY && r.maxX <= maxX && r.maxY <= maxY)
    }
    /// Whether the two rectangles share any area (touching edges do not count).
    public func intersects(_ r: Rect) -> Bool { !intersection(r).isEmpty }
    /// The area both rectangles cover, or ``null`` when they do not overlap.
    public func intersection(_ r: Rect) -> Rect {
        if isNull || r.isNull { return .null }
        let x0 = max(minX, r.minX), y0 = max(minY, r.minY)
        let x1 = min(maxX, r.maxX), y1 = min(maxY, r.maxY)
        if x1 <= x0 || y1 <= y0 { return .null }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
    /// The smallest rectangle containing both; an empty operand is ignored (so ``null`` is the
    /// starting value when accumulating damage).
    public func union(_ r: Rect) -> Rect {
        if isEmpty { return r }
        if r.isEmpty { return self }
        let x0 = min(minX, r.minX), y0 = min(minY, r.minY)
        return Rect(x: x0, y: y0, width: max(maxX, r.maxX) - x0, height: max(maxY, r.maxY) - y0)
    }
    /// The same rectangle moved by `dx`, `dy` points.
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width, height: height)
    }
    /// Moves the left and right edges inward by `dx` and the top and bottom edges by `dy`
    /// (negative values grow the rectangle); the size never goes below zero.
    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: max(0, width - 2 * dx), height: max(0, height - 2 * dy))
    }
    /// The rectangle with each edge moved inward by its inset (a padded content area); the size
    /// never goes below zero.
    public func inset(by e: EdgeInsets) -> Rect {
        Rect(x: minX + e.left, y: minY + e.top,
             width: max(0, width - e.left - e.right), height: max(0, height - e.top - e.bottom))
    }
    /// The smallest rectangle with integral edges that contains this one (for pixel damage).
    public var integral: Rect {
        if isNull { return self }
        let x0 = (minX).rounded(.down), y0 = (minY).rounded(.down)
        return Rect(x: x0, y: y0, width: maxX.rounded(.up) - x0, height: maxY.rounded(.up) - y0)
    }
    /// Origin and size multiplied by `s`: points to device pixels at scale `s`.
    public func scaled(by s: Double) -> Rect {
        Rect(x: minX * s, y: minY * s, width: width * s, height: height * s)
    }
    public var description: String { "{\(origin), \(size)}" }
}

/// Distances inward from each edge of a rectangle.
public struct EdgeInsets: Hashable, Sendable, CustomStringConvertible {
    /// The inset from the top edge, in points.
    public var top: Double
    /// The inset from the left edge, in points.
    public var left: Double
    /// The inset from the bottom edge, in points.
    public var bottom: Double
    /// The inset from the right edge, in points.
    public var right: Double
    /// Insets with the given edges, each 0 unless given (points; negative values outset).
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    /// The same inset `v` on all four edges.
    public init(all v: Double) { self.init(top: v, left: v, bottom: v, right: v) }
    /// No inset on any edge.
    public static let zero = EdgeInsets()
    /// `left + right`: how much the insets take from a width.
    public var horizontal: Double { left + right }
    /// `top + bottom`: how much the insets take from a height.
    public var vertical: Double { top + bottom }
    public var description: String { "(t \(fmt(top)), l \(fmt(left)), b \(fmt(bottom)), r \(fmt(right)))" }
}

/// A 2-D affine transform mapping (x, y) to (a·x + c·y + tx, b·x + d·y + ty), as Core Graphics.
public struct AffineTransform: Hashable, Sendable {
    /// The x scale (and rotation cosine): how much x contributes to x.
    public var a: Double
    /// How much x contributes to y (rotation sine, vertical shear).
    public var b: Double
    /// How much y contributes to x (negative rotation sine, horizontal shear).
    public var c: Double
    /// The y scale (and rotation cosine): how much y contributes to y.
    public var d: Double
    /// The horizontal translation, in points, added after the linear part.
    public var tx: Double
    /// The vertical translation, in points, added after the linear part.
    public var ty: Double
    /// A transform from its six coefficients, in Core Graphics order.
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }
    /// The transform that maps every point to itself.
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    /// A translation by `x`, `y` points.
    public init(translationX x: Double, y: Double) { self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y) }
    /// A scale by `sx` horizontally and `sy` vertically about the origin.
    public init(scaleX sx: Double, y sy: Double) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }
    /// A rotation about the origin by `r` radians; positive angles turn clockwise on screen,
    /// because the y axis points down.
    public init(rotationAngle r: Double) {
        let cs = cos(r), sn = sin(r)
        self.init(a: cs, b: sn, c: -sn, d: cs, tx: 0, ty: 0)
    }
    /// True when the transform is exactly ``identity``.
    public var isIdentity: Bool { self == .identity }
    /// True when the transform is only a translation (the compositor's fast path).
    public var isTranslation: Bool { a == 1 && b == 0 && c == 0 && d == 1 }
    /// `self` applied first, then `t`.
    public func concatenating(_ t: AffineTransform) -> AffineTransform {
        AffineTransform(a: a * t.a + b * t.c, b: a * t.b + b * t.d,
                        c: c * t.a + d * t.c, d: c * t.b + d * t.d,
                        tx: tx * t.a + ty * t.c + t.tx, ty: tx * t.b + ty * t.d + t.ty)
    }
    /// A translation by `x`, `y` applied before this transform (in this transform's input space).
    public func translatedBy(x: Double, y: Double) -> AffineTransform {
        AffineTransform(translationX: x, y: y).concatenating(self)
    }
    /// A scale applied before this transform (in this transform's input space).
    public func scaledBy(x: Double, y: Double) -> AffineTransform {
        AffineTransform(scaleX: x, y: y).concatenating(self)
    }
    /// A rotation by `r` radians applied before this transform (in its input space).
    public func rotated(by r: Double) -> AffineTransform {
        AffineTransform(rotationAngle: r).concatenating(self)
    }
    /// `a·d − b·c`: the factor by which the transform scales areas; zero means singular.
    public var determinant: Double { a * d - b * c }
    /// The inverse, or nil when the transform is singular.
    public var inverted: AffineTransform? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        return AffineTransform(a: d / det, b: -b / det, c: -c / det, d: a / det,
                               tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }
    /// The point `p` mapped through the transform.
    public func apply(to p: Point) -> Point {
        Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty)
    }
    /// The bounding box of the transformed rectangle (no allocation: the compositor calls this
    /// for every layer of every frame).
    public func apply(to r: Rect) -> Rect {
        if r.isNull { return r }
        if b == 0 && c == 0 {
            let x0 = a * r.minX + tx, x1 = a * r.maxX + tx, y0 = d * r.minY + ty, y1 = d * r.maxY + ty
            return Rect(x: min(x0, x1), y: min(y0, y1), width: abs(x1 - x0), height: abs(y1 - y0))
        }
        let p0 = apply(to: Point(x: r.minX, y: r.minY)), p1 = apply(to: Point(x: r.maxX, y: r.minY))
        let p2 = apply(to: Point(x: r.minX, y: r.maxY)), p3 = apply(to: Point(x: r.maxX, y: r.maxY))
        let x0 = min(min(p0.x, p1.x), min(p2.x, p3.x)), x1 = max(max(p0.x, p1.x), max(p2.x, p3.x))
        let y0 = min(min(p0.y, p1.y), min(p2.y, p3.y)), y1 = max(max(p0.y, p1.y), max(p2.y, p3.y))
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

@inline(__always) func fmt(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
