import SilkGeometry
import SilkRaster

/// One drawing layer flattened to device space: everything the compositor needs to paint it and
/// everything whose change means its pixels changed.
struct RenderEntry {
    let id: Layer.LayerID
    /// Layer bounds coordinates → device pixels.
    let transform: AffineTransform
    let bounds: Rect
    /// Device clip from ancestors that clip (integral), or the whole screen.
    let clip: Rect
    /// Device bounding box of what this entry can touch (integral, within `clip`).
    let deviceRect: Rect
    let opacity: Double
    let cornerRadius: Double
    let clipsContents: Bool
    let backgroundColor: Color?
    let borderColor: Color?
    let borderWidth: Double
    let contents: Bitmap?
    let contentsGravity: ContentMode
    let contentsScale: Double
    let isOpaque: Bool

    /// True when painting `self` and `other` gives the same pixels.
    func drawsSame(as o: RenderEntry) -> Bool {
        transform == o.transform && bounds == o.bounds && clip == o.clip && opacity == o.opacity
            && cornerRadius == o.cornerRadius && clipsContents == o.clipsContents
            && backgroundColor == o.backgroundColor && borderColor == o.borderColor
            && borderWidth == o.borderWidth && contents === o.contents
            && contentsGravity == o.contentsGravity && contentsScale == o.contentsScale && isOpaque == o.isOpaque
    }

    /// The integral device rectangle this entry paints fully opaquely, or nil.
    var opaqueRect: Rect? {
        guard opacity >= 1, transform.b == 0, transform.c == 0, cornerRadius == 0 else { return nil }
        guard isOpaque || (backgroundColor?.alpha ?? 0) >= 1 else { return nil }
        let d = transform.apply(to: bounds).intersection(clip)
        guard !d.isNull else { return nil }
        // Round inwards: only whole pixels that are certainly covered.
        let x0 = d.minX.rounded(.up), y0 = d.minY.rounded(.up), x1 = d.maxX.rounded(.down), y1 = d.maxY.rounded(.down)
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The entry paints every pixel of `rect` opaquely (so nothing below shows there).
    func coversOpaquely(_ rect: Rect) -> Bool {
        guard opacity >= 1, transform.b == 0, transform.c == 0, cornerRadius == 0 else { return false }
        let painted = (isOpaque || (backgroundColor?.alpha ?? 0) >= 1)
        return painted && transform.apply(to: bounds).intersection(clip).contains(rect)
    }
}

/// Flattens a snapshot tree into paint order, evaluating animations at `time`.
struct RenderListBuilder {
    let screen: Rect
    let time: Double
    /// Start time of each animation, by id; filled in the first time an animation is seen.
    var animationStarts: [UInt64: Double]
    private(set) var seenAnimations: Set<UInt64> = []
    private(set) var hasRunningAnimations = false

    init(screen: Rect, time: Double, animationStarts: [UInt64: Double]) {
        self.screen = screen; self.time = time; self.animationStarts = animationStarts
    }

    mutating func build(_ root: LayerSnapshot, rootTransform: AffineTransform) -> [RenderEntry] {
        var out: [RenderEntry] = []
        out.reserveCapacity(256)
        visit(root, parent: rootTransform, clip: screen, opacity: 1, into: &out)
        return out
    }

