import SilkGeometry

/// Surrounds its child with fixed space on each side. An infinite inset means "as much as
/// there is": the child keeps its intrinsic size on that axis and is pushed to the opposite
/// side (or centered, when both sides are infinite). Right-to-left (``LayoutContext/direction``),
/// `left` is the leading (right) inset and `right` the trailing one, as Texture's and UIKit's
/// directional insets mirror. (Texture `ASInsetLayoutSpec`.)
public final class InsetLayoutSpec: LayoutSpec, DebugNamedElement {
    public let style: Style
    /// The space around the child, in points (∞ on an edge pins the child to the opposite edge, as
    /// in Texture).
    public let insets: EdgeInsets
    /// The inset element.
    public let child: any LayoutElement

    /// A spec placing `child` inside `insets`; it is the child's size plus the insets.
    public init(insets: EdgeInsets, style: Style = Style(), child: any LayoutElement) {
        self.insets = insets; self.style = style; self.child = child
    }

    public var sublayoutElements: [any LayoutElement] { [child] }
    public var debugName: String { "Inset\(insets)" }

    public func calculateLayoutThatFits(_ constrainedSize: SizeRange, context: LayoutContext) throws(LayoutError) -> Layout {
        let insets = context.direction == .rtl ? self.insets.mirrored : self.insets
        func finiteOrZero(_ v: Double) -> Double { v.isFinite ? v : 0 }
        let insetsX = finiteOrZero(insets.left) + finiteOrZero(insets.right)
        let insetsY = finiteOrZero(insets.top) + finiteOrZero(insets.bottom)
        // With an infinite inset on an axis, the child takes its intrinsic length there.
        let minWidth = insets.left.isInfinite || insets.right.isInfinite ? 0 : constrainedSize.min.width
        let minHeight = insets.top.isInfinite || insets.bottom.isInfinite ? 0 : constrainedSize.min.height
        let childRange = SizeRange(min: Size(width: max(0, minWidth - insetsX), height: max(0, minHeight - insetsY)),
                                   max: Size(width: max(0, constrainedSize.max.width - insetsX),
                                             height: max(0, constrainedSize.max.height - insetsY)))
        let sub = try child.layoutThatFits(childRange, parentSize: childRange.max, context: context)
        let wanted = Size(
            width: insets.left.isFinite && insets.right.isFinite ? sub.size.width + insetsX : constrainedSize.max.width,
            height: insets.top.isFinite && insets.bottom.isFinite ? sub.size.height + insetsY : constrainedSize.max.height)
        var size = constrainedSize.clamp(wanted)
        // An unbounded range with an infinite inset: there is no "as much as there is".
        if !size.width.isFinite { size.width = sub.size.width + insetsX }
        if !size.height.isFinite { size.height = sub.size.height + insetsY }
        func place(_ start: Double, _ end: Double, _ outer: Double, _ inner: Double) -> Double {
            if start.isFinite { return start }
            if end.isFinite { return outer - end - inner }
            return (outer - inner) / 2
        }
        let x = place(insets.left, insets.right, size.width, sub.size.width)
        let y = place(insets.top, insets.bottom, size.height, sub.size.height)
        return Layout(element: self, size: size, sublayouts: [sub.positioned(at: Point(x: x, y: y))])
    }
}
