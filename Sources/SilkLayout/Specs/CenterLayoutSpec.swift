import SilkGeometry

/// Which axes `CenterLayoutSpec` centers its child on.
public struct CenteringOptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Center horizontally.
    public static let x = CenteringOptions(rawValue: 1)
    /// Center vertically.
    public static let y = CenteringOptions(rawValue: 2)
    /// Center on both axes.
    public static let xy: CenteringOptions = [.x, .y]
}

/// Centers its child within the space it takes (see `RelativeLayoutSpec` for sizing); an axis
/// it does not center on keeps the child at the start. (Texture `ASCenterLayoutSpec`.)
public final class CenterLayoutSpec: LayoutSpec, DebugNamedElement {
    public let style: Style
    /// The axes the child is centered on.
    public let centeringOptions: CenteringOptions
    /// The axes on which the spec shrinks to the child instead of filling the range.
    public let sizingOptions: RelativeSizingOptions
    /// The centered element.
    public let child: any LayoutElement

    /// A spec centering `child` on `centeringOptions`, shrinking on `sizingOptions`.
    public init(centeringOptions: CenteringOptions = .xy, sizingOptions: RelativeSizingOptions = [],
                style: Style = Style(), child: any LayoutElement) {
        self.centeringOptions = centeringOptions; self.sizingOptions = sizingOptions
        self.style = style; self.child = child
    }

    public var sublayoutElements: [any LayoutElement] { [child] }
    public var debugName: String {
        let c = centeringOptions == .xy ? "xy" : centeringOptions == .x ? "x" : centeringOptions == .y ? "y" : "none"
        return "Center(\(c))"
    }

    public func calculateLayoutThatFits(_ constrainedSize: SizeRange, context: LayoutContext) throws(LayoutError) -> Layout {
        try RelativeLayoutSpec.layout(self, child: child,
                                      horizontal: centeringOptions.contains(.x) ? .center : .none,
                                      vertical: centeringOptions.contains(.y) ? .center : .none,
                                      sizing: sizingOptions, constrainedSize: constrainedSize, context: context)
    }
}
