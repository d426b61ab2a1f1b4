import CPixman
import SilkGeometry

/// How a convex shape is composited: the pixels it covers entirely go through no mask, the rest
/// through coverage masks of its trapezoids. Everything is relative to the whole pixel its
/// contour was moved to (the shape's floor corner), so a shape that moves by whole pixels keeps
/// its plan — and the masks of a ``CoverageMaskCache``.
struct ConvexShapePlan {
    /// The bands, relative to the shape's origin (pixman 16.16).
    let trapezoids: [pixman_trapezoid_t]
    /// Integral rectangles every pixel of which the shape covers entirely (composited unmasked).
    let unmasked: [Rect]
    /// Integral rectangles that need the shape's coverage; with `unmasked`, they tile its box.
    let masked: [Rect]

    /// The plan of `bands` (relative to the origin). With `splitsInterior`, a shape whose box
    /// has at least 1,024 pixels and which covers a quarter of it entirely is split: its covered
    /// rectangle and, in the rows above and below it, the columns all those rows cover (a
    /// rounded rectangle's edges between its corners) go unmasked; only the corners and
    /// fractional sides are masked. `rows` limits the rows looked at (a caller that will draw
    /// only some rows and keeps no plan); pixels are the same whatever the split.
    init(bands: [ConvexTrapezoids], box: Rect, splitsInterior: Bool, rows: Range<Int>? = nil) {
        trapezoids = bands.map(\.pixman)
        let rows = rows ?? Int(box.minY)..<Int(box.maxY)
        guard splitsInterior, box.width * box.height >= 1024,
              let (r0, spans) = ConvexTrapezoids.coveredSpans(bands, rows: rows),
              let inner = ConvexTrapezoids.coveredRect(spans: spans, firstRow: r0)?.intersection(box), !inner.isEmpty,
              inner.width * inner.height * 4 >= box.width * box.height else {
            unmasked = []; masked = [box]
            return
        }
        var unmasked = [inner], masked: [Rect] = []
        /// Rows `y0..<y1` across the box: the columns every one of them covers go unmasked when
        /// that is worth a composite (16 pixels wide), the rest of the band is masked.
        func band(_ y0: Double, _ y1: Double) {
            guard y1 > y0 else { return }
            var lo = Int.min, hi = Int.max
            for y in Int(y0)..<Int(y1) {
                let k = y - r0
                guard k >= 0, k < spans.count, spans[k].hi > spans[k].lo else { lo = 0; hi = 0; break }
                lo = max(lo, spans[k].lo); hi = min(hi, spans[k].hi)
            }
            if hi - lo >= 16 {
                masked.append(Rect(x: box.minX, y: y0, width: Double(lo) - box.minX, height: y1 - y0))
                unmasked.append(Rect(x: Double(lo), y: y0, width: Double(hi - lo), height: y1 - y0))
                masked.append(Rect(x: Double(hi), y: y0, width: box.maxX - Double(hi), height: y1 - y0))
            } else {
                masked.append(Rect(x: box.minX, y: y0, width: box.width, height: y1 - y0))
            }
        }
        band(box.minY, inner.minY)
        band(inner.maxY, box.maxY)
        masked.append(Rect(x: box.minX, y: inner.minY, width: inner.minX - box.minX, height: inner.height))
        masked.append(Rect(x: inner.maxX, y: inner.minY, width: box.maxX - inner.maxX, height: inner.height))
        self.unmasked = unmasked.filter { !$0.isEmpty }
        self.masked = masked.filter { !$0.isEmpty }
    }
}

/// Coverage masks of convex shapes kept from frame to frame, for a canvas that draws the same
/// shapes again and again at whole-pixel offsets — the compositor's rounded layers, moved or
/// repainted in new damage rectangles every frame. Rasterizing a shape's edges (pixman's
/// `pixman_rasterize_edges`) was a fifth of compositing 200 translucent rounded layers, and
/// the largest part that varied between machines.
///
/// Shapes are keyed by their contour in pixman's own 16.16 fixed point, moved to their floor
/// corner, so a hit gives exactly the pixels rasterizing again would (pixman's sample grid
/// repeats every whole pixel). Only masks of parts up to 64 Ki pixels are kept, within a byte
/// budget; past it the cache starts again empty (a scene that fits stays warm, one that does not
/// costs what no cache costs).
///
/// Not thread-safe: one per compositor (render thread); set it on the canvases that thread makes
/// (``Canvas/coverageMasks``).
public final class CoverageMaskCache {
    /// Bytes of masks kept at most.
    public let byteBudget: Int
    /// What the cache did since it was made.
    public struct Statistics: Sendable, Equatable {
        /// Shapes whose plan was found.
        public var hits = 0
        /// Shapes planned afresh.
        public var misses = 0
        /// Masks rasterized (each part once while it stays cached).
        public var masksRasterized = 0
        /// Times the budget was exceeded and everything was dropped.
        public var resets = 0
    }
    /// The counters (tests, `SILK_RENDER_STATS`).
    public private(set) var statistics = Statistics()
    /// Bytes of masks held now.
    public private(set) var bytes = 0
    /// Shapes held now.
    public var count: Int { entries.count }

