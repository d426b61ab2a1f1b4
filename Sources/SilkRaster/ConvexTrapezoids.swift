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

    /// A pixel-aligned rectangle every pixel of which the bands cover entirely, or nil. pixman
    /// gives such pixels full coverage (255), so they can be composited without a mask and only
    /// the rest of the shape's box needs rasterizing: for a rounded rectangle that is its corner
    /// rows and, when its sides fall between pixels, 1-pixel strips — instead of its whole area.
    ///
    /// Per pixel row the covered span is `[max(xL(y), xL(y+1)), min(xR(y), xR(y+1))]`: a convex
    /// shape's left boundary is a convex function of y and its right a concave one, so their
    /// extremes over a row are at the row's top and bottom. Evaluated on pixman's own fixed-point
    /// edges. pixman samples a pixel 1/34 px inside its left and right sides (17 columns of
    /// samples at 8 bits) and 1/30 px inside its top and bottom, so an edge up to 1/128 px into
    /// a pixel still leaves every sample inside: that margin absorbs rounding without ever
    /// counting a partly covered pixel. The rectangle grows up and down from the widest row
    /// while the rows cover its span.
    ///
    /// Only rows within `rows` are considered (the part of the device that will be drawn), so
    /// a tall shape costs its visible rows, not its height.
    static func coveredRect(_ bands: [ConvexTrapezoids], rows: Range<Int> = Int(Int32.min)..<Int(Int32.max)) -> Rect? {
        guard let (r0, spans) = coveredSpans(bands, rows: rows) else { return nil }
        return coveredRect(spans: spans, firstRow: r0)
    }

    /// The rectangle `coveredRect(_:rows:)` returns, from spans `coveredSpans` computed.
    static func coveredRect(spans: [(lo: Int, hi: Int)], firstRow r0: Int) -> Rect? {
        guard let widest = spans.indices.max(by: { spans[$0].hi - spans[$0].lo < spans[$1].hi - spans[$1].lo }),
              spans[widest].hi > spans[widest].lo else { return nil }
        let (lo, hi) = spans[widest]
        var a = widest, b = widest + 1
        while a > 0 && spans[a - 1].lo <= lo && spans[a - 1].hi >= hi { a -= 1 }
        while b < spans.count && spans[b].lo <= lo && spans[b].hi >= hi { b += 1 }
        return Rect(x: Double(lo), y: Double(r0 + a), width: Double(hi - lo), height: Double(b - a))
    }

    /// Per pixel row from the first returned row on, the columns `lo..<hi` the bands cover
    /// entirely (`(0, 0)` for none); nil when no row within `rows` is inside the bands. See
    /// `coveredRect(_:rows:)` for why the test is exact.
    static func coveredSpans(_ bands: [ConvexTrapezoids], rows: Range<Int>) -> (firstRow: Int, spans: [(lo: Int, hi: Int)])? {
        guard let first = bands.first, let last = bands.last else { return nil }
        let top = Double(first.pixman.top) / 65536, bottom = Double(last.pixman.bottom) / 65536
        let r0 = max(Int(top.rounded(.up)), rows.lowerBound), r1 = min(Int(bottom.rounded(.down)), rows.upperBound)
        guard r1 > r0 else { return nil }
        func line(_ l: pixman_line_fixed_t, _ y: Double) -> Double {
            let x1 = Double(l.p1.x) / 65536, y1 = Double(l.p1.y) / 65536
            let x2 = Double(l.p2.x) / 65536, y2 = Double(l.p2.y) / 65536
            return y2 == y1 ? min(x1, x2) : x1 + (x2 - x1) * (y - y1) / (y2 - y1)
        }
        var k = 0
        func edges(at y: Double) -> (Double, Double) {
            while k < bands.count - 1 && Double(bands[k].pixman.bottom) / 65536 < y { k += 1 }
            let t = bands[k].pixman
            return (line(t.left, y), line(t.right, y))
        }
        let margin = 1.0 / 128
        var spans: [(lo: Int, hi: Int)] = []
        spans.reserveCapacity(r1 - r0)
        var upper = edges(at: Double(r0))
        for r in r0..<r1 {
            let lower = edges(at: Double(r + 1))
            let lo = (max(upper.0, lower.0) - margin).rounded(.up), hi = (min(upper.1, lower.1) + margin).rounded(.down)
            spans.append(hi > lo ? (Int(lo), Int(hi)) : (0, 0))
            upper = lower
        }
        return (r0, spans)
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
