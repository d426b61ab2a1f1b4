import SilkGeometry

// The flexbox engine's working tree. A pass wraps each element of a stack subtree in a
// `FlexBox` (a plain class, owned by one thread for one pass), runs the algorithm on the boxes
// (no existentials, no locks, Yoga-style per-box measurement caches), then turns them into an
// immutable `Layout`. Numbers use NaN for "undefined", as Yoga does, to keep the hot path free
// of optionals.

/// A flex axis with its direction. Right-to-left boxes resolve `row` to `rowReverse` (and back)
/// and give columns a reversed (right-to-left) cross axis.
enum FlexDirection: UInt8 {
    case row, rowReverse, column, columnReverse
    @inline(__always) var isRow: Bool { self == .row || self == .rowReverse }
    @inline(__always) var isReverse: Bool { self == .rowReverse || self == .columnReverse }
    @inline(__always) var cross: FlexDirection { isRow ? .column : .row }
    /// The physical edge where this axis starts (CSS main-start / cross-start).
    @inline(__always) var startEdge: Edge {
        switch self { case .row: .left; case .rowReverse: .right; case .column: .top; case .columnReverse: .bottom }
    }
    @inline(__always) var endEdge: Edge {
        switch self { case .row: .right; case .rowReverse: .left; case .column: .bottom; case .columnReverse: .top }
    }
}

enum Edge: UInt8 { case left, top, right, bottom }

/// How an available length constrains a box (Yoga `SizingMode`, CSS sizing keywords).
enum SizingMode: UInt8 {
    /// Exactly this length (CSS stretch-fit / definite size).
    case exactly
    /// At most this length (CSS fit-content).
    case atMost
    /// No limit: the length is NaN (CSS max-content).
    case undefined
}

@inline(__always) func sameLength(_ a: Double, _ b: Double) -> Bool {
    if a.isNaN { return b.isNaN }
    return abs(a - b) < 0.0001
}
/// `max` that ignores an undefined (NaN) operand (Yoga `maxOrDefined`).
@inline(__always) func maxDefined(_ a: Double, _ b: Double) -> Double {
    if a.isNaN { return b }
    if b.isNaN { return a }
    return a > b ? a : b
}
@inline(__always) func minDefined(_ a: Double, _ b: Double) -> Double {
    if a.isNaN { return b }
    if b.isNaN { return a }
    return a < b ? a : b
}

final class FlexBox {
    let element: any LayoutElement
    let style: Style
    /// Non-nil for stacks, whose children take part in this pass; nil for every other element,
    /// which the engine measures through `calculateLayoutThatFits` (like Yoga's measure function).
    let stack: StackLayoutSpec?
    @exclusivity(unchecked) var children: [FlexBox] = []
    /// Every child is in flow (none absolute, none `display: none`): a single line then holds
    /// `children` itself, with no array of its own (set once the children are built).
    var allChildrenInFlow = true
    let isRoot: Bool
    /// Nesting depth in the pass (for `LayoutContext` across node boundaries).
    let depth: Int

    // Container properties (meaningful for stacks only).
    /// The main axis, with right-to-left resolved (a row in RTL runs as `rowReverse`).
    let direction: FlexDirection
    /// The cross axis: `row`, or `rowReverse` for a column in RTL, or `column`.
    let crossDirection: FlexDirection
    /// The resolved inline direction is right-to-left.
    let rtl: Bool
    /// Yoga's behaviour where it differs from the browser's (`LayoutContext.yogaCompatible`).
    let yogaCompatible: Bool
    let isWrap: Bool

    /// Width and height after Yoga's "min == max" rule (a box whose min and max agree is fixed).
    let widthDimension: Dimension
    let heightDimension: Dimension
    /// Texture's `spacingBefore/After`, added to the margins along the parent's direction.
    var spacingMargins = (left: 0.0, top: 0.0, right: 0.0, bottom: 0.0)
    let hasSpacingMargins: Bool
    // What most boxes have (a feed's every box): no margins, no padding or border, no min or
    // max size. The accessors below answer such a box without reading the style's edges, which
    // they are asked for hundreds of thousands of times a pass (boundAxis, marginForAxis and
    // resolvedMin were 8 % of a cold feed layout). The answers are the same numbers the full
    // paths compute, sign of zero included.
    /// Every margin is `auto` or exactly +0 points, and there are no spacing margins:
    /// `margin(_:_:)` is +0 on every edge.
    let hasNoMargins: Bool
    /// Every padding edge is `auto` or a number of points that is not positive, and every
    /// border width is not positive: padding and border are +0 on every edge.
    let hasNoPaddingOrBorder: Bool
    /// Min and max width and height are `auto` (NaN once resolved).
    let hasNoMinMax: Bool
    /// No physical inset is set: `relativeOffset` is +0 on both axes.
    let hasNoInsets: Bool

