import SilkGeometry

/// Where a child sits on one axis of a `RelativeLayoutSpec`. `none` keeps the child at the
/// start and lets it take the range's minimum length (it is not free to be smaller).
public enum RelativePosition: Hashable, Sendable { case none, start, center, end }

/// Which axes of a `RelativeLayoutSpec` (or `CenterLayoutSpec`) shrink to the child instead of
/// filling the available length.
public struct RelativeSizingOptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Shrink the width to the child's.
    public static let minimumWidth = RelativeSizingOptions(rawValue: 1)
    /// Shrink the height to the child's.
    public static let minimumHeight = RelativeSizingOptions(rawValue: 2)
    /// Shrink both axes to the child.
    public static let minimumSize: RelativeSizingOptions = [.minimumWidth, .minimumHeight]
}

/// Places its child at the start, center or end of each axis of the space it takes: as much
/// as the range allows (when bounded), or the child's size (when unbounded or with a minimum
/// sizing option). Right-to-left (``LayoutContext/direction``), the horizontal start is the right
/// edge. (Texture `ASRelativeLayoutSpec`.)
public final class RelativeLayoutSpec: LayoutSpec, DebugNamedElement {
    public let style: Style
    /// Where the child sits horizontally.
    public let horizontalPosition: RelativePosition
    /// Where the child sits vertically.
    public let verticalPosition: RelativePosition
    /// The axes on which the spec shrinks to the child instead of filling the range.
    public let sizingOptions: RelativeSizingOptions
    /// The positioned element.
    public let child: any LayoutElement

    /// A spec placing `child` at `horizontalPosition` and `verticalPosition`, shrinking on
    /// `sizingOptions`.
    public init(horizontalPosition: RelativePosition, verticalPosition: RelativePosition,
                sizingOptions: RelativeSizingOptions = [], style: Style = Style(), child: any LayoutElement) {
        self.horizontalPosition = horizontalPosition; self.verticalPosition = verticalPosition
        self.sizingOptions = sizingOptions; self.style = style; self.child = child
    }

    public var sublayoutElements: [any LayoutElement] { [child] }
    public var debugName: String { "Relative(\(horizontalPosition), \(verticalPosition))" }

    public func calculateLayoutThatFits(_ constrainedSize: SizeRange, context: LayoutContext) throws(LayoutError) -> Layout {
        try RelativeLayoutSpec.layout(self, child: child, horizontal: horizontalPosition, vertical: verticalPosition,
                                      sizing: sizingOptions, constrainedSize: constrainedSize, context: context)
    }

    /// Shared with `CenterLayoutSpec`.
    static func layout(_ element: any LayoutElement, child: any LayoutElement, horizontal: RelativePosition,
                       vertical: RelativePosition, sizing: RelativeSizingOptions, constrainedSize: SizeRange,
                       context: LayoutContext) throws(LayoutError) -> Layout {
        // Known lengths let the child resolve fractions; unknown ones are decided by the child.
        let maxW = constrainedSize.max.width, maxH = constrainedSize.max.height
        let parent = Size(width: maxW.isFinite ? maxW : .nan, height: maxH.isFinite ? maxH : .nan)
        let childMin = Size(width: horizontal != .none ? 0 : constrainedSize.min.width,
                            height: vertical != .none ? 0 : constrainedSize.min.height)
        let sub = try child.layoutThatFits(SizeRange(min: childMin, max: constrainedSize.max), parentSize: parent,
                                           context: context)
        var size = constrainedSize.clamp(Size(width: maxW.isFinite ? maxW : sub.size.width,
                                              height: maxH.isFinite ? maxH : sub.size.height))
        size = constrainedSize.clamp(Size(
            width: sizing.contains(.minimumWidth) ? min(size.width, sub.size.width) : size.width,
            height: sizing.contains(.minimumHeight) ? min(size.height, sub.size.height) : size.height))
        func proportion(_ p: RelativePosition) -> Double {
            switch p { case .none, .start: 0; case .center: 0.5; case .end: 1 }
        }
        let h = context.direction == .rtl ? 1 - proportion(horizontal) : proportion(horizontal)
        let origin = Point(x: (size.width - sub.size.width) * h,
                           y: (size.height - sub.size.height) * proportion(vertical))
        return Layout(element: element, size: size, sublayouts: [sub.positioned(at: origin)])
    }
}