    private mutating func visit(_ s: LayerSnapshot, parent: AffineTransform, clip: Rect, opacity inherited: Double,
                                into out: inout [RenderEntry]) {
        guard !s.isHidden else { return }
        var position = s.position, opacity = s.opacity
        for a in s.animations {
            let start: Double
            if let t = animationStarts[a.id] { start = t } else { animationStarts[a.id] = time; start = time }
            seenAnimations.insert(a.id)
            let progress = (time - start) / a.duration
            if progress < 1 { hasRunningAnimations = true } else { continue }
            let k = a.timing(progress)
            switch a.property {
            case let .opacity(from, to):
                let target = to ?? s.opacity
                opacity = from + (target - from) * k
            case let .position(from, to):
                let target = to ?? s.position
                position = Point(x: from.x + (target.x - from.x) * k, y: from.y + (target.y - from.y) * k)
            }
        }
        let alpha = inherited * min(1, max(0, opacity.isFinite ? opacity : 0))
        guard alpha > 0 else { return }
        let b = s.bounds
        guard b.origin.x.isFinite, b.origin.y.isFinite, b.size.isValidExtent,
              position.x.isFinite, position.y.isFinite else { return }
        // bounds space → superlayer space: centre the bounds on the anchor, transform, move to position.
        let local = AffineTransform(translationX: -(b.minX + b.width / 2), y: -(b.minY + b.height / 2))
            .concatenating(s.transform)
            .concatenating(AffineTransform(translationX: position.x, y: position.y))
        let m = local.concatenating(parent)
        let deviceBounds = m.apply(to: b)
        // An animated image's frame for this frame time, else the committed contents.
        var contents = s.contents
        if let source = s.contentsSource {
            let sample = source.contents(at: time)
            if let frame = sample.bitmap { contents = frame }
            if sample.isAnimating { hasRunningAnimations = true }
        }
        let draws = s.backgroundColor != nil || contents != nil || (s.borderWidth > 0 && s.borderColor != nil)
        if draws {
            let rect = deviceBounds.integral.intersection(clip)
            if !rect.isEmpty {
                out.append(RenderEntry(
                    id: s.id, transform: m, bounds: b, clip: clip, deviceRect: rect, opacity: alpha,
                    cornerRadius: max(0, s.cornerRadius), clipsContents: s.clipsToBounds || s.cornerRadius > 0,
                    backgroundColor: s.backgroundColor, borderColor: s.borderColor, borderWidth: s.borderWidth,
                    contents: contents, contentsGravity: s.contentsGravity, contentsScale: s.contentsScale,
                    isOpaque: s.isOpaque))
            }
        }
        guard !s.sublayers.isEmpty else { return }
        var childClip = clip
        if s.clipsToBounds {
            childClip = clip.intersection(deviceBounds.integral)
            if childClip.isNull { return }
        }
        for child in s.sublayers {
            visit(child, parent: m, clip: childClip, opacity: alpha, into: &out)
        }
    }
}

/// The damage between two render lists: every entry added, removed or changed (old and new
/// rectangles), plus entries whose paint order relative to the others changed — found as the
/// entries outside a longest increasing subsequence of old positions, which is the smallest set
/// whose repaint covers every pair that swapped.
func damage(from old: [RenderEntry], to new: [RenderEntry], into region: inout DamageRegion) {
    var oldIndex: [Layer.LayerID: Int] = [:]
    oldIndex.reserveCapacity(old.count)
    for (i, e) in old.enumerated() { oldIndex[e.id] = i }
    var kept: [(newIndex: Int, oldIndex: Int)] = []
    var present = Set<Layer.LayerID>()
    present.reserveCapacity(new.count)
    for (j, e) in new.enumerated() {
        present.insert(e.id)
        if let i = oldIndex[e.id] {
            let o = old[i]
            if o.drawsSame(as: e) {
                kept.append((j, i))
            } else {
                region.add(o.deviceRect)
                region.add(e.deviceRect)
            }
        } else {
            region.add(e.deviceRect)
        }
    }
    for e in old where !present.contains(e.id) { region.add(e.deviceRect) }
    // Unchanged entries whose relative order changed.
    let inOrder = longestIncreasingSubsequence(kept.map(\.oldIndex))
    for (k, pair) in kept.enumerated() where !inOrder.contains(k) {
        region.add(new[pair.newIndex].deviceRect)
    }
}

/// Indices (into `values`) of one longest strictly increasing subsequence. O(n log n).
func longestIncreasingSubsequence(_ values: [Int]) -> Set<Int> {
    var tails: [Int] = []          // indices into values
    var previous = [Int](repeating: -1, count: values.count)
    for (i, v) in values.enumerated() {
        var lo = 0, hi = tails.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if values[tails[mid]] < v { lo = mid + 1 } else { hi = mid }
        }
        if lo > 0 { previous[i] = tails[lo - 1] }
        if lo == tails.count { tails.append(i) } else { tails[lo] = i }
    }
    var result = Set<Int>()
    var k = tails.last ?? -1
    while k >= 0 { result.insert(k); k = previous[k] }
    return result
}
