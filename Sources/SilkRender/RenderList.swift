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
    /// Drawn below the background; `deviceRect` includes its blur.
    var shadow: Shadow? = nil
    /// A group: these entries are composited offscreen and blended as one, at `opacity`, masked
    /// by the rounded `bounds` when `cornerRadius` > 0 (group opacity, rounded subtree clipping).
    var group: [RenderEntry]? = nil
    /// Paints the corners outside the rounded `bounds` in `backgroundColor` (precomposited corners).
    var isCornerOverlay = false

    /// True when painting `self` and `other` gives the same pixels.
    func drawsSame(as o: RenderEntry) -> Bool {
        guard transform == o.transform && bounds == o.bounds && clip == o.clip && opacity == o.opacity
            && cornerRadius == o.cornerRadius && clipsContents == o.clipsContents
            && backgroundColor == o.backgroundColor && borderColor == o.borderColor
            && borderWidth == o.borderWidth && contents === o.contents
            && contentsGravity == o.contentsGravity && contentsScale == o.contentsScale && isOpaque == o.isOpaque
            && shadow == o.shadow && isCornerOverlay == o.isCornerOverlay && deviceRect == o.deviceRect else { return false }
        switch (group, o.group) {
        case (nil, nil): return true
        case let (a?, b?):
            return a.count == b.count && zip(a, b).allSatisfy { $0.id == $1.id && $0.drawsSame(as: $1) }
        default: return false
        }
    }

    /// The integral device rectangle this entry paints fully opaquely, or nil.
    var opaqueRect: Rect? {
        guard group == nil, !isCornerOverlay, opacity >= 1, transform.b == 0, transform.c == 0, cornerRadius == 0 else { return nil }
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
        guard group == nil, !isCornerOverlay, opacity >= 1, transform.b == 0, transform.c == 0, cornerRadius == 0 else { return false }
        let painted = (isOpaque || (backgroundColor?.alpha ?? 0) >= 1)
        return painted && transform.apply(to: bounds).intersection(clip).contains(rect)
    }
}

/// Flattens a snapshot tree into paint order, evaluating animations at `time`.
struct RenderListBuilder {
    let screen: Rect
    let time: Double
    /// Animation state carried from frame to frame (moved in and out by the compositor, so the
    /// dictionaries are never copied).
    var clock: AnimationClock

    init(screen: Rect, time: Double, clock: AnimationClock) {
        self.screen = screen; self.time = time; self.clock = clock
        self.clock.beginFrame()
    }

    mutating func build(_ root: LayerSnapshot, rootTransform: AffineTransform) -> [RenderEntry] {
        var out: [RenderEntry] = []
        out.reserveCapacity(256)
        visit(root, parent: rootTransform, clip: screen, opacity: 1, into: &out)
        clock.endFrame(at: time)
        return out
    }

    private mutating func visit(_ s: LayerSnapshot, parent: AffineTransform, clip: Rect, opacity inherited: Double,
                                into out: inout [RenderEntry], asGroup: Bool = false) {
        guard !s.isHidden else { return }
        let v = clock.evaluate(s, at: time)
        let position = v.position
        var alpha = inherited * min(1, max(0, v.opacity.isFinite ? v.opacity : 0))
        guard alpha > 0 else { return }
        // Group opacity: the layer and its subtree are flattened at full opacity into one group
        // entry, blended at `alpha` (LayerEffects.swift draws it).
        if asGroup {
            alpha = 1
        } else if s.rendersAsGroup, alpha < 1, !s.sublayers.isEmpty {
            var inner: [RenderEntry] = []
            visit(s, parent: parent, clip: clip, opacity: 1, into: &inner, asGroup: true)
            appendGroup(inner, id: s.id, tag: 1, transform: .identity, bounds: screen, clip: clip, opacity: alpha,
                        cornerRadius: 0, into: &out)
            return
        }
        let b = v.bounds
        guard b.origin.x.isFinite, b.origin.y.isFinite, b.size.isValidExtent,
              position.x.isFinite, position.y.isFinite else { return }
        // bounds space → superlayer space: centre the bounds on the anchor, transform, move to position.
        let anchor = s.anchorPoint
        let local = AffineTransform(translationX: -(b.minX + b.width * anchor.x), y: -(b.minY + b.height * anchor.y))
            .concatenating(v.transform)
            .concatenating(AffineTransform(translationX: position.x, y: position.y))
        let m = local.concatenating(parent)
        let deviceBounds = m.apply(to: b)
        let radius = max(0, v.cornerRadius.isFinite ? v.cornerRadius : 0)
        let roundsSublayers = s.clipsToBounds && radius > 0 && m.b == 0 && m.c == 0 && !s.sublayers.isEmpty
        // A layer that rounds its sublayers draws its border above them (as Core Animation
        // does), or they would cover it inside the rounded clip.
        let borderOnTop = roundsSublayers && v.borderWidth > 0 && v.borderColor != nil
        // An animated image's frame for this frame time, else the committed contents.
        var contents = s.contents
        if let source = s.contentsSource {
            let sample = source.contents(at: time)
            if let frame = sample.bitmap { contents = frame }
            if sample.isAnimating { clock.noteRunningContents(ends: sample.ends) }
        }
        let draws = v.backgroundColor != nil || contents != nil || (!borderOnTop && v.borderWidth > 0 && v.borderColor != nil)
        let shadow = s.shadow.flatMap { $0.color.alpha > 0 ? $0 : nil }
        if draws || shadow != nil {
            var reach = deviceBounds
            if let shadow {
                let (shape, _) = shadow.shape(for: b, cornerRadius: v.cornerRadius)
                reach = reach.union(m.apply(to: shape.insetBy(dx: -shadow.blurExtent - 1, dy: -shadow.blurExtent - 1)))
            }
            let rect = reach.integral.intersection(clip)
            if !rect.isEmpty {
                out.append(RenderEntry(
                    id: s.id, transform: m, bounds: b, clip: clip, deviceRect: rect, opacity: alpha,
                    cornerRadius: max(0, v.cornerRadius), clipsContents: s.clipsToBounds || v.cornerRadius > 0,
                    backgroundColor: v.backgroundColor, borderColor: borderOnTop ? nil : v.borderColor,
                    borderWidth: borderOnTop ? 0 : v.borderWidth,
                    contents: contents, contentsGravity: s.contentsGravity, contentsScale: s.contentsScale,
                    isOpaque: s.isOpaque, shadow: shadow))
            }
        }
        guard !s.sublayers.isEmpty else { return }
        var childClip = clip
        if s.clipsToBounds {
            childClip = clip.intersection(deviceBounds.integral)
            if childClip.isNull { return }
        }
        guard roundsSublayers else {
            // Unrounded (or rotated: the device bounding box is the clip, a documented limit).
            for child in s.sublayers { visit(child, parent: m, clip: childClip, opacity: alpha, into: &out) }
            return
        }
        switch s.cornerClipping {
        case .clip:
            // Rounded subtree clipping: the sublayers become one group masked by the rounded bounds.
            var inner: [RenderEntry] = []
            for child in s.sublayers { visit(child, parent: m, clip: childClip, opacity: alpha, into: &inner) }
            appendGroup(inner, id: s.id, tag: 2, transform: m, bounds: b, clip: childClip, opacity: 1,
                        cornerRadius: radius, into: &out)
        case let .precomposited(color):
            for child in s.sublayers { visit(child, parent: m, clip: childClip, opacity: alpha, into: &out) }
            let rect = deviceBounds.integral.intersection(clip)
            guard !rect.isEmpty else { return }
            out.append(RenderEntry(
                id: Self.derivedID(s.id, tag: 3), transform: m, bounds: b, clip: clip, deviceRect: rect, opacity: 1,
                cornerRadius: radius, clipsContents: false, backgroundColor: color, borderColor: nil, borderWidth: 0,
                contents: nil, contentsGravity: .scaleToFill, contentsScale: 1, isOpaque: false, isCornerOverlay: true))
        }
        if borderOnTop {
            let rect = deviceBounds.integral.intersection(clip)
            guard !rect.isEmpty else { return }
            out.append(RenderEntry(
                id: Self.derivedID(s.id, tag: 4), transform: m, bounds: b, clip: clip, deviceRect: rect, opacity: alpha,
                cornerRadius: radius, clipsContents: false, backgroundColor: nil, borderColor: v.borderColor,
                borderWidth: v.borderWidth, contents: nil, contentsGravity: .scaleToFill, contentsScale: 1, isOpaque: false))
        }
    }

