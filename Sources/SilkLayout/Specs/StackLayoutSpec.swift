import SilkGeometry

/// The direction children are placed in. `horizontal` is CSS `row`, `vertical` is `column`.
public enum StackDirection: Hashable, Sendable {
    case horizontal, vertical, horizontalReverse, verticalReverse
    var flexDirection: FlexDirection {
        switch self {
        case .horizontal: return .row
        case .horizontalReverse: return .rowReverse
        case .vertical: return .column
        case .verticalReverse: return .columnReverse
        }
    }
}

/// Distribution of free space along the stack's direction (CSS `justify-content`).
public enum StackJustifyContent: Hashable, Sendable {
    case start, center, end, spaceBetween, spaceAround, spaceEvenly
}

/// Placement of children across the stack's direction (CSS `align-items`). Baseline alignment
/// uses each child's `style.ascender` (first) or `style.descender` (last) when set.
public enum StackAlignItems: Hashable, Sendable {
    case start, end, center, stretch, baselineFirst, baselineLast
}

/// Distribution of lines across the stack's direction when it wraps (CSS `align-content`).
public enum StackAlignContent: Hashable, Sendable {
    case start, end, center, stretch, spaceBetween, spaceAround, spaceEvenly
}

/// Whether children that do not fit start new lines (CSS `flex-wrap`).
public enum StackWrap: Hashable, Sendable { case noWrap, wrap, wrapReverse }

/// Lays out its children in a line (or lines, when wrapping) with flexbox: grows and shrinks
/// them by `style.flexGrow`/`flexShrink`, justifies and aligns them. The full flexbox model of
/// Yoga, with Texture's defaults (`flexShrink` 0; `alignItems` `.stretch`, as Texture's,
/// Yoga's and CSS's).
/// (Texture `ASStackLayoutSpec`; the algorithm is in `Engine/`.)
public final class StackLayoutSpec: LayoutSpec, DebugNamedElement {
    public let style: Style
    /// The main axis: the direction children are placed in.
    public let direction: StackDirection
    /// Space between adjacent children along `direction` (CSS `column-gap` for a row).
    /// A fraction is of the stack's inner length along `direction`.
    public let spacing: Dimension
    /// How free space along ``direction`` is distributed (CSS `justify-content`).
    public let justifyContent: StackJustifyContent
    /// How children are placed across ``direction`` unless they set `alignSelf` (CSS `align-items`).
    public let alignItems: StackAlignItems
    /// Whether children that do not fit wrap onto further lines (CSS `flex-wrap`).
    public let flexWrap: StackWrap
    /// How wrapped lines are placed across ``direction`` (CSS `align-content`).
    public let alignContent: StackAlignContent
    /// Space between lines when wrapping (CSS `row-gap` for a row).
    public let lineSpacing: Dimension
    /// The children, in order along ``direction``.
    public let children: [any LayoutElement]

    /// A stack of `children`; every parameter defaults as in Texture (horizontal, no spacing,
    /// start, stretch, no wrap).
    public init(direction: StackDirection = .horizontal, spacing: Dimension = 0,
                justifyContent: StackJustifyContent = .start, alignItems: StackAlignItems = .stretch,
                flexWrap: StackWrap = .noWrap, alignContent: StackAlignContent = .start,
                lineSpacing: Dimension = 0, style: Style = Style(), children: [any LayoutElement]) {
        self.direction = direction; self.spacing = spacing; self.justifyContent = justifyContent
        self.alignItems = alignItems; self.flexWrap = flexWrap; self.alignContent = alignContent
        self.lineSpacing = lineSpacing; self.style = style; self.children = children
    }

    /// A vertical stack (Texture `verticalStackLayoutSpec`).
    public static func vertical(spacing: Dimension = 0, justifyContent: StackJustifyContent = .start,
                                alignItems: StackAlignItems = .stretch, style: Style = Style(),
                                children: [any LayoutElement]) -> StackLayoutSpec {
        StackLayoutSpec(direction: .vertical, spacing: spacing, justifyContent: justifyContent,
                        alignItems: alignItems, style: style, children: children)
    }
    /// A horizontal stack (Texture `horizontalStackLayoutSpec`).
    public static func horizontal(spacing: Dimension = 0, justifyContent: StackJustifyContent = .start,
                                  alignItems: StackAlignItems = .stretch, style: Style = Style(),
                                  children: [any LayoutElement]) -> StackLayoutSpec {
        StackLayoutSpec(direction: .horizontal, spacing: spacing, justifyContent: justifyContent,
                        alignItems: alignItems, style: style, children: children)
    }

    public var sublayoutElements: [any LayoutElement] { children }
    /// This stack, so the flexbox engine lays it out in the same pass as its parent stack.
    public var stackLayoutSpec: StackLayoutSpec? { self }

    /// Runs the flexbox engine with this stack as the root.
    public func calculateLayoutThatFits(_ constrainedSize: SizeRange, context: LayoutContext) throws(LayoutError) -> Layout {
        try FlexBox.layoutRoot(self, style: Style(), in: constrainedSize,
                               parentSize: Size(width: .nan, height: .nan), context: context)
    }

    public var debugName: String {
        var parts = ["\(direction)"]
        if spacing != 0 { parts.append("spacing \(spacing)") }
        if justifyContent != .start { parts.append("justify \(justifyContent)") }
        if alignItems != .stretch { parts.append("align \(alignItems)") }
        if flexWrap != .noWrap { parts.append("\(flexWrap)") }
        return "Stack(" + parts.joined(separator: ", ") + ")"
    }
}

extension StackLayoutSpec {
    /// Lays this stack out as the root of a tree the way Yoga's `calculateLayout(ownerWidth,
    /// ownerHeight)` does — a definite style size is exact, else a max size is the fit-content
    /// limit, else a known owner length (not NaN) is exact, else max-content — for code ported
    /// from Yoga and the flexbox corpus. Texture-style layout (`layoutThatFits`) lets a size
    /// range's minimum win instead.
    public func layoutAsYogaRoot(ownerWidth: Double, ownerHeight: Double,
                                 context: LayoutContext = LayoutContext()) throws(LayoutError) -> Layout {
        try FlexBox.layoutAsYogaRoot(self, ownerWidth: ownerWidth, ownerHeight: ownerHeight, context: context)
    }
}
