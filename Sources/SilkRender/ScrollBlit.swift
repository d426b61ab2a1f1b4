import SilkGeometry
import SilkRaster

/// Scrolling without repainting: when a set of layers moved by the same whole-pixel delta inside
/// one clip rectangle (a scroll container's viewport), the already-composited pixels are moved
/// inside the back buffer and only what the move cannot produce is repainted — the strip the
/// scroll exposed, and every layer that did not move with the content (a static background
/// image, an overlay above the list, anything that changed), both where it is now and where the
/// move carried its old pixels. (The technique of foot's and browsers' scroll damage.)
///
/// Correctness is checked by the compositor property test against a naive full repaint.
struct ScrollBlit {
    /// Pixels move by (dx, dy).
    let dx: Double, dy: Double
    /// The viewport the content moved within.
    let clip: Rect
    /// Destination pixels that receive moved content: clip ∩ (clip + delta).
    var area: Rect { clip.intersection(clip.offsetBy(dx: dx, dy: dy)) }

    /// Finds the dominant whole-pixel move between two render lists, or nil.
    static func detect(old: [RenderEntry], new: [RenderEntry], oldIndex: [Layer.LayerID: Int]) -> (ScrollBlit, Set<Layer.LayerID>)? {
        // The entries are read in place through buffer pointers, not copied out of the arrays:
        // a copy retains and releases every reference an entry holds, every entry, every frame.
        // Each entry's candidate is worked out once and kept for the second pass.
        old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new -> (ScrollBlit, Set<Layer.LayerID>)? in
                var keys = [Key?](repeating: nil, count: new.count)
                var votes: [Key: Int] = [:]
                votes.reserveCapacity(new.count)
                for j in new.indices {
                    guard let i = oldIndex[new[j].id], let k = Key(old[i], new[j]) else { continue }
                    keys[j] = k
                    votes[k, default: 0] += 1
                }
                guard let (best, _) = votes.max(by: { $0.value < $1.value }) else { return nil }
                let blit = ScrollBlit(dx: best.dx, dy: best.dy, clip: best.clip)
                guard !blit.area.isEmpty else { return nil }
                var movers = Set<Layer.LayerID>()
                var covered = 0.0
                for j in new.indices where keys[j] == best {
                    movers.insert(new[j].id)
                    let v = new[j].deviceRect.intersection(blit.clip)
                    if !v.isEmpty { covered += v.width * v.height }
                }
                // Worth it only when the moving content fills most of the viewport (a scrolled
                // list), not when one small layer moves across a large static area.
                guard covered >= 0.5 * blit.clip.width * blit.clip.height else { return nil }
                return (blit, movers)
            }
        }
    }

    /// A candidate move: same everything but a whole-pixel translation, same clip.
    struct Key: Hashable {
        let dx: Double, dy: Double
        let clip: Rect
        /// The move alone: candidates with the same move and different clips are rare, and
        /// equality still compares the clip (hashing the clip's four numbers too was most of
        /// `detect` when every layer moves its own way, as in many-layers).
        func hash(into hasher: inout Hasher) { hasher.combine(dx); hasher.combine(dy) }
        init?(_ o: RenderEntry, _ n: RenderEntry) {
            let a = o.transform, b = n.transform
            guard a.a == b.a, a.b == b.b, a.c == b.c, a.d == b.d, o.clip == n.clip, !o.clip.isEmpty else { return nil }
            let dx = b.tx - a.tx, dy = b.ty - a.ty
            guard dx != 0 || dy != 0, dx == dx.rounded(), dy == dy.rounded() else { return nil }
            guard o.bounds == n.bounds, o.opacity == n.opacity, o.cornerRadius == n.cornerRadius,
                  o.clipsContents == n.clipsContents, o.backgroundColor == n.backgroundColor,
                  o.borderColor == n.borderColor, o.borderWidth == n.borderWidth, o.contents === n.contents,
                  o.contentsGravity == n.contentsGravity, o.contentsScale == n.contentsScale, o.isOpaque == n.isOpaque,
                  o.shadow == n.shadow, o.isCornerOverlay == n.isCornerOverlay, o.group == nil, n.group == nil
            else { return nil }
            // The entry must lie within the viewport's clip already (it does: clip is its clip).
            self.dx = dx; self.dy = dy; clip = o.clip
        }
    }

    /// Whether the entry paints one solid colour over the whole viewport before and after (a
    /// scroll container's own backdrop: its bounds origin moves, its pixels do not change), so
    /// moving pixels across it changes nothing.
    func isInvariant(_ o: RenderEntry, _ n: RenderEntry) -> Bool {
        func solid(_ e: RenderEntry) -> Bool {
            e.contents == nil && (e.borderWidth == 0 || e.borderColor == nil) && e.cornerRadius == 0
                && e.shadow == nil && e.group == nil && !e.isCornerOverlay
                && e.opacity >= 1 && (e.backgroundColor?.alpha ?? 0) >= 1 && e.transform.b == 0 && e.transform.c == 0
                && e.transform.apply(to: e.bounds).intersection(e.clip).contains(clip)
        }
        return o.backgroundColor == n.backgroundColor && solid(o) && solid(n)
    }
}

/// The damage of a frame that scrolls by `blit`, given that the back buffer's `blit.area` is
/// about to receive its own pixels from `blit.area − delta`.
func scrollDamage(from old: [RenderEntry], to new: [RenderEntry], oldIndex: [Layer.LayerID: Int],
                  blit: ScrollBlit, movers: Set<Layer.LayerID>, into region: inout DamageRegion) {
    let area = blit.area
    // 1. What the move cannot produce: pixels whose source lay outside the viewport.
    for r in subtract(area, from: [blit.clip]) { region.add(r) }
    // 2. Everything that did not move with the content, where it is and where its old pixels went.
    var newIDs = Set<Layer.LayerID>()
    for e in new {
        newIDs.insert(e.id)
        if movers.contains(e.id) { continue }
        if let i = oldIndex[e.id] {
            let o = old[i]
            if blit.isInvariant(o, e) { continue }
            if !o.drawsSame(as: e) { region.add(o.deviceRect); region.add(e.deviceRect) }
            region.add(e.deviceRect.intersection(area))
            region.add(o.deviceRect.offsetBy(dx: blit.dx, dy: blit.dy).intersection(area))
        } else {
            region.add(e.deviceRect)
        }
    }
    for o in old where !newIDs.contains(o.id) {
        region.add(o.deviceRect)
        region.add(o.deviceRect.offsetBy(dx: blit.dx, dy: blit.dy).intersection(area))
    }
    // 3. Paint-order changes among entries that kept their look (movers included).
    var kept: [(newIndex: Int, oldIndex: Int)] = []
    for (j, e) in new.enumerated() {
        guard let i = oldIndex[e.id] else { continue }
        if movers.contains(e.id) || old[i].drawsSame(as: e) { kept.append((j, i)) }
    }
    let inOrder = longestIncreasingSubsequence(kept.map(\.oldIndex))
    for (k, pair) in kept.enumerated() where !inOrder.contains(k) {
        region.add(new[pair.newIndex].deviceRect)
        region.add(old[pair.oldIndex].deviceRect.offsetBy(dx: blit.dx, dy: blit.dy).intersection(area))
    }
}
