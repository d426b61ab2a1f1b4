import SilkGeometry

/// Lays out its child, then the background behind it at exactly the child's size; the spec
/// is the child's size. The background comes first in `sublayouts` (drawn first).
/// (Texture `ASBackgroundLayoutSpec`.)
public final class BackgroundLayoutSpec: LayoutSpec, DebugNamedElement {
    public let style: Style
    /// The element that decides the size.
    public let child: any LayoutElement
    /// The element stretched to the child's size and placed behind it.
    public let background: any LayoutElement

    /// A spec sized by `child`, with `background` behind it at the same size.
    public init(child: any LayoutElement, background: any LayoutElement, style: Style = Style()) {
        self.child = child; self.background = background; self.style = style
    }

    public var sublayoutElements: [any LayoutElement] { [background, child] }
    public var debugName: String { "Background" }

    public func calculateLayoutThatFits(_ constrainedSize: SizeRange, context: LayoutContext) throws(LayoutError) -> Layout {
        let content = try child.layoutThatFits(constrainedSize, parentSize: constrainedSize.max, context: context)
        let back = try background.layoutThatFits(SizeRange(exactly: content.size), parentSize: content.size,
                                                 context: context)
        return Layout(element: self, size: content.size, sublayouts: [back, content])
    }
}
