import SilkGeometry

/// Sizes its child to a fixed height ÷ width `ratio`, using as much of the range's maximum as
/// the ratio allows. With no maximum on either axis the child is laid out as it is.
/// (Texture `ASRatioLayoutSpec`; lengths are not floored to device pixels here — round the
/// final layout with `Layout.roundedToPixelGrid(scale:)`.)
public final class RatioLayoutSpec: LayoutSpec, DebugNamedElement {
    public let style: Style
    /// Height ÷ width (2 is twice as tall as wide). Non-positive values are treated as 1.
    public let ratio: Double
    /// The element given the ratio's size.
    public let child: any LayoutElement

    /// A spec giving `child` the size that keeps height ÷ width at `ratio` within the range.
    public init(ratio: Double, style: Style = Style(), child: any LayoutElement) {
        self.ratio = ratio > 0 && ratio.isFinite ? ratio : 1; self.style = style; self.child = child
    }

    public var sublayoutElements: [any LayoutElement] { [child] }
    public var debugName: String { "Ratio(\(formatPoints(ratio)))" }

    public func calculateLayoutThatFits(_ constrainedSize: SizeRange, context: LayoutContext) throws(LayoutError) -> Layout {
        var options: [Size] = []
        if constrainedSize.max.width.isFinite {
            options.append(constrainedSize.clamp(Size(width: constrainedSize.max.width,
                                                      height: ratio * constrainedSize.max.width)))
        }
        if constrainedSize.max.height.isFinite {
            options.append(constrainedSize.clamp(Size(width: constrainedSize.max.height / ratio,
                                                      height: constrainedSize.max.height)))
        }
        // The option closest to the ratio after clamping (the width-based one on a tie).
        var best: Size?
        var bestError = Double.infinity
        for s in options {
            let error = s.width > 0 ? abs(s.height / s.width - ratio) : .infinity
            if best == nil || error < bestError { best = s; bestError = error }
        }
        let childRange = best.map { constrainedSize.intersection(SizeRange(exactly: $0)) } ?? constrainedSize
        let sub = try child.layoutThatFits(childRange, parentSize: best ?? Size(width: .nan, height: .nan),
                                           context: context)
        return Layout(element: self, size: sub.size, sublayouts: [sub.positioned(at: .zero)])
    }
}