    // Results of the latest computation.
    var measuredWidth = Double.nan, measuredHeight = Double.nan
    /// Size from the latest pass that performed layout (what the output uses).
    var layoutWidth = 0.0, layoutHeight = 0.0
    /// Position in the parent. While the parent lays out, measured from the parent's flex-start
    /// edge on each axis; physical (from the left/top edge) once the parent's layout is done.
    var x = 0.0, y = 0.0
    var computedFlexBasis = Double.nan
    /// The owner width of the latest performed layout (resolves this box's padding later).
    var layoutOwnerWidth = Double.nan
    /// `boxSizing: contentBox`: sizes get padding and border added, the padding's fractions
    /// taken of `contentBoxOwnerWidth`, which the parent sets before sizing this box.
    let isContentBox: Bool
    var contentBoxOwnerWidth = Double.nan
    /// When some children have `display: contents`, the output tree (the flex children are
    /// then the contents elements' children, flattened into this box).
    @exclusivity(unchecked) var outputChildren: [OutputChild]?
    var lineIndex = 0
    /// The non-stack element's layout from the latest performed layout (its sublayouts).
    @exclusivity(unchecked) var contentLayout: Layout?
    /// The non-stack element's text baselines from its latest measurement, in its content box.
    var contentBaselines: LayoutBaselines?

    // Caches, stored inline to spare allocations (Yoga keeps 16 measurements and one layout;
    // these trees live for one pass). Like the child lists above they skip dynamic exclusivity
    // checks: a box belongs to one pass on one thread, and each access is a plain read, write or
    // call of a mutating method of a plain struct that never reaches back into the box.
    @exclusivity(unchecked) var measurements = MeasurementCache()
    @exclusivity(unchecked) var cachedLayout: FlexCacheEntry?
    /// The non-stack element's recent layouts by content size range.
    @exclusivity(unchecked) var elementLayouts = ElementLayoutMemo()
    /// A root's finished layouts by range and parent size (a stack below a non-stack spec is
    /// often asked for the same layout again in one pass).
    @exclusivity(unchecked) var rootResults = RootResultMemo()
    /// Browser mode: the min-content and max-content widths of the children (NaN until
    /// needed; IntrinsicSizes.swift). Styles do not change within a pass.
    var intrinsicContentWidths = (min: Double.nan, max: Double.nan)
    /// Browser mode: the parent (a column of indefinite height) left this item's flexed height
    /// indefinite, so re-layouts for stretching keep it open (FlexLines.swift, STEP 5).
    var heightIndefinite = false
    /// Browser mode: this item's state in CSS's freezing loop while its parent flexes its line
    /// (FlexLines.swift, `cssTargetMainSizes`): its target main size, its size before the
    /// min/max clamp, and whether it is frozen. Kept on the item rather than in arrays made per
    /// line, which cost 5 % of a cold feed layout in allocations (docs/benchmark.md, "Layout").
    @exclusivity(unchecked) var flexTarget = 0.0
    @exclusivity(unchecked) var flexUnclamped = 0.0
    @exclusivity(unchecked) var flexFrozen = false

