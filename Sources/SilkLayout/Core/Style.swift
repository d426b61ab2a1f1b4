import SilkGeometry

/// Four `Dimension`s, one per physical edge (margins, padding).
public struct EdgeDimensions: Hashable, Sendable {
    /// The length at each edge; fractions are of the parent's width, as in CSS.
    public var top: Dimension, left: Dimension, bottom: Dimension, right: Dimension
    /// The length at the inline-start edge (left in LTR, right in RTL; CSS `*-inline-start`);
    /// when set it wins over the physical edge it lands on. nil: not set.
    public var start: Dimension? = nil
    /// The length at the inline-end edge (right in LTR, left in RTL); nil: not set.
    public var end: Dimension? = nil
    /// Edges with the given lengths, 0 unless given.
    public init(top: Dimension = 0, left: Dimension = 0, bottom: Dimension = 0, right: Dimension = 0) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    /// Edges given by direction: `start` and `end` follow the element's ``LayoutDirection``.
    public init(top: Dimension = 0, start: Dimension, bottom: Dimension = 0, end: Dimension) {
        self.init(top: top, bottom: bottom)
        self.start = start; self.end = end
    }
    /// The same length `v` on all four edges.
    public init(all v: Dimension) { self.init(top: v, left: v, bottom: v, right: v) }
    /// The insets' edges as fixed points.
    public init(_ insets: EdgeInsets) {
        self.init(top: .points(insets.top), left: .points(insets.left),
                  bottom: .points(insets.bottom), right: .points(insets.right))
    }
    /// 0 on every edge.
    public static let zero = EdgeDimensions()
    var isZero: Bool { self == .zero }
}

/// Position offsets (CSS `left`/`top`/`right`/`bottom`). `nil` means "not set"; `.auto` is set
/// but places nothing (kept distinct because CSS treats a set-but-auto inset as set).
public struct PositionInsets: Hashable, Sendable {
    /// The offset from each edge of the containing block; nil when not set.
    public var top: Dimension?, left: Dimension?, bottom: Dimension?, right: Dimension?
    /// The offset from the inline-start edge (left in LTR, right in RTL); when set it wins over
    /// the physical edge it lands on.
    public var start: Dimension? = nil
    /// The offset from the inline-end edge (right in LTR, left in RTL).
    public var end: Dimension? = nil
    /// Offsets for the given edges; the others are not set.
    public init(top: Dimension? = nil, left: Dimension? = nil, bottom: Dimension? = nil, right: Dimension? = nil) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    /// No edge set: the element stays where the flow puts it.
    public static let none = PositionInsets()
    var isEmpty: Bool { top == nil && left == nil && bottom == nil && right == nil && start == nil && end == nil }
}

/// How a child is placed on its stack's cross axis, overriding the stack's `alignItems`.
public enum AlignSelf: Hashable, Sendable {
    case auto, start, end, center, stretch, baselineFirst, baselineLast
}

/// `relative` (the default) takes part in the stack and may be nudged by `insets`;
/// `absolute` is taken out of the flow and placed by `insets` inside its containing block;
/// `static` is in flow, ignores `insets` and is not a containing block for absolute children.
public enum PositionType: Hashable, Sendable { case relative, absolute, `static` }

/// `none` removes an element from layout (it gets a zero frame). `contents` (inside a stack)
/// makes a stack's children take part in its parent's layout as if they were the parent's
/// own; the element itself gets a zero frame.
public enum Display: Hashable, Sendable { case flex, none, contents }

/// Whether `width`/`height` (and min, max, flex basis) include padding and border
/// (`borderBox`, the default) or not (`contentBox`, they are added).
public enum BoxSizing: Hashable, Sendable { case borderBox, contentBox }

/// Only `scroll` changes sizing (a scrolling stack does not shrink-wrap a child in its
/// scrolling direction), as in Yoga.
public enum Overflow: Hashable, Sendable { case visible, hidden, scroll }

/// The layout properties an element shows to its parent spec: its size constraints and how it
/// flexes, aligns and is positioned. Container properties (direction, justification, spacing…)
/// belong to `StackLayoutSpec` itself. A plain value: copy, change, assign.
/// (Texture `ASLayoutElementStyle`, plus the CSS box model so Yoga users are at home.)
public struct Style: Hashable, Sendable {
    // MARK: Size (border-box: padding and border are inside width/height)
    /// The preferred width (`auto`: from content, stretch or flex).
    public var width: Dimension = .auto
    /// The preferred height (`auto`: from content, stretch or flex).
    public var height: Dimension = .auto
    /// `auto` means no minimum (0), as in Yoga and Texture.
    public var minWidth: Dimension = .auto
    /// The minimum height (`auto`: none).
    public var minHeight: Dimension = .auto
    /// `auto` means no maximum.
    public var maxWidth: Dimension = .auto
    /// The maximum height (`auto`: none).
    public var maxHeight: Dimension = .auto
    /// Width ÷ height; `nil` for none. Applies to the children of stacks (as in CSS/Yoga);
    /// other specs size by `RatioLayoutSpec`.
    public var aspectRatio: Double? = nil

