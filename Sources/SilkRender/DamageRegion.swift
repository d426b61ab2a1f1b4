import SilkGeometry

/// A set of integral device-pixel rectangles that need repainting.
///
/// Kept small on purpose: rectangles that overlap or nearly touch are merged, and past
/// `maxRects` the pair whose union wastes the least area is merged. Over-approximating is always
/// correct (it only repaints more); the compositor's property test checks that.
public struct DamageRegion: Sendable, Equatable, CustomStringConvertible {
    /// The rectangles, integral device pixels, at most ``maxRects`` of them.
    public private(set) var rects: [Rect] = []
    /// How many rectangles the region keeps before merging the cheapest pair (at least 1).
    public let maxRects: Int

    /// An empty region that keeps at most `maxRects` rectangles.
    public init(maxRects: Int = 12) { self.maxRects = max(1, maxRects) }

    /// True when nothing needs repainting (the render thread then presents nothing).
    public var isEmpty: Bool { rects.isEmpty }
    /// Total area (pixels) of the rectangles (they never overlap after merging... approximately).
    public var area: Double { rects.reduce(0) { $0 + $1.width * $1.height } }
    /// The smallest rectangle containing every damaged rectangle (`Rect.null` when empty).
    public var bounds: Rect { rects.reduce(Rect.null) { $0.union($1) } }

    /// Adds `rect` (points rounded out to whole pixels); non-finite or empty rectangles are
    /// ignored, overlapping or touching ones merged.
    public mutating func add(_ rect: Rect) {
        guard rect.origin.x.isFinite, rect.origin.y.isFinite, rect.size.isValidExtent else { return }
        var r = rect.integral
        guard !r.isEmpty else { return }
        // Absorb every rectangle this one overlaps or touches, repeatedly.
        var merged = true
        while merged {
            merged = false
            for (i, e) in rects.enumerated() where touches(e, r) {
                r = r.union(e)
                rects.remove(at: i)
                merged = true
                break
            }
        }
        rects.append(r)
        while rects.count > maxRects { mergeCheapestPair() }
    }

    /// Adds every rectangle of `other`.
    public mutating func formUnion(_ other: DamageRegion) {
        for r in other.rects { add(r) }
    }

    /// Keeps only the parts inside `clip` (each rect intersected).
    public func clipped(to clip: Rect) -> DamageRegion {
        var out = DamageRegion(maxRects: maxRects)
        out.rects = rects.map { $0.intersection(clip) }.filter { !$0.isEmpty }
        return out
    }

    private func touches(_ a: Rect, _ b: Rect) -> Bool {
        a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY
    }

    private mutating func mergeCheapestPair() {
        var best = (0, 1), bestWaste = Double.infinity
        for i in 0..<rects.count {
            for j in (i + 1)..<rects.count {
                let u = rects[i].union(rects[j])
                let waste = u.width * u.height - rects[i].width * rects[i].height - rects[j].width * rects[j].height
                if waste < bestWaste { bestWaste = waste; best = (i, j) }
            }
        }
        let u = rects[best.0].union(rects[best.1])
        rects.remove(at: best.1)
        rects.remove(at: best.0)
        add(u)
    }

    public var description: String { "DamageRegion(\(rects.map(\.description).joined(separator: ", ")))" }
}

/// Subtracts `hole` from each rectangle of `rects` (each splits into at most four pieces).
/// Used to skip pixels that an opaque layer above will cover anyway.
func subtract(_ hole: Rect, from rects: [Rect]) -> [Rect] {
    var out: [Rect] = []
    out.reserveCapacity(rects.count + 3)
    for r in rects {
        let i = r.intersection(hole)
        if i.isEmpty { out.append(r); continue }
        if i.minY > r.minY { out.append(Rect(x: r.minX, y: r.minY, width: r.width, height: i.minY - r.minY)) }
        if i.maxY < r.maxY { out.append(Rect(x: r.minX, y: i.maxY, width: r.width, height: r.maxY - i.maxY)) }
        if i.minX > r.minX { out.append(Rect(x: r.minX, y: i.minY, width: i.minX - r.minX, height: i.height)) }
        if i.maxX < r.maxX { out.append(Rect(x: i.maxX, y: i.minY, width: r.maxX - i.maxX, height: i.height)) }
    }
    return out
}