    init(element: any LayoutElement, style: Style, stack: StackLayoutSpec?, isRoot: Bool, depth: Int,
         parentDirection: FlexDirection?, layoutDirection: LayoutDirection, yogaCompatible: Bool) {
        let rtl = layoutDirection == .rtl
        self.rtl = rtl
        self.yogaCompatible = yogaCompatible
        self.element = element
        // Only a style with logical edges is rewritten: copying every style through
        // `physical(for:)` cost 8 % of a cold feed layout (docs/benchmark.md, "Layout").
        if style.hasLogicalEdges { self.style = style.physical(for: layoutDirection) } else { self.style = style }
        self.stack = stack
        self.isRoot = isRoot
        self.depth = depth
        let main = stack?.direction.flexDirection ?? .column
        switch (main, rtl) {
        case (.row, true): direction = .rowReverse; crossDirection = .column
        case (.rowReverse, true): direction = .row; crossDirection = .column
        case (_, true): direction = main; crossDirection = .rowReverse
        case (_, false): direction = main; crossDirection = main.cross
        }
        isWrap = (stack?.flexWrap ?? .noWrap) != .noWrap
        func processed(_ d: Dimension, _ lo: Dimension, _ hi: Dimension) -> Dimension {
            if !hi.isAuto, hi == lo { return hi }
            return d
        }
        isContentBox = style.boxSizing == .contentBox
        widthDimension = processed(style.width, style.minWidth, style.maxWidth)
        heightDimension = processed(style.height, style.minHeight, style.maxHeight)
        let st = self.style
        func zeroMargin(_ d: Dimension) -> Bool {
            switch d {
            case .auto: return true
            case .points(let v): return v.bitPattern == 0
            case .fraction: return false
            }
        }
        func zeroPadding(_ d: Dimension) -> Bool {
            switch d {
            case .auto: return true
            case .points(let v): return !(v > 0)
            case .fraction: return false
            }
        }
        let spacing = parentDirection != nil && (style.spacingBefore != 0 || style.spacingAfter != 0)
        hasNoMargins = !spacing && zeroMargin(st.margin.left) && zeroMargin(st.margin.top)
            && zeroMargin(st.margin.right) && zeroMargin(st.margin.bottom)
        hasNoPaddingOrBorder = zeroPadding(st.padding.left) && zeroPadding(st.padding.top)
            && zeroPadding(st.padding.right) && zeroPadding(st.padding.bottom)
            && !(st.border.left > 0) && !(st.border.top > 0) && !(st.border.right > 0) && !(st.border.bottom > 0)
        hasNoMinMax = st.minWidth.isAuto && st.minHeight.isAuto && st.maxWidth.isAuto && st.maxHeight.isAuto
        hasNoInsets = st.insets.left == nil && st.insets.top == nil && st.insets.right == nil && st.insets.bottom == nil
        if let pd = parentDirection, style.spacingBefore != 0 || style.spacingAfter != 0 {
            hasSpacingMargins = true
            func add(_ e: Edge, _ v: Double) {
                switch e {
                case .left: spacingMargins.left += v
                case .top: spacingMargins.top += v
                case .right: spacingMargins.right += v
                case .bottom: spacingMargins.bottom += v
                }
            }
            add(pd.startEdge, style.spacingBefore)
            add(pd.endEdge, style.spacingAfter)
        } else {
            hasSpacingMargins = false
        }
    }

    /// Wraps a stack and, recursively, its children; other elements become measured leaves.
    static func build(_ element: any LayoutElement, style: Style, isRoot: Bool, depth: Int,
                      parentDirection: FlexDirection?, parentLayoutDirection: LayoutDirection,
                      context: LayoutContext) throws(LayoutError) -> FlexBox {
        try context.checkDepth(depth)
        let stack = element.stackLayoutSpec
        let box = FlexBox(element: element, style: style, stack: stack, isRoot: isRoot, depth: depth,
                          parentDirection: parentDirection,
                          layoutDirection: style.direction.resolved(parent: parentLayoutDirection),
                          yogaCompatible: context.yogaCompatible)
        if let stack, !stack.children.isEmpty {
            box.children.reserveCapacity(stack.children.count)
            // The output tree differs from the flex items only with `display: contents`
            // children; it is recorded from the first one on.
            var output: [OutputChild]?
            for child in stack.children {
                let childStyle = child.style
                if childStyle.display == .contents {
                    if output == nil { output = box.children.map { .box($0) } }
                    output!.append(try box.adoptContents(child, depth: depth + 1, context: context))
                } else {
                    let childBox = try build(child, style: childStyle, isRoot: false, depth: depth + 1,
                                             parentDirection: box.direction,
                                             parentLayoutDirection: box.layoutDirection, context: context)
                    box.children.append(childBox)
                    output?.append(.box(childBox))
                }
            }
            box.outputChildren = output
            box.allChildrenInFlow = box.children.allSatisfy { $0.isInFlow }
        }
        return box
    }

