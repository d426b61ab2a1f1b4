import Foundation
import SilkGeometry

// Hit testing and coordinate conversion over the node tree, from node frames (never layers),
// on the main thread.
//
// What you see is what you hit: a node takes a point inside its hit area (`pointInside`: the
// bounds grown by `hitTestSlop`) unless an ancestor that `clipsToBounds` cuts the point off.
// Unlike UIKit, a parent that does not clip does not limit its subnodes to its own bounds, so a
// small close button's slop may reach past its card. Hidden, (almost) transparent and
// `isUserInteractionEnabled == false` nodes take no touches, nor do their subtrees. Later
// subnodes are on top and are asked first.
//
// Conversion goes through each node's `convertToSubnodeSpace(_:)` /
// `convertFromSubnodeSpace(_:)`, the hook a scrolling container uses to apply its content offset,
// and through each node's `transform` about its anchor point (`transformToSupernode`), so a
// rotated or scaled node takes touches where it is drawn. Hit testing uses model values: during
// an animation a node takes touches where the animation ends, as in UIKit.

extension DisplayNode {
    /// Whether this node can take touches at all (not hidden, visible, interaction enabled).
    var isHitTestable: Bool {
        !isHidden && isUserInteractionEnabled && opacity >= 0.01
    }

    /// The frontmost node at `point` (this node's coordinates) that takes touches: this node, a
    /// descendant, or nil. Main thread.
    public func hitTest(_ point: Point) -> DisplayNode? {
        guard isHitTestable else { return nil }
        if !clipsToBounds || bounds.contains(point) {
            let inner = convertToSubnodeSpace(point)
            for child in subnodes.reversed() {
                guard let local = child.convertFromSupernodeSpace(inner) else { continue }
                if let hit = child.hitTest(local) { return hit }
            }
        }
        return pointInside(point) ? self : nil
    }

    /// `point` in `node`'s coordinates (nil: the window's) converted into this node's. Main thread
    /// (frames may be moving otherwise).
    public func convert(_ point: Point, from node: DisplayNode?) -> Point {
        convertFromWindow(node?.convertToWindow(point) ?? point)
    }

    /// `point` in this node's coordinates converted into `node`'s (nil: the window's). Main thread.
    public func convert(_ point: Point, to node: DisplayNode?) -> Point {
        let w = convertToWindow(point)
        return node?.convertFromWindow(w) ?? w
    }

    /// `rect` in this node's coordinates as a window rectangle: the bounding box of its corners
    /// (exact when no node on the way is rotated). Main thread.
    public func convertToWindow(_ rect: Rect) -> Rect {
        var n: DisplayNode? = self
        var transformed = false
        while let node = n, !transformed { transformed = !node.transform.isIdentity; n = node.supernode }
        // Untransformed (the common case): the size is exact, not a difference of corners.
        if !transformed { return Rect(origin: convertToWindow(rect.origin), size: rect.size) }
        let corners = [Point(x: rect.minX, y: rect.minY), Point(x: rect.maxX, y: rect.minY),
                       Point(x: rect.minX, y: rect.maxY), Point(x: rect.maxX, y: rect.maxY)].map(convertToWindow)
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    /// `point` in the supernode's subnode space (where `frame` is) converted into this node's
    /// coordinates, through ``transform``; nil when the transform is singular. Main thread.
    public func convertFromSupernodeSpace(_ point: Point) -> Point? {
        let m = transformToSupernode
        if m.isTranslation { return Point(x: point.x - m.tx, y: point.y - m.ty) }
        return m.inverted?.apply(to: point)
    }

    func convertToWindow(_ point: Point) -> Point {
        var p = point
        var node = self
        while true {
            p = node.transformToSupernode.apply(to: p)
            guard let parent = node.supernode else { return p }
            p = parent.convertFromSubnodeSpace(p)
            node = parent
        }
    }

    func convertFromWindow(_ point: Point) -> Point {
        var chain: [DisplayNode] = [self]
        while let parent = chain.last!.supernode { chain.append(parent) }
        var p = point
        for (i, node) in chain.reversed().enumerated() {
            if i > 0 { p = node.supernode!.convertToSubnodeSpace(p) }
            // A singular transform has no inverse: such a node draws nothing; keep the point.
            p = node.convertFromSupernodeSpace(p) ?? p
        }
        return p
    }

    /// Whether this node and all its ancestors can take touches.
    var isHitTestableInTree: Bool {
        var node: DisplayNode? = self
        while let n = node {
            if !n.isHitTestable { return false }
            node = n.supernode
        }
        return true
    }

    /// Whether `ancestor` is this node or one of its ancestors.
    func isDescendant(of ancestor: DisplayNode) -> Bool {
        var node: DisplayNode? = self
        while let n = node {
            if n === ancestor { return true }
            node = n.supernode
        }
        return false
    }
}

/// The window area where each node of a kind takes touches: its hit area clipped by clipping
/// ancestors, skipping untouchable subtrees. For the hit-test debug overlay.
func visibleHitAreas(in root: DisplayNode, where include: (DisplayNode) -> Bool) -> [(node: DisplayNode, rect: Rect)] {
    var out: [(DisplayNode, Rect)] = []
    func walk(_ node: DisplayNode, clip: Rect?) {
        guard node.isHitTestable else { return }
        var clip = clip
        if include(node) {
            var r = node.convertToWindow(node.bounds.inset(by: node.hitTestSlop))
            if let clip { r = r.intersection(clip) }
            if !r.isEmpty { out.append((node, r)) }
        }
        if node.clipsToBounds {
            let b = node.convertToWindow(node.bounds)
            clip = clip.map { $0.intersection(b) } ?? b
        }
        if let c = clip, c.isEmpty { return }
        for child in node.subnodes { walk(child, clip: clip) }
    }
    walk(root, clip: nil)
    return out
}
