import SilkGeometry

/// Lays out its child, then lays the overlay over it at exactly the child's size; the spec
/// is the child's size. (Texture `ASOverlayLayoutSpec`.)
public final class OverlayLayoutSpec: LayoutSpec, DebugNamedElement {
    public let style: Style
    /// The element that decides the size.
    public let child: any LayoutElement
    /// The element stretched to the child's size and placed in front of it.
    public let overlay: any LayoutElement

    /// A spec sized by `child`, with `overlay` in front of it at the same size.
    public init(child: any LayoutElement, overlay: any LayoutElement, style: Style = Style()) {
        self.child = child; self.overlay = overlay; self.style = style
    }

    public var sublayoutElements: [any LayoutElement] { [child, overlay] }
    public var debugName: String { "Overlay" }

    public func calculateLayoutThatFits(_ constrainedSize: SizeRange, context: LayoutContext) throws(LayoutError) -> Layout {
        let content = try child.layoutThatFits(constrainedSize, parentSize: constrainedSize.max, context: context)
        let over = try overlay.layoutThatFits(SizeRange(exactly: content.size), parentSize: content.size, context: context)
        return Layout(element: self, size: content.size, sublayouts: [content, over])
    }
}