    /// A `display: contents` child: its children become this box's flex items.
    private func adoptContents(_ element: any LayoutElement, depth: Int,
                               context: LayoutContext) throws(LayoutError) -> OutputChild {
        try context.checkDepth(depth)
        var items: [OutputChild] = []
        for child in element.sublayoutElements {
            let childStyle = child.style
            if childStyle.display == .contents {
                items.append(try adoptContents(child, depth: depth + 1, context: context))
            } else {
                // A contents element's own direction still reaches its children.
                let childBox = try FlexBox.build(child, style: childStyle, isRoot: false, depth: depth + 1,
                                                 parentDirection: direction,
                                                 parentLayoutDirection: element.style.direction.resolved(parent: layoutDirection),
                                                 context: context)
                children.append(childBox)
                items.append(.box(childBox))
            }
        }
        return .contents(element, items)
    }

    /// Lays out `stack` as the root of a flexbox pass inside `range` (Texture semantics: an exact
    /// range fixes the size, a bounded one is fit-content, an unbounded one is max-content, and a
    /// minimum the content does not reach is honoured by laying out again at that minimum).
    static func layoutRoot(_ stack: StackLayoutSpec, style: Style, in range: SizeRange, parentSize: Size,
                           context: LayoutContext) throws(LayoutError) -> Layout {
        // Reuse this pass's tree for the stack (and its caches), unless it was built with a
        // different style (a stack laid out as content and as an element).
        let key = ObjectIdentifier(stack)
        let root: FlexBox
        let layoutDirection = style.direction.resolved(parent: context.direction)
        if let existing = context.flexTrees[key], existing.depth == context.depth + 1,
           existing.layoutDirection == layoutDirection,
           style.hasLogicalEdges ? existing.style == style.physical(for: layoutDirection) : existing.style == style {
            root = existing
            if let hit = root.rootResults.lookup(range, parentSize) { return hit }
        } else {
            root = try build(stack, style: style, isRoot: true, depth: context.depth + 1,
                             parentDirection: nil, parentLayoutDirection: context.direction, context: context)
            context.flexTrees[key] = root
        }
        let saved = context.depth
        defer { context.depth = saved }
        let resolved = style.sizeRange(parentSize: parentSize).intersection(range)
        let ownerWidth = parentSize.width.isFinite ? parentSize.width : .nan
        let ownerHeight = parentSize.height.isFinite ? parentSize.height : .nan
        root.contentBoxOwnerWidth = ownerWidth
        let marginRow = root.margin(.left, ownerWidth) + root.margin(.right, ownerWidth)
        let marginColumn = root.margin(.top, ownerWidth) + root.margin(.bottom, ownerWidth)
        func axis(_ lo: Double, _ hi: Double, _ margin: Double) -> (Double, SizingMode) {
            if lo == hi { return (lo + margin, .exactly) }
            if hi.isFinite { return (hi + margin, .atMost) }
            return (.nan, .undefined)
        }
        var (w, wm) = axis(resolved.min.width, resolved.max.width, marginRow)
        var (h, hm) = axis(resolved.min.height, resolved.max.height, marginColumn)
        try root.layoutInternal(availableWidth: w, availableHeight: h, widthMode: wm, heightMode: hm,
                                ownerWidth: ownerWidth, ownerHeight: ownerHeight, performLayout: true,
                                context: context)
        var again = false
        if root.layoutWidth < resolved.min.width - 0.0001 {
            (w, wm) = (resolved.min.width + marginRow, .exactly); again = true
        }
        if root.layoutHeight < resolved.min.height - 0.0001 {
            (h, hm) = (resolved.min.height + marginColumn, .exactly); again = true
        }
        if again {
            try root.layoutInternal(availableWidth: w, availableHeight: h, widthMode: wm, heightMode: hm,
                                    ownerWidth: ownerWidth, ownerHeight: ownerHeight, performLayout: true,
                                    context: context)
        }
        root.x = 0; root.y = 0
        var layout = root.makeLayout()
        // The range is a promise to the caller: a style minimum above it (which the flexbox
        // bounds would honour) makes the content overflow instead.
        let clamped = resolved.clamp(layout.size)
        if clamped != layout.size {
            layout = Layout(element: layout.element, size: clamped, sublayouts: layout.sublayouts)
        }
        root.rootResults.insert(range, parentSize, layout)
        return layout
    }

