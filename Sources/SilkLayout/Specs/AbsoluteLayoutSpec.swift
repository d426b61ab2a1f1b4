import SilkGeometry

/// How an `AbsoluteLayoutSpec` sizes itself.
public enum AbsoluteSizing: Hashable, Sendable {
    /// As large as the range's maximum (or, where that is unbounded, its children's extent).
    case `default`
    /// Just large enough for every child's frame (and at least the range's minimum).
    case sizeToFit
}

/// Places each child at its `style.layoutPosition`, sized by its own style within what is left
/// of the range from that position. Right-to-left (``LayoutContext/direction``), `layoutPosition.x`
/// is measured from the right edge to the child's right edge. (Texture `ASAbsoluteLayoutSpec`.)
public final class AbsoluteLayoutSpec: LayoutSpec, DebugNamedElement {
    public let style: Style
    /// How the spec sizes itself.
    public let sizing: AbsoluteSizing
    /// The children, each placed at its `style.layoutPosition`, back to front.
    public let children: [any LayoutElement]

    /// A spec placing `children` at their layout positions, sized by `sizing`.
    public init(sizing: AbsoluteSizing = .default, style: Style = Style(), children: [any LayoutElement]) {
        self.sizing = sizing; self.style = style; self.children = children
    }

    public var sublayoutElements: [any LayoutElement] { children }
    public var debugName: String { sizing == .sizeToFit ? "Absolute(sizeToFit)" : "Absolute" }

    public func calculateLayoutThatFits(_ constrainedSize: SizeRange, context: LayoutContext) throws(LayoutError) -> Layout {
        let maxW = constrainedSize.max.width, maxH = constrainedSize.max.height
        var size = Size(width: maxW.isFinite ? maxW : .nan, height: maxH.isFinite ? maxH : .nan)
        var subs: [Layout] = []
        subs.reserveCapacity(children.count)
        for child in children {
            let p = child.style.layoutPosition
            let room = SizeRange(max: Size(width: maxW - p.x, height: maxH - p.y))
            let sub = try child.layoutThatFits(room, parentSize: size, context: context)
            subs.append(sub.positioned(at: p))
        }
        if sizing == .sizeToFit || size.width.isNaN {
            size.width = constrainedSize.min.width
            for s in subs { size.width = max(size.width, s.position.x + s.size.width) }
        }
        if sizing == .sizeToFit || size.height.isNaN {
            size.height = constrainedSize.min.height
            for s in subs { size.height = max(size.height, s.position.y + s.size.height) }
        }
        let final = constrainedSize.clamp(size)
        if context.direction == .rtl {
            // Mirrored once the width is known: x is the distance from the right edge.
            subs = subs.map { $0.positioned(at: Point(x: final.width - $0.position.x - $0.size.width, y: $0.position.y)) }
        }
        return Layout(element: self, size: final, sublayouts: subs)
    }
}
