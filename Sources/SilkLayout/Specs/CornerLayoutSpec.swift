import SilkGeometry

/// A corner of a `CornerLayoutSpec`'s child.
public enum CornerLocation: Hashable, Sendable { case topLeft, topRight, bottomLeft, bottomRight }

/// Puts a corner element (a badge) centred on one corner of its child, moved by `offset`.
/// The spec is the child's size, or, with `wrapsCorner`, the union of both frames (the child
/// then moves so nothing sticks out above or left). Right-to-left (``LayoutContext/direction``),
/// the spec mirrors: `topLeft` is the top-right corner (the leading one) and a positive
/// `offset.x` moves towards the left. (Texture `ASCornerLayoutSpec`.)
public final class CornerLayoutSpec: LayoutSpec, DebugNamedElement {
    public let style: Style
    /// The element that decides the size (the avatar the badge sits on).
    public let child: any LayoutElement
    /// The element centred on the child's corner (the badge).
    public let corner: any LayoutElement
    /// Which corner of the child.
    public let location: CornerLocation
    /// Moves the corner element from the corner, in points.
    public let offset: Point
    /// When true the spec grows to include the corner element; when false it is the child's size
    /// and the corner element may stick out.
    public let wrapsCorner: Bool

    /// A spec putting `corner` on the `location` corner of `child`, moved by `offset`.
    public init(child: any LayoutElement, corner: any LayoutElement, location: CornerLocation,
                offset: Point = .zero, wrapsCorner: Bool = false, style: Style = Style()) {
        self.child = child; self.corner = corner; self.location = location
        self.offset = offset; self.wrapsCorner = wrapsCorner; self.style = style
    }

    public var sublayoutElements: [any LayoutElement] { [child, corner] }
    public var debugName: String { "Corner(\(location)\(wrapsCorner ? ", wraps" : ""))" }

    public func calculateLayoutThatFits(_ constrainedSize: SizeRange, context: LayoutContext) throws(LayoutError) -> Layout {
        let maxW = constrainedSize.max.width, maxH = constrainedSize.max.height
        let parent = Size(width: maxW.isFinite ? maxW : .nan, height: maxH.isFinite ? maxH : .nan)
        let childLayout = try child.layoutThatFits(constrainedSize, parentSize: parent, context: context)
        let cornerLayout = try corner.layoutThatFits(SizeRange(max: constrainedSize.max), parentSize: parent,
                                                     context: context)
        let c = cornerLayout.size, s = childLayout.size
        var cornerOrigin: Point
        let rtl = context.direction == .rtl
        var location = location
        if rtl {
            switch location {
            case .topLeft: location = .topRight
            case .topRight: location = .topLeft
            case .bottomLeft: location = .bottomRight
            case .bottomRight: location = .bottomLeft
            }
        }
        switch location {
        case .topLeft: cornerOrigin = Point(x: -c.width / 2, y: -c.height / 2)
        case .topRight: cornerOrigin = Point(x: s.width - c.width / 2, y: -c.height / 2)
        case .bottomLeft: cornerOrigin = Point(x: -c.width / 2, y: s.height - c.height / 2)
        case .bottomRight: cornerOrigin = Point(x: s.width - c.width / 2, y: s.height - c.height / 2)
        }
        cornerOrigin = cornerOrigin + (rtl ? Point(x: -offset.x, y: offset.y) : offset)
        var childOrigin = Point.zero
        var size = s
        if wrapsCorner {
            let union = Rect(origin: .zero, size: s).union(Rect(origin: cornerOrigin, size: c))
            childOrigin = Point(x: -union.minX, y: -union.minY)
            cornerOrigin = cornerOrigin - union.origin
            size = union.size
        }
        return Layout(element: self, size: size, sublayouts: [childLayout.positioned(at: childOrigin),
                                                              cornerLayout.positioned(at: cornerOrigin)])
    }
}