    /// A stack laid out as Yoga's `calculateLayout(ownerWidth, ownerHeight)` lays out a root:
    /// a definite size is exact, else a max size is the fit-content limit, else a known owner
    /// length is exact, else max-content. (The corpus evaluator's entry; `layoutRoot` is the
    /// Texture-style one, where a range's minimum always wins.)
    static func layoutAsYogaRoot(_ stack: StackLayoutSpec, ownerWidth: Double, ownerHeight: Double,
                                 context: LayoutContext) throws(LayoutError) -> Layout {
        let root = try build(stack, style: stack.style, isRoot: true, depth: context.depth + 1,
                             parentDirection: nil, parentLayoutDirection: context.direction, context: context)
        func axis(_ a: FlexDirection, _ owner: Double) -> (Double, SizingMode) {
            if root.hasDefiniteLength(a, owner) {
                return (root.resolvedDimension(a, owner) + root.marginForAxis(a, ownerWidth), .exactly)
            }
            let maxLength = root.resolvedMax(a, owner)
            if !maxLength.isNaN { return (maxLength, .atMost) }
            return owner.isNaN ? (.nan, .undefined) : (owner, .exactly)
        }
        root.contentBoxOwnerWidth = ownerWidth
        let (w, wm) = axis(.row, ownerWidth)
        let (h, hm) = axis(.column, ownerHeight)
        try root.layoutInternal(availableWidth: w, availableHeight: h, widthMode: wm, heightMode: hm,
                                ownerWidth: ownerWidth, ownerHeight: ownerHeight, performLayout: true,
                                context: context)
        root.x = 0; root.y = 0
        return root.makeLayout()
    }

    /// The immutable result for this box and its subtree.
    func makeLayout() -> Layout {
        let size = Size(width: layoutWidth, height: layoutHeight)
        let position = Point(x: x, y: y)
        if stack == nil {
            // A `LayoutNode` leaf without padding or border whose content layout is already
            // this box's layout (same size to the bit, no baselines) is that layout placed at
            // the box's position: no new layout (an allocation per leaf per pass). Every layout
            // a `LayoutNode` (a final class) returns names the node itself, and without padding
            // the content layout is the one it returned; the type is compared rather than cast
            // (`as?` cost more than half of what the allocation did).
            if hasNoPaddingOrBorder && contentBaselines == nil, let content = contentLayout, content.baselines == nil,
               content.size.width.bitPattern == size.width.bitPattern,
               content.size.height.bitPattern == size.height.bitPattern,
               ObjectIdentifier(type(of: element)) == ObjectIdentifier(LayoutNode.self) {
                return content.positioned(at: position)
            }
            let dy = leadingPaddingAndBorder(.column, layoutOwnerWidth)
            return Layout(element: element, size: size, position: position, sublayouts: contentLayout?.sublayouts ?? [],
                          baselines: contentBaselines.map { LayoutBaselines(first: $0.first + dy, last: $0.last + dy) })
        }
        if let outputChildren {
            func output(_ c: OutputChild) -> Layout {
                switch c {
                case .box(let b): return b.makeLayout()
                case .contents(let e, let items): return Layout(element: e, size: .zero, sublayouts: items.map(output))
                }
            }
            return Layout(element: element, size: size, position: position, sublayouts: outputChildren.map(output))
        }
        if children.isEmpty { return Layout(element: element, size: size, position: position) }
        var subs: [Layout] = []
        subs.reserveCapacity(children.count)
        for child in children { subs.append(child.makeLayout()) }
        return Layout(element: element, size: size, position: position, sublayouts: subs)
    }

    /// The resolved inline direction (never `inherit`).
    @inline(__always) var layoutDirection: LayoutDirection { rtl ? .rtl : .ltr }

    // MARK: - Style accessors (percentages of margins and padding are of the owner's width)

