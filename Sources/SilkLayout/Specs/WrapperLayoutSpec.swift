import SilkGeometry

/// Lays out each child in the same range at the origin; as large as the largest child (and
/// at least the range's minimum). Wraps elements that should be laid out as they are.
/// (Texture `ASWrapperLayoutSpec`.)
public final class WrapperLayoutSpec: LayoutSpec, DebugNamedElement {
    public let style: Style
    /// The wrapped elements, each laid out at the origin in the same range.
    public let children: [any LayoutElement]

    /// A spec laying out `children` one over the other at the origin.
    public init(style: Style = Style(), children: [any LayoutElement]) {
        self.style = style; self.children = children
    }
    /// A spec wrapping one element.
    public convenience init(_ child: any LayoutElement) { self.init(children: [child]) }

    public var sublayoutElements: [any LayoutElement] { children }
    public var debugName: String { "Wrapper" }

    public func calculateLayoutThatFits(_ constrainedSize: SizeRange, context: LayoutContext) throws(LayoutError) -> Layout {
        var size = constrainedSize.min
        var subs: [Layout] = []
        subs.reserveCapacity(children.count)
        for child in children {
            let sub = try child.layoutThatFits(constrainedSize, parentSize: constrainedSize.max, context: context)
            size.width = max(size.width, sub.size.width)
            size.height = max(size.height, sub.size.height)
            subs.append(sub.positioned(at: .zero))
        }
        return Layout(element: self, size: size, sublayouts: subs)
    }
}