    /// An id for an entry a layer adds beside its own (a group, a corner overlay): layer ids
    /// count up from 1, so the top bits are free.
    static func derivedID(_ id: Layer.LayerID, tag: UInt64) -> Layer.LayerID {
        Layer.LayerID(raw: id.raw | (tag << 60))
    }

    private func appendGroup(_ inner: [RenderEntry], id: Layer.LayerID, tag: UInt64, transform: AffineTransform, bounds: Rect,
                             clip: Rect, opacity: Double, cornerRadius: Double, into out: inout [RenderEntry]) {
        guard !inner.isEmpty else { return }
        let reach = inner.reduce(Rect.null) { $0.union($1.deviceRect) }.intersection(clip)
        guard !reach.isNull, !reach.isEmpty else { return }
        out.append(RenderEntry(
            id: Self.derivedID(id, tag: tag), transform: transform, bounds: bounds, clip: clip, deviceRect: reach,
            opacity: opacity, cornerRadius: cornerRadius, clipsContents: cornerRadius > 0, backgroundColor: nil,
            borderColor: nil, borderWidth: 0, contents: nil, contentsGravity: .scaleToFill, contentsScale: 1,
            isOpaque: false, group: inner))
    }
}

/// The damage between two render lists: every entry added, removed or changed (old and new
/// rectangles), plus entries whose paint order relative to the others changed — found as the
/// entries outside a longest increasing subsequence of old positions, which is the smallest set
/// whose repaint covers every pair that swapped.
func damage(from old: [RenderEntry], to new: [RenderEntry], oldIndex: [Layer.LayerID: Int], into region: inout DamageRegion) {
    var kept: [(newIndex: Int, oldIndex: Int)] = []
    kept.reserveCapacity(new.count)
    // Old entries a new one matched (an ID is in a list once: a layer has one place in the tree).
    var matched = [Bool](repeating: false, count: old.count)
    // Read in place through buffer pointers: copying an entry out of its array retains and
    // releases every reference it holds.
    old.withUnsafeBufferPointer { old in
        new.withUnsafeBufferPointer { new in
            for j in new.indices {
                if let i = oldIndex[new[j].id] {
                    matched[i] = true
                    if old[i].drawsSame(as: new[j]) {
                        kept.append((j, i))
                    } else {
                        region.add(old[i].deviceRect)
                        region.add(new[j].deviceRect)
                    }
                } else {
                    region.add(new[j].deviceRect)
                }
            }
            for i in old.indices where !matched[i] { region.add(old[i].deviceRect) }
            // Unchanged entries whose relative order changed.
            let inOrder = longestIncreasingSubsequence(kept.map(\.oldIndex))
            for (k, pair) in kept.enumerated() where !inOrder.contains(k) {
                region.add(new[pair.newIndex].deviceRect)
            }
        }
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