    @inline(__always) func margin(_ e: Edge, _ ownerWidth: Double) -> Double {
        if hasNoMargins { return 0 }
        let d: Dimension
        switch e {
        case .left: d = style.margin.left
        case .top: d = style.margin.top
        case .right: d = style.margin.right
        case .bottom: d = style.margin.bottom
        }
        var v = d.value(ownerWidth)
        if v.isNaN { v = 0 }
        if hasSpacingMargins {
            switch e {
            case .left: v += spacingMargins.left
            case .top: v += spacingMargins.top
            case .right: v += spacingMargins.right
            case .bottom: v += spacingMargins.bottom
            }
        }
        return v
    }
    @inline(__always) func marginIsAuto(_ e: Edge) -> Bool {
        switch e {
        case .left: return style.margin.left.isAuto
        case .top: return style.margin.top.isAuto
        case .right: return style.margin.right.isAuto
        case .bottom: return style.margin.bottom.isAuto
        }
    }
    @inline(__always) func marginForAxis(_ axis: FlexDirection, _ ownerWidth: Double) -> Double {
        if hasNoMargins { return 0 }
        return axis.isRow ? margin(.left, ownerWidth) + margin(.right, ownerWidth)
                   : margin(.top, ownerWidth) + margin(.bottom, ownerWidth)
    }
    @inline(__always) func leadingMargin(_ axis: FlexDirection, _ ownerWidth: Double) -> Double {
        margin(axis.startEdge, ownerWidth)
    }
    @inline(__always) func trailingMargin(_ axis: FlexDirection, _ ownerWidth: Double) -> Double {
        margin(axis.endEdge, ownerWidth)
    }
    @inline(__always) func padding(_ e: Edge, _ ownerWidth: Double) -> Double {
        if hasNoPaddingOrBorder { return 0 }
        let d: Dimension
        switch e {
        case .left: d = style.padding.left
        case .top: d = style.padding.top
        case .right: d = style.padding.right
        case .bottom: d = style.padding.bottom
        }
        let v = d.value(ownerWidth)
        return v > 0 ? v : 0
    }
    @inline(__always) func border(_ e: Edge) -> Double {
        if hasNoPaddingOrBorder { return 0 }
        let v: Double
        switch e {
        case .left: v = style.border.left
        case .top: v = style.border.top
        case .right: v = style.border.right
        case .bottom: v = style.border.bottom
        }
        return v > 0 ? v : 0
    }
    @inline(__always) func leadingPaddingAndBorder(_ axis: FlexDirection, _ ownerWidth: Double) -> Double {
        padding(axis.startEdge, ownerWidth) + border(axis.startEdge)
    }
    @inline(__always) func trailingPaddingAndBorder(_ axis: FlexDirection, _ ownerWidth: Double) -> Double {
        padding(axis.endEdge, ownerWidth) + border(axis.endEdge)
    }
    @inline(__always) func paddingAndBorderForAxis(_ axis: FlexDirection, _ ownerWidth: Double) -> Double {
        if hasNoPaddingOrBorder { return 0 }
        return leadingPaddingAndBorder(axis, ownerWidth) + trailingPaddingAndBorder(axis, ownerWidth)
    }
    @inline(__always) func borderForAxis(_ axis: FlexDirection) -> Double {
        axis.isRow ? border(.left) + border(.right) : border(.top) + border(.bottom)
    }

    @inline(__always) func dimension(_ axis: FlexDirection) -> Dimension {
        axis.isRow ? widthDimension : heightDimension
    }
    /// The resolved width or height, NaN when auto or a fraction of an unknown length.
    @inline(__always) func resolvedDimension(_ axis: FlexDirection, _ ownerSize: Double) -> Double {
        let v = dimension(axis).value(ownerSize)
        return isContentBox && !v.isNaN ? v + paddingAndBorderForAxis(axis, contentBoxOwnerWidth) : v
    }
    @inline(__always) func hasDefiniteLength(_ axis: FlexDirection, _ ownerSize: Double) -> Bool {
        let v = resolvedDimension(axis, ownerSize)
        return v >= 0   // false for NaN
    }
    @inline(__always) func resolvedMin(_ axis: FlexDirection, _ ownerSize: Double) -> Double {
        if hasNoMinMax { return .nan }
        let v = (axis.isRow ? style.minWidth : style.minHeight).value(ownerSize)
        return isContentBox && !v.isNaN ? v + paddingAndBorderForAxis(axis, contentBoxOwnerWidth) : v
    }
    @inline(__always) func resolvedMax(_ axis: FlexDirection, _ ownerSize: Double) -> Double {
        if hasNoMinMax { return .nan }
        let v = (axis.isRow ? style.maxWidth : style.maxHeight).value(ownerSize)
        return isContentBox && !v.isNaN ? v + paddingAndBorderForAxis(axis, contentBoxOwnerWidth) : v
    }
    /// `value` clamped by min and max (Yoga `boundAxisWithinMinAndMax`).
    @inline(__always) func boundWithinMinAndMax(_ axis: FlexDirection, _ value: Double, _ axisSize: Double) -> Double {
        if hasNoMinMax { return value }
        let maxV = resolvedMax(axis, axisSize), minV = resolvedMin(axis, axisSize)
        if maxV >= 0 && value > maxV {
            // A min size above the max size wins (CSS); Yoga lets the max win.
            return !yogaCompatible && minV > maxV ? minV : maxV
        }
        if minV >= 0 && value < minV { return minV }
        return value
    }
    /// As `boundWithinMinAndMax`, and never below padding plus border.
    @inline(__always) func boundAxis(_ axis: FlexDirection, _ value: Double, _ axisSize: Double, _ ownerWidth: Double) -> Double {
        if hasNoMinMax && hasNoPaddingOrBorder { return maxDefined(value, 0) }
        return maxDefined(boundWithinMinAndMax(axis, value, axisSize), paddingAndBorderForAxis(axis, ownerWidth))
    }

