import CPixman
import Foundation
import SilkGeometry

/// Splits a convex polygon (device space) into horizontal trapezoids, one per band between
/// consecutive distinct vertex heights, so pixman rasterizes each mask row exactly once.
/// pixman samples a trapezoid over `[top, bottom)`, so bands that share an edge never
/// double-count coverage.
struct ConvexTrapezoids {
    let topY: Double
    let bottomY: Double
    let pixman: pixman_trapezoid_t

    static func minX(_ p: [Point]) -> Double { p.reduce(Double.infinity) { min($0, $1.x) } }
    static func maxX(_ p: [Point]) -> Double { p.reduce(-Double.infinity) { max($0, $1.x) } }

    /// The bands of `polygon`, top to bottom; nil when the polygon is not convex (or has
    /// non-finite points), so the caller falls back to triangles.
    static func decompose(_ polygon: [Point]) -> [ConvexTrapezoids]? {
        // Drop repeated points (a zero-radius corner repeats its vertex).
        var p: [Point] = []
        p.reserveCapacity(polygon.count)
        for q in polygon where p.last != q { p.append(q) }
        if p.count > 1, p.first == p.last { p.removeLast() }
        guard p.count >= 3, p.allSatisfy({ $0.x.isFinite && $0.y.isFinite }), isConvex(p) else { return nil }

        // Walk the two y-monotone chains from the topmost vertex down to the bottommost.
        let n = p.count
        var top = 0, bottom = 0
        for i in 1..<n {
            if p[i].y < p[top].y { top = i }
            if p[i].y > p[bottom].y { bottom = i }
        }
        func chain(_ step: Int) -> [Point] {
            var out = [p[top]], i = top
            while i != bottom { i = (i + step + n) % n; out.append(p[i]) }
            return out
        }
        let a = chain(1), b = chain(-1)
        guard a.count >= 2, b.count >= 2 else { return [] }
        // Every vertex height is a band boundary.
        var ys = Array(Set(p.map(\.y))).sorted()
        ys.removeAll { $0 < p[top].y || $0 > p[bottom].y }
        var out: [ConvexTrapezoids] = []
        out.reserveCapacity(ys.count)
        var ia = 0, ib = 0
        for k in 0..<(ys.count - 1) {
            let y0 = ys[k], y1 = ys[k + 1], mid = (y0 + y1) / 2
            // The edge of each chain spanning this band (chains are monotone in y).
            while ia < a.count - 2 && a[ia + 1].y <= y0 { ia += 1 }
            while ib < b.count - 2 && b[ib + 1].y <= y0 { ib += 1 }
            let ea = (a[ia], a[ia + 1]), eb = (b[ib], b[ib + 1])
            guard ea.1.y > ea.0.y, eb.1.y > eb.0.y else { continue }
            let xa = x(at: mid, ea.0, ea.1), xb = x(at: mid, eb.0, eb.1)
            let (l, r) = xa <= xb ? (ea, eb) : (eb, ea)
            let trap = pixman_trapezoid_t(
                top: fixed(y0), bottom: fixed(y1),
                left: pixman_line_fixed_t(p1: pixmanPoint(l.0), p2: pixmanPoint(l.1)),
                right: pixman_line_fixed_t(p1: pixmanPoint(r.0), p2: pixmanPoint(r.1)))
            out.append(ConvexTrapezoids(topY: y0, bottomY: y1, pixman: trap))
        }
        return out
    }

    private static func x(at y: Double, _ p0: Point, _ p1: Point) -> Double {
        p0.x + (p1.x - p0.x) * (y - p0.y) / (p1.y - p0.y)
    }

    /// True when every turn has the same sign (collinear points allowed) and the boundary winds
    /// around once (rules out self-intersecting "convex-looking" stars).
    static func isConvex(_ p: [Point]) -> Bool {
        let n = p.count
        var sign = 0.0, total = 0.0
        for i in 0..<n {
            let a = p[i], b = p[(i + 1) % n], c = p[(i + 2) % n]
            let cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
            let t1 = atan2(b.y - a.y, b.x - a.x), t2 = atan2(c.y - b.y, c.x - b.x)
            var turn = t2 - t1
            while turn <= -Double.pi { turn += 2 * Double.pi }
            while turn > Double.pi { turn -= 2 * Double.pi }
            total += turn
            if abs(cross) < 1e-12 { continue }
            if sign == 0 { sign = cross } else if (cross > 0) != (sign > 0) { return false }
        }
        return sign != 0 && abs(abs(total) - 2 * Double.pi) < 1e-6
    }
}