    // MARK: Flex item (Texture defaults: shrink 0, not CSS's 1)
    /// How much of a stack's free space along its direction this child takes, relative to its
    /// siblings' values (0: none).
    public var flexGrow: Double = 0
    /// How much this child gives up when its stack's children overflow, relative to its siblings'
    /// values weighted by basis (0 by default, as in Texture; CSS uses 1).
    public var flexShrink: Double = 0
    /// The child's starting length along the stack's direction before growing or shrinking
    /// (`auto`: its width or height, else its content).
    public var flexBasis: Dimension = .auto
    /// Overrides the stack's ``StackLayoutSpec/alignItems`` for this child (`auto`: do not).
    public var alignSelf: AlignSelf = .auto
    /// Extra space before/after this element along its stack's direction (Texture).
    public var spacingBefore: Double = 0
    /// Extra space in points after this element along its stack's direction.
    public var spacingAfter: Double = 0
    /// Distance from the top to the first baseline, and from the bottom to the last baseline
    /// (negative below, like a font's descender). `nil`: synthesized from the first/last child,
    /// or the bottom edge, as browsers do for boxes without text.
    public var ascender: Double? = nil
    /// Distance in points from the bottom to the last baseline, negative below it (see ``ascender``).
    public var descender: Double? = nil

    // MARK: Box model
    /// Space outside the border, kept free of siblings.
    public var margin: EdgeDimensions = .zero
    /// Space inside the border, between it and the children.
    public var padding: EdgeDimensions = .zero
    /// Border widths (they take space like padding; drawing them is not layout's business).
    public var border: EdgeInsets = .zero
    /// The border width at the inline-start edge (left in LTR, right in RTL); nil: `border.left`
    /// or `border.right` applies.
    public var borderStart: Double? = nil
    /// The border width at the inline-end edge (right in LTR, left in RTL).
    public var borderEnd: Double? = nil
    /// The inline direction of this element's content (`inherit`: its parent's). Decides which
    /// edge is `start` for this element's own logical edges and how it places its children.
    public var direction: LayoutDirection = .inherit

    // MARK: Positioning
    /// Whether the element is in its stack's flow (`relative`, `static`) or placed by ``insets``
    /// (`absolute`).
    public var positionType: PositionType = .relative
    /// Offsets from the containing block's edges (absolute) or from the flow position (relative).
    public var insets: PositionInsets = .none
    /// The origin used by `AbsoluteLayoutSpec` (Texture `layoutPosition`).
    public var layoutPosition: Point = .zero
    /// Whether the element takes part in layout (`none` removes it, `contents` lifts its children).
    public var display: Display = .flex
    /// Whether the content may overflow; `scroll` stops a scrolling stack from shrink-wrapping the
    /// child along its scrolling direction.
    public var overflow: Overflow = .visible
    /// Whether ``width`` and ``height`` include padding and border.
    public var boxSizing: BoxSizing = .borderBox

    /// A style with every property at its default: auto sizes, no flex, no margins, relative.
    public init() {}

    /// `width` and `height` as points (Texture `preferredSize`); reading gives NaN for a
    /// dimension that is not in points.
    public var preferredSize: Size {
        get {
            func pts(_ d: Dimension) -> Double { if case .points(let v) = d { return v } else { return .nan } }
            return Size(width: pts(width), height: pts(height))
        }
        set { width = .points(newValue.width); height = .points(newValue.height) }
    }
    /// Sets min and max to the same size (Texture `minSize`/`maxSize` convenience).
    public var minSize: Size {
        get { Size(width: minWidth.resolve(0) ?? 0, height: minHeight.resolve(0) ?? 0) }
        set { minWidth = .points(newValue.width); minHeight = .points(newValue.height) }
    }
    /// Sets ``maxWidth`` and ``maxHeight`` to points; reading gives ∞ for an unset maximum.
    public var maxSize: Size {
        get { Size(width: maxWidth.resolve(0) ?? .infinity, height: maxHeight.resolve(0) ?? .infinity) }
        set { maxWidth = .points(newValue.width); maxHeight = .points(newValue.height) }
    }

    /// The size range this style allows inside a parent of `parentSize` (NaN or ∞ where the
    /// parent's size is unknown, which makes fractions `auto`); border-box lengths. (Texture
    /// `ASLayoutElementSizeResolveAutoSize`.)
    public func sizeRange(parentSize: Size) -> SizeRange {
        func axis(_ d: Dimension, _ lo: Dimension, _ hi: Dimension, _ parent: Double) -> (Double, Double) {
            var minV = lo.resolve(parent) ?? 0
            var maxV = hi.resolve(parent) ?? .infinity
            if maxV < minV { maxV = minV }
            if let v = d.resolve(parent) {
                let c = Swift.min(maxV, Swift.max(minV, v))
                minV = c; maxV = c
            }
            return (minV, maxV)
        }
        var w = axis(width, minWidth, maxWidth, parentSize.width)
        var h = axis(height, minHeight, maxHeight, parentSize.height)
        if boxSizing == .contentBox {
            func pb(_ p: Dimension, _ b: Double) -> Double { max(0, p.resolve(parentSize.width) ?? 0) + max(0, b) }
            let dx = pb(padding.left, border.left) + pb(padding.right, border.right)
            let dy = pb(padding.top, border.top) + pb(padding.bottom, border.bottom)
            if w.0 > 0 || !width.isAuto || !minWidth.isAuto { w.0 += dx }
            if w.1.isFinite { w.1 += dx }
            if h.0 > 0 || !height.isAuto || !minHeight.isAuto { h.0 += dy }
            if h.1.isFinite { h.1 += dy }
        }
        return SizeRange(min: Size(width: w.0, height: h.0), max: Size(width: w.1, height: h.1))
    }
}