    @inline(__always) func measured(_ axis: FlexDirection) -> Double { axis.isRow ? measuredWidth : measuredHeight }
    @inline(__always) func setMeasured(_ axis: FlexDirection, _ v: Double) {
        if axis.isRow { measuredWidth = v } else { measuredHeight = v }
    }
    @inline(__always) func dimensionWithMargin(_ axis: FlexDirection, _ ownerWidth: Double) -> Double {
        measured(axis) + marginForAxis(axis, ownerWidth)
    }
    @inline(__always) func position(_ axis: FlexDirection) -> Double { axis.isRow ? x : y }
    @inline(__always) func setPosition(_ axis: FlexDirection, _ v: Double) {
        if axis.isRow { x = v } else { y = v }
    }

    var isInFlow: Bool { style.display == .flex && style.positionType != .absolute }
    @inline(__always) var flexGrow: Double { isRoot ? 0 : style.flexGrow }
    @inline(__always) var flexShrink: Double { isRoot ? 0 : style.flexShrink }
    var isFlexible: Bool { style.positionType != .absolute && (flexGrow != 0 || flexShrink != 0) }

    // MARK: - Cached entry point (Yoga `calculateLayoutInternal`)

    /// Computes `measuredWidth/Height` (and, with `performLayout`, the positions of the
    /// children) for the given available border-box-plus-margin lengths, reusing an earlier
    /// identical computation of this pass.
    func layoutInternal(availableWidth: Double, availableHeight: Double, widthMode: SizingMode,
                        heightMode: SizingMode, ownerWidth: Double, ownerHeight: Double,
                        performLayout: Bool, context: LayoutContext) throws(LayoutError) {
        var hit: FlexCacheEntry?
        if performLayout {
            if let c = cachedLayout, c.matches(availableWidth, availableHeight, widthMode, heightMode) { hit = c }
        } else {
            hit = measurements.lookup(availableWidth, availableHeight, widthMode, heightMode)
        }
        if let hit {
            measuredWidth = hit.width; measuredHeight = hit.height
        } else {
            try layoutImpl(availableWidth: availableWidth, availableHeight: availableHeight,
                           widthMode: widthMode, heightMode: heightMode, ownerWidth: ownerWidth,
                           ownerHeight: ownerHeight, performLayout: performLayout, context: context)
            let entry = FlexCacheEntry(availableWidth: availableWidth, availableHeight: availableHeight,
                                       widthMode: widthMode, heightMode: heightMode,
                                       width: measuredWidth, height: measuredHeight)
            if performLayout { cachedLayout = entry } else { measurements.insert(entry) }
        }
        if performLayout {
            layoutWidth = measuredWidth
            layoutHeight = measuredHeight
        }
    }

    /// An output child of a box with `display: contents` children.
    enum OutputChild { case box(FlexBox); case contents(any LayoutElement, [OutputChild]) }

    /// Zero size and position for this box and its subtree (`display: none`).
    func zeroOutRecursively() {
        measuredWidth = 0; measuredHeight = 0; layoutWidth = 0; layoutHeight = 0
        x = 0; y = 0
        contentLayout = nil
        cachedLayout = nil
        measurements = MeasurementCache()
        for child in children { child.zeroOutRecursively() }
    }

    // MARK: - Leaves