    static let maxPartPixels = 1 << 16
    static let maxEntries = 2048

    /// The contour on the 16.16 grid relative to its floor corner, a point a word (x high, y low).
    /// Hashed through a digest of its words taken once (FNV-1a, a multiply a word): `Hasher` over
    /// a rounded square's ~70 words was 1.8 % of a many-layers frame, every layer, every frame.
    /// Equal keys compare every word, so the digest only chooses the bucket (and the table is
    /// bounded by `maxEntries`: colliding shapes cost probes, never wrong masks).
    struct Key: Hashable {
        let points: [Int]
        let digest: UInt64
        init(points: [Int]) {
            self.points = points
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for p in points { h = (h ^ UInt64(UInt(bitPattern: p))) &* 0x0000_0100_0000_01b3 }
            digest = h
        }
        func hash(into hasher: inout Hasher) { hasher.combine(digest) }
        static func == (a: Key, b: Key) -> Bool { a.digest == b.digest && a.points == b.points }
    }
    struct RoundedRectKey: Hashable { let rect: Rect, radius: Double, segments: Int }
    /// Rounded-rectangle contours in user space: a layer's bounds, radius and scale stay the
    /// same while it moves, and the contour's sines and cosines were the next cost after masks.
    private var contours: [RoundedRectKey: [Point]] = [:]
    final class Entry {
        /// nil: not convex (the caller falls back to triangles).
        let plan: ConvexShapePlan?
        var masks: [Bitmap?]
        var rasterized: [Bool]
        init(plan: ConvexShapePlan?) {
            self.plan = plan
            masks = Array(repeating: nil, count: plan?.masked.count ?? 0)
            rasterized = Array(repeating: false, count: plan?.masked.count ?? 0)
        }
    }
    private var entries: [Key: Entry] = [:]

    /// A cache holding at most `byteBudget` bytes of masks (default 4 MiB).
    public init(byteBudget: Int = 4 << 20) { self.byteBudget = max(0, byteBudget) }

    /// Drops every shape (low memory).
    public func removeAll() { entries.removeAll(); contours.removeAll(); bytes = 0 }

    /// `Shapes.roundedRect(rect, radius:, segmentsPerCorner:)`, kept (the same values).
    func roundedRect(_ rect: Rect, radius: Double, segmentsPerCorner n: Int) -> [Point] {
        let key = RoundedRectKey(rect: rect, radius: radius, segments: n)
        if let c = contours[key] { return c }
        if contours.count >= Self.maxEntries { contours.removeAll() }
        let c = Shapes.roundedRect(rect, radius: radius, segmentsPerCorner: n)
        contours[key] = c
        return c
    }

    func entry(_ key: Key, make: () -> ConvexShapePlan?) -> Entry {
        if let e = entries[key] { statistics.hits += 1; return e }
        statistics.misses += 1
        if entries.count >= Self.maxEntries { reset() }
        let e = Entry(plan: make())
        entries[key] = e
        return e
    }

    /// The mask of `e`'s masked part `i`, rasterized on first use; nil when the part is too
    /// large to keep (the caller rasterizes the visible piece itself).
    func mask(_ e: Entry, part i: Int) -> Bitmap? {
        if e.rasterized[i] { return e.masks[i] }
        guard let plan = e.plan else { return nil }
        let part = plan.masked[i]
        e.rasterized[i] = true
        guard part.width * part.height <= Double(Self.maxPartPixels), part.maxX < 32_767, part.maxY < 32_767,
              let mask = try? Bitmap(width: Int(part.width), height: Int(part.height), format: .a8) else { return nil }
        pixman_add_trapezoids(mask.image, Int16(-part.minX), Int32(-part.minY), Int32(plan.trapezoids.count), plan.trapezoids)
        statistics.masksRasterized += 1
        let size = mask.stride * mask.height
        // Past the budget, start again (the entry being drawn keeps this mask until it goes).
        if bytes + size > byteBudget { reset() } else { bytes += size }
        e.masks[i] = mask
        return mask
    }

    private func reset() {
        statistics.resets += 1
        entries.removeAll()
        bytes = 0
    }
}

extension pixman_trapezoid_t {
    /// The trapezoid moved by whole pixels (its coordinates stay within 16.16 when it came from there).
    func moved(byX dx: Int, y dy: Int) -> pixman_trapezoid_t {
        func f(_ v: pixman_fixed_t, _ d: Int) -> pixman_fixed_t { pixman_fixed_t(clamping: Int(v) + d << 16) }
        func p(_ q: pixman_point_fixed_t) -> pixman_point_fixed_t { pixman_point_fixed_t(x: f(q.x, dx), y: f(q.y, dy)) }
        return pixman_trapezoid_t(top: f(top, dy), bottom: f(bottom, dy),
                                  left: pixman_line_fixed_t(p1: p(left.p1), p2: p(left.p2)),
                                  right: pixman_line_fixed_t(p1: p(right.p1), p2: p(right.p2)))
    }
}