    /// A non-stack element: ask it for its layout inside the content box the modes describe
    /// (Yoga's measure function), then add padding and border and clamp to min/max.
    func measureElement(availableWidth: Double, availableHeight: Double, widthMode: SizingMode,
                        heightMode: SizingMode, ownerWidth: Double, ownerHeight: Double,
                        performLayout: Bool, context: LayoutContext) throws(LayoutError) {
        let pbRow = paddingAndBorderForAxis(.row, ownerWidth)
        let pbColumn = paddingAndBorderForAxis(.column, ownerWidth)
        if widthMode == .exactly && heightMode == .exactly {
            measuredWidth = boundAxis(.row, availableWidth, ownerWidth, ownerWidth)
            measuredHeight = boundAxis(.column, availableHeight, ownerHeight, ownerWidth)
        } else {
            func range(_ avail: Double, _ mode: SizingMode, _ pb: Double) -> (Double, Double) {
                let inner = avail.isNaN ? Double.infinity : Swift.max(0, avail - pb)
                switch mode {
                case .exactly: return (inner, inner)
                case .atMost: return (0, inner)
                case .undefined: return (0, .infinity)
                }
            }
            let (w0, w1) = range(availableWidth, widthMode, pbRow)
            let (h0, h1) = range(availableHeight, heightMode, pbColumn)
            let content = try elementLayout(SizeRange(min: Size(width: w0, height: h0),
                                                      max: Size(width: w1, height: h1)), context: context)
            contentBaselines = content.baselines
            measuredWidth = boundAxis(.row, widthMode == .exactly ? availableWidth : content.size.width + pbRow,
                                      ownerWidth, ownerWidth)
            measuredHeight = boundAxis(.column, heightMode == .exactly ? availableHeight : content.size.height + pbColumn,
                                       ownerHeight, ownerWidth)
        }
        if performLayout {
            let w = Swift.max(0, measuredWidth - pbRow), h = Swift.max(0, measuredHeight - pbColumn)
            let content = try elementLayout(SizeRange(exactly: Size(width: w, height: h)), context: context)
            contentBaselines = content.baselines
            let dx = leadingPaddingAndBorder(.row, ownerWidth), dy = leadingPaddingAndBorder(.column, ownerWidth)
            if dx == 0 && dy == 0 {
                contentLayout = content
            } else {
                contentLayout = Layout(element: element, size: content.size,
                                       sublayouts: content.sublayouts.map { $0.offsetBy(dx: dx, dy: dy) })
            }
        }
    }

    func elementLayout(_ range: SizeRange, context: LayoutContext) throws(LayoutError) -> Layout {
        if let l = elementLayouts.lookup(range) { return l }
        let saved = context.depth, savedDirection = context.direction
        context.depth = depth
        context.direction = layoutDirection
        defer { context.depth = saved; context.direction = savedDirection }
        let l = try element.calculateLayoutThatFits(range, context: context)
        elementLayouts.insert(range, l)
        return l
    }

    /// A stack without children: padding and border, or the given length (Yoga
    /// `measureNodeWithoutChildren`).
    func measureEmpty(availableWidth: Double, availableHeight: Double, widthMode: SizingMode,
                      heightMode: SizingMode, ownerWidth: Double, ownerHeight: Double) {
        var w = availableWidth
        if widthMode != .exactly { w = paddingAndBorderForAxis(.row, ownerWidth) }
        measuredWidth = boundAxis(.row, w, ownerWidth, ownerWidth)
        var h = availableHeight
        if heightMode != .exactly { h = paddingAndBorderForAxis(.column, ownerWidth) }
        measuredHeight = boundAxis(.column, h, ownerHeight, ownerWidth)
    }

    /// When both lengths are fixed, a measurement needs no look at the children (Yoga
    /// `measureNodeWithFixedSize`).
    func measureFixedSize(availableWidth: Double, availableHeight: Double, widthMode: SizingMode,
                          heightMode: SizingMode, ownerWidth: Double, ownerHeight: Double) -> Bool {
        func isFixed(_ v: Double, _ m: SizingMode) -> Bool { m == .exactly || (m == .atMost && v <= 0) }
        guard isFixed(availableWidth, widthMode) && isFixed(availableHeight, heightMode) else { return false }
        let w = availableWidth.isNaN || (widthMode == .atMost && availableWidth < 0) ? 0 : availableWidth
        let h = availableHeight.isNaN || (heightMode == .atMost && availableHeight < 0) ? 0 : availableHeight
        measuredWidth = boundAxis(.row, w, ownerWidth, ownerWidth)
        measuredHeight = boundAxis(.column, h, ownerHeight, ownerWidth)
        return true
    }
}
