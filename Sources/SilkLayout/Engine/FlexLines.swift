import SilkGeometry

// Phase one of the stack algorithm (unpositioned): flex base sizes, line breaking and the
// resolution of flexible lengths, plus main-axis justification, which finishes each line.

/// One line of a stack: its items and running totals (Yoga `FlexLine`).
struct FlexLine {
    var items: [FlexBox] = []
    /// Sum of the items' outer hypothetical main sizes and the gaps between them.
    var sizeConsumed = 0.0
    var numberOfAutoMargins = 0
    var totalFlexGrowFactors = 0.0
    /// Sum of −flexShrink × flex basis (negative, as Yoga keeps it).
    var totalFlexShrinkScaledFactors = 0.0
    var remainingFreeSpace = 0.0
    /// The line's length along the main axis (with the container's padding and border) and
    /// across it.
    var mainDim = 0.0
    var crossDim = 0.0
}

extension FlexBox {
    /// Clamps a child's requested length to its max size, switching max-content to fit-content
    /// when there is a max (Yoga `constrainMaxSizeForMode`).
    @inline(__always)
    func constrainMaxSizeForMode(_ axis: FlexDirection, _ ownerAxisSize: Double, _ ownerWidth: Double,
                                 _ mode: inout SizingMode, _ size: inout Double) {
        let maxSize = resolvedMax(axis, ownerAxisSize) + marginForAxis(axis, ownerWidth)
        switch mode {
        case .exactly, .atMost:
            if !(maxSize.isNaN || size < maxSize) { size = maxSize }
        case .undefined:
            if !maxSize.isNaN { mode = .atMost; size = maxSize }
        }
    }

    /// STEP 3 for every child: the flex basis, and the sum of outer bases. Also resets the
    /// children's positions to their start margins for this layout.
    func computeFlexBasisForChildren(availableInnerWidth: Double, availableInnerHeight: Double,
                                     widthMode: SizingMode, heightMode: SizingMode, performLayout: Bool,
                                     context: LayoutContext) throws(LayoutError) -> Double {
        let mainAxis = direction
        var total = 0.0
        // With a definite main size, a single item that both grows and shrinks starts from 0.
        var singleFlexChild: FlexBox?
        // (In a wrapping container the real basis decides the lines: the browser has no shortcut.)
        if (mainAxis.isRow ? widthMode : heightMode) == .exactly && (yogaCompatible || !isWrap) {
            for child in children where child.isFlexible {
                // Yoga's shortcut; the browser only agrees when the factors distribute all of
                // the free space (each at least 1: smaller sums distribute a fraction, §9.7).
                if singleFlexChild != nil || abs(child.flexGrow) < 0.0001 || abs(child.flexShrink) < 0.0001
                    || (!yogaCompatible && (child.flexGrow < 1 || child.flexShrink < 1)) {
                    singleFlexChild = nil
                    break
                }
                singleFlexChild = child
            }
        }
        let rowAxis: FlexDirection = mainAxis.isRow ? mainAxis : crossDirection
        let columnAxis: FlexDirection = mainAxis.isRow ? .column : mainAxis
        for child in children {
            child.contentBoxOwnerWidth = availableInnerWidth
            if child.style.display == .none {
                child.zeroOutRecursively()
                continue
            }
            if performLayout {
                // Start margin plus relative offset, measured from the flex-start edge (so a
                // reversed axis mirrors the offset, as Yoga's `setPosition` does).
                // Yoga measures the offset from the flex-start edge, so a reversed axis mirrors it;
                // the browser applies it physically once placed (STEP 10).
                let yogaOffsets = yogaCompatible
                // (`relativeOffset` with `rtl` points leftwards; positions on a row that runs
                // left to right in an RTL box, a row-reverse, are physical.)
                let rowOffset: Double
                if yogaOffsets { rowOffset = child.relativeOffset(.row, availableInnerWidth, rtl: rtl) }
                else if rowAxis.isReverse { rowOffset = 0 }
                else { rowOffset = rtl ? -child.relativeOffset(.row, availableInnerWidth, rtl: true)
                                       : child.relativeOffset(.row, availableInnerWidth, rtl: false) }
                child.x = child.leadingMargin(rowAxis, availableInnerWidth) + rowOffset
                child.y = child.leadingMargin(columnAxis, availableInnerWidth)
                    + (yogaOffsets || !columnAxis.isReverse ? child.relativeOffset(.column, availableInnerHeight, rtl: false) : 0)
            }
            if child.style.positionType == .absolute { continue }
            if child === singleFlexChild {
                // The browser's flex base size is never below the item's padding and border (the
                // freezing loop would count the difference as free space: 3 points of padding
                // grew a filling item 3 points past its container).
                child.computedFlexBasis = yogaCompatible ? 0 : child.paddingAndBorderForAxis(mainAxis, availableInnerWidth)
            } else {
                try computeFlexBasis(for: child, width: availableInnerWidth, widthMode: widthMode,
                                     height: availableInnerHeight, heightMode: heightMode, context: context)
            }
            total += child.computedFlexBasis + child.marginForAxis(mainAxis, availableInnerWidth)
        }
        return total
    }

    /// STEP 3 for one child (§9.2 step 3): from `flexBasis`, else a definite main size, else by
    /// measuring the child's content (max-content, or fit-content within a definite length,
    /// stretched across when it will be stretched).
    private func computeFlexBasis(for child: FlexBox, width: Double, widthMode: SizingMode, height: Double,
                                  heightMode: SizingMode, context: LayoutContext) throws(LayoutError) {
        let mainAxis = direction
        let isMainAxisRow = mainAxis.isRow
        let ownerWidth = width, ownerHeight = height
        let mainAxisSize = isMainAxisRow ? width : height
        let mainAxisOwnerSize = isMainAxisRow ? ownerWidth : ownerHeight
        var resolvedFlexBasis = child.style.flexBasis.value(mainAxisOwnerSize)
        if child.isContentBox && !resolvedFlexBasis.isNaN {
            resolvedFlexBasis += child.paddingAndBorderForAxis(mainAxis, ownerWidth)
        }
        var isRowStyleDimDefined = child.hasDefiniteLength(.row, ownerWidth)
        var isColumnStyleDimDefined = child.hasDefiniteLength(.column, ownerHeight)

        // A percentage flex basis of an indefinite main size is `content` (CSS Flexbox §7.2.3,
        // `flex-basis`: "the used value for flex-basis is content"): the item's main size
        // property is ignored and its content measured (Yoga resolves it against the available
        // length, or takes the main size). A container measured for its content size (mode not
        // `exactly`) has no definite main size yet, so its available length does not count.
        if !yogaCompatible, case .fraction = child.style.flexBasis,
           resolvedFlexBasis.isNaN || (isMainAxisRow ? widthMode : heightMode) != .exactly {
            resolvedFlexBasis = .nan
            if isMainAxisRow { isRowStyleDimDefined = false } else { isColumnStyleDimDefined = false }
        }
        // A definite flex basis wins over the main size even when the container's main size is
        // indefinite (the browser); Yoga then takes the child's height or width instead.
        if !resolvedFlexBasis.isNaN && (!mainAxisSize.isNaN || !yogaCompatible) {
            // Yoga keeps a basis computed in an earlier measurement of this pass (a percentage
            // then stays what it was of an indefinite length); the browser resolves it again.
            if child.computedFlexBasis.isNaN || !yogaCompatible {
                child.computedFlexBasis = maxDefined(resolvedFlexBasis, child.paddingAndBorderForAxis(mainAxis, ownerWidth))
            }
            return
        }
        if isMainAxisRow && isRowStyleDimDefined {
            child.computedFlexBasis = maxDefined(child.resolvedDimension(.row, ownerWidth),
                                                 child.paddingAndBorderForAxis(.row, ownerWidth))
            return
        }
        if !isMainAxisRow && isColumnStyleDimDefined {
            child.computedFlexBasis = maxDefined(child.resolvedDimension(.column, ownerHeight),
                                                 child.paddingAndBorderForAxis(.column, ownerWidth))
            return
        }

        var childWidth = Double.nan, childHeight = Double.nan
        var childWidthMode = SizingMode.undefined, childHeightMode = SizingMode.undefined
        let marginRow = child.marginForAxis(.row, ownerWidth)
        let marginColumn = child.marginForAxis(.column, ownerWidth)
        if isRowStyleDimDefined {
            childWidth = child.resolvedDimension(.row, ownerWidth) + marginRow
            childWidthMode = .exactly
        }
        if isColumnStyleDimDefined {
            childHeight = child.resolvedDimension(.column, ownerHeight) + marginColumn
            childHeightMode = .exactly
        }
        // A scrolling container does not limit its children along the scrolling axis.
        let scrolls = style.overflow == .scroll
        if (!isMainAxisRow && scrolls) || !scrolls {
            if childWidth.isNaN && !width.isNaN {
                childWidth = width
                childWidthMode = .atMost
            }
        }
        // The browser has no fit-content height: a stack's auto height is its content's, and
        // percentages of it are of an indefinite length (Yoga fits it into the available one).
        if (isMainAxisRow || !scrolls) && childHeight.isNaN && !height.isNaN && (yogaCompatible || child.stack == nil) {
            childHeight = height
            childHeightMode = .atMost
        }
        let ratio = child.style.aspectRatio
        if let ratio {
            if !isMainAxisRow && childWidthMode == .exactly {
                childHeight = marginColumn + (childWidth - marginRow) / ratio
                childHeightMode = .exactly
            } else if isMainAxisRow && childHeightMode == .exactly {
                childWidth = marginRow + (childHeight - marginColumn) * ratio
                childWidthMode = .exactly
            }
        }
        // An item that will be stretched across is measured at the stretched length.
        // Only a single-line container stretches before line sizing (§9.4 step 8); Yoga also
        // does in multi-line ones.
        // An auto margin across takes the stretch away (§8.1, §9.4 step 11), so the browser
        // measures such an item at its fit-content width.
        let crossAxis = crossDirection
        let autoCross = !yogaCompatible && (child.marginIsAuto(crossAxis.startEdge) || child.marginIsAuto(crossAxis.endEdge))
        let stretches = alignment(of: child) == .stretch && (!isWrap || yogaCompatible) && !autoCross
        if !isMainAxisRow && !isRowStyleDimDefined && !width.isNaN && widthMode == .exactly
            && stretches && childWidthMode != .exactly {
            childWidth = width
            childWidthMode = .exactly
            if let ratio {
                childHeight = (childWidth - marginRow) / ratio
                childHeightMode = .exactly
            }
        }
        if isMainAxisRow && !isColumnStyleDimDefined && !height.isNaN && heightMode == .exactly
            && stretches && childHeightMode != .exactly {
            childHeight = height
            childHeightMode = .exactly
            if let ratio {
                childWidth = (childHeight - marginColumn) * ratio
                childWidthMode = .exactly
            }
        }
        child.constrainMaxSizeForMode(.row, ownerWidth, ownerWidth, &childWidthMode, &childWidth)
        child.constrainMaxSizeForMode(.column, ownerHeight, ownerWidth, &childHeightMode, &childHeight)
        try child.layoutInternal(availableWidth: childWidth, availableHeight: childHeight, widthMode: childWidthMode,
                                 heightMode: childHeightMode, ownerWidth: ownerWidth, ownerHeight: ownerHeight,
                                 performLayout: false, context: context)
        child.computedFlexBasis = maxDefined(child.measured(mainAxis), child.paddingAndBorderForAxis(mainAxis, ownerWidth))
    }

    /// STEP 4: the next line, from `index` on (§9.3): items join while their outer bases fit
    /// (always at least one); a non-wrapping stack has a single line.
    func collectLine(from index: inout Int, lineIndex: Int, mainAxis: FlexDirection, mainAxisOwnerSize: Double,
                     availableInnerWidth: Double, availableInnerMainDim: Double) -> FlexLine {
        var line = FlexLine()
        // A stack that does not wrap and has only in-flow children has one line of all of
        // them: it shares `children` (an array made per line cost an allocation per stack
        // layout, 2 % of a cold feed layout).
        let wholeChildren = !isWrap && index == 0 && allChildrenInFlow
        if wholeChildren { line.items = children } else { line.items.reserveCapacity(children.count - index) }
        var itemCount = 0
        let gap = mainGap(availableInnerMainDim)
        while index < children.count {
            let child = children[index]
            if !child.isInFlow { index += 1; continue }
            // Yoga counts them before the break test: the item that starts the next line also
            // counts in this one (the browser counts them once the item joins, below).
            if yogaCompatible {
                if child.marginIsAuto(mainAxis.startEdge) { line.numberOfAutoMargins += 1 }
                if child.marginIsAuto(mainAxis.endEdge) { line.numberOfAutoMargins += 1 }
            }
            child.lineIndex = lineIndex
            let childMargin = child.marginForAxis(mainAxis, availableInnerWidth)
            let leadingGap = itemCount == 0 ? 0 : gap
            let basis = child.boundWithinMinAndMax(mainAxis, child.computedFlexBasis, mainAxisOwnerSize)
            // A small tolerance: a container sized to its content must not wrap its last item
            // because `content + margin − margin` came out a rounding error short.
            if line.sizeConsumed + basis + childMargin + leadingGap > availableInnerMainDim + 0.0001
                && isWrap && itemCount != 0 {
                break
            }
            line.sizeConsumed += basis + childMargin + leadingGap
            if !yogaCompatible {
                if child.marginIsAuto(mainAxis.startEdge) { line.numberOfAutoMargins += 1 }
                if child.marginIsAuto(mainAxis.endEdge) { line.numberOfAutoMargins += 1 }
            }
            if child.isFlexible {
                line.totalFlexGrowFactors += child.flexGrow
                line.totalFlexShrinkScaledFactors += -child.flexShrink * child.computedFlexBasis
            }
            if !wholeChildren { line.items.append(child) }
            itemCount += 1
            index += 1
        }
        // Factors summing to less than 1 do not distribute all the space (§9.7 step 4).
        if line.totalFlexGrowFactors > 0 && line.totalFlexGrowFactors < 1 { line.totalFlexGrowFactors = 1 }
        if line.totalFlexShrinkScaledFactors > 0 && line.totalFlexShrinkScaledFactors < 1 {
            line.totalFlexShrinkScaledFactors = 1
        }
        return line
    }

    /// STEP 5 (§9.7): grow or shrink the line's items into its free space, in two passes as
    /// Yoga does: the first freezes items their min/max clamps, the second sizes every item
    /// and lays it out.
    func resolveFlexibleLengths(_ line: inout FlexLine, mainAxis: FlexDirection, mainAxisOwnerSize: Double,
                                availableInnerMainDim: Double, availableInnerCrossDim: Double,
                                availableInnerWidth: Double, availableInnerHeight: Double,
                                mainAxisOverflows: Bool, crossMode: SizingMode, mainIndefinite: Bool,
                                performLayout: Bool, context: LayoutContext) throws(LayoutError) {
        let originalFreeSpace = line.remainingFreeSpace
        // The browser: CSS's freezing loop decides every item's main size up front.
        // (A line without flexible items keeps its clamped bases either way.)
        let inflexible = line.totalFlexGrowFactors == 0 && line.totalFlexShrinkScaledFactors == 0
        let useTargets = !yogaCompatible && !inflexible
        if useTargets {
            cssTargetMainSizes(line, mainAxis: mainAxis, mainAxisOwnerSize: mainAxisOwnerSize, availableInnerWidth: availableInnerWidth)
        }

        // First pass (Yoga's, not needed with the targets): items whose flexed size violates
        // min/max are frozen at the clamp.
        var delta = 0.0
        for child in line.items where !useTargets {
            let basis = child.boundWithinMinAndMax(mainAxis, child.computedFlexBasis, mainAxisOwnerSize)
            if line.remainingFreeSpace < 0 {
                let scaled = -child.flexShrink * basis
                if !scaled.isNaN && scaled != 0 {
                    let base = basis + line.remainingFreeSpace / line.totalFlexShrinkScaledFactors * scaled
                    let bound = child.boundAxis(mainAxis, base, availableInnerMainDim, availableInnerWidth)
                    if !base.isNaN && !bound.isNaN && base != bound {
                        delta += bound - basis
                        line.totalFlexShrinkScaledFactors -= -child.flexShrink * child.computedFlexBasis
                    }
                }
            } else if line.remainingFreeSpace > 0 {
                let grow = child.flexGrow
                if !grow.isNaN && grow != 0 {
                    let base = basis + line.remainingFreeSpace / line.totalFlexGrowFactors * grow
                    let bound = child.boundAxis(mainAxis, base, availableInnerMainDim, availableInnerWidth)
                    if !base.isNaN && !bound.isNaN && base != bound {
                        delta += bound - basis
                        line.totalFlexGrowFactors -= grow
                    }
                }
            }
        }
        line.remainingFreeSpace -= delta
        // Frozen items subtract what they added; in doubles the rest can be 1e-16 instead of
        // 0, and dividing by it would explode.
        if abs(line.totalFlexShrinkScaledFactors) < 1e-9 { line.totalFlexShrinkScaledFactors = 0 }
        if abs(line.totalFlexGrowFactors) < 1e-9 { line.totalFlexGrowFactors = 0 }

        // Second pass: final main sizes, then each item's layout at that size.
        let crossAxis = crossDirection
        let isMainAxisRow = mainAxis.isRow
        var distributed = 0.0
        for child in line.items {
            let basis = child.boundWithinMinAndMax(mainAxis, child.computedFlexBasis, mainAxisOwnerSize)
            var updatedMainSize = basis
            if useTargets {
                updatedMainSize = child.flexTarget
            } else if line.remainingFreeSpace < 0 {
                let scaled = -child.flexShrink * basis
                if scaled != 0 {
                    // With no shrink factor left (every shrinking item frozen), Yoga shrinks by
                    // the item's own scaled factor once; kept for fidelity.
                    let childSize = line.totalFlexShrinkScaledFactors == 0
                        ? basis + scaled
                        : basis + line.remainingFreeSpace / line.totalFlexShrinkScaledFactors * scaled
                    updatedMainSize = child.boundAxis(mainAxis, childSize, availableInnerMainDim, availableInnerWidth)
                }
            } else if line.remainingFreeSpace > 0 {
                let grow = child.flexGrow
                if !grow.isNaN && grow != 0 {
                    updatedMainSize = child.boundAxis(
                        mainAxis, basis + line.remainingFreeSpace / line.totalFlexGrowFactors * grow,
                        availableInnerMainDim, availableInnerWidth)
                }
            }
            distributed += updatedMainSize - basis

            let marginMain = child.marginForAxis(mainAxis, availableInnerWidth)
            let marginCross = child.marginForAxis(crossAxis, availableInnerWidth)
            var childMainSize = updatedMainSize + marginMain
            var childMainMode = SizingMode.exactly
            // The browser: in a column of indefinite height, an item that keeps its content
            // height has an indefinite height (percentages inside it act as auto, §9.8).
            // (Percentages of that height count as auto.)
            if mainIndefinite && !isMainAxisRow && child.stack != nil && child.style.aspectRatio == nil
                && child.style.flexBasis.value(.nan).isNaN
                && child.dimension(.column).value(.nan).isNaN && sameLength(updatedMainSize, child.computedFlexBasis) {
                childMainSize = .nan
                childMainMode = .undefined
                child.heightIndefinite = true
            } else {
                child.heightIndefinite = false
            }
            var childCrossSize: Double
            var childCrossMode: SizingMode
            let align = alignment(of: child)
            let autoCross = child.marginIsAuto(crossAxis.startEdge) || child.marginIsAuto(crossAxis.endEdge)
            let crossDefinite = child.hasDefiniteLength(crossAxis, availableInnerCrossDim)
            if let ratio = child.style.aspectRatio {
                childCrossSize = (isMainAxisRow ? (childMainSize - marginMain) / ratio
                                                : (childMainSize - marginMain) * ratio) + marginCross
                childCrossMode = .exactly
            } else if !availableInnerCrossDim.isNaN && !crossDefinite && crossMode == .exactly
                        && !(isWrap && (mainAxisOverflows || !yogaCompatible)) && align == .stretch && !autoCross {
                childCrossSize = availableInnerCrossDim
                childCrossMode = .exactly
            } else if !crossDefinite {
                // (No fit-content height for a stack in the browser, as in STEP 3.)
                childCrossSize = isMainAxisRow && !yogaCompatible && child.stack != nil ? .nan : availableInnerCrossDim
                childCrossMode = childCrossSize.isNaN ? .undefined : .atMost
            } else {
                childCrossSize = child.resolvedDimension(crossAxis, availableInnerCrossDim) + marginCross
                var loosePercentage = false
                if case .fraction = child.dimension(crossAxis), crossMode != .exactly { loosePercentage = true }
                childCrossMode = childCrossSize.isNaN || loosePercentage ? .undefined : .exactly
            }
            // A percentage max is of the container's inner main size only when that is definite
            // (the browser); a content-sized container's line length is no basis (Yoga's is).
            child.constrainMaxSizeForMode(mainAxis, yogaCompatible ? availableInnerMainDim : mainAxisOwnerSize,
                                          availableInnerWidth, &childMainMode, &childMainSize)
            child.constrainMaxSizeForMode(crossAxis, availableInnerCrossDim, availableInnerWidth, &childCrossMode, &childCrossSize)
            // A child that will be stretched is laid out for real in STEP 7.
            let requiresStretchLayout = !crossDefinite && align == .stretch && !autoCross
            try child.layoutInternal(
                availableWidth: isMainAxisRow ? childMainSize : childCrossSize,
                availableHeight: isMainAxisRow ? childCrossSize : childMainSize,
                widthMode: isMainAxisRow ? childMainMode : childCrossMode,
                heightMode: isMainAxisRow ? childCrossMode : childMainMode,
                ownerWidth: availableInnerWidth, ownerHeight: availableInnerHeight,
                performLayout: performLayout && !requiresStretchLayout, context: context)
        }
        line.remainingFreeSpace = originalFreeSpace - distributed
    }

    /// The items' main sizes by CSS Flexbox §9.7 (browser mode), left in each item's
    /// `flexTarget`: items that cannot flex, or whose hypothetical size already lies beyond
    /// their basis in the flexing direction, are frozen; the free space (from the bases of the
    /// others) is shared by grow factors or scaled shrink factors, a fraction of it when the
    /// factors sum to less than 1; min/max violations freeze items and the loop repeats.
    /// (Yoga does two passes from the clamped bases instead.)
    func cssTargetMainSizes(_ line: FlexLine, mainAxis: FlexDirection, mainAxisOwnerSize: Double,
                            availableInnerWidth: Double) {
        let items = line.items
        let n = items.count
        let available = line.remainingFreeSpace + line.sizeConsumed
        let growing = line.sizeConsumed < available
        var outerExtra = line.sizeConsumed   // margins and gaps: what is not the items' sizes
        var unfrozen = 0
        for child in items {
            let base = child.computedFlexBasis
            let hypothetical = child.boundAxis(mainAxis, base, mainAxisOwnerSize, availableInnerWidth)
            outerExtra -= hypothetical
            let factor = growing ? child.flexGrow : child.flexShrink
            if factor == 0 || !child.isFlexible || (growing && base > hypothetical) || (!growing && base < hypothetical) {
                child.flexFrozen = true
                child.flexTarget = hypothetical
            } else {
                child.flexFrozen = false
                child.flexTarget = base
                unfrozen += 1
            }
        }
        func remainingSpace() -> Double {
            var used = outerExtra
            for child in items { used += child.flexFrozen ? child.flexTarget : child.computedFlexBasis }
            return available - used
        }
        let initialFree = remainingSpace()
        for _ in 0...n {
            if unfrozen == 0 { break }
            var free = remainingSpace()
            var factors = 0.0
            for child in items where !child.flexFrozen {
                factors += growing ? child.flexGrow : child.flexShrink * child.computedFlexBasis
            }
            if growing {
                if factors < 1 {
                    let fraction = initialFree * factors
                    if abs(fraction) < abs(free) { free = fraction }
                }
            } else {
                var shrinkSum = 0.0
                for child in items where !child.flexFrozen { shrinkSum += child.flexShrink }
                if shrinkSum < 1 {
                    let fraction = initialFree * shrinkSum
                    if abs(fraction) < abs(free) { free = fraction }
                }
            }
            var violation = 0.0
            for child in items where !child.flexFrozen {
                let base = child.computedFlexBasis
                var size = base
                if factors > 0 {
                    size = growing ? base + free * child.flexGrow / factors
                                   : base + free * child.flexShrink * base / factors
                }
                let clamped = child.boundAxis(mainAxis, size, mainAxisOwnerSize, availableInnerWidth)
                child.flexUnclamped = size
                child.flexTarget = clamped
                violation += clamped - size
            }
            for child in items where !child.flexFrozen {
                let d = child.flexTarget - child.flexUnclamped
                if abs(violation) < 1e-9 || (violation > 0 && d > 0) || (violation < 0 && d < 0) {
                    child.flexFrozen = true
                    unfrozen -= 1
                }
            }
            if abs(violation) < 1e-9 { break }
        }
    }

    /// STEP 6 (§9.5): place the line's items along the main axis by `justifyContent` and auto
    /// margins, and measure the line's length and cross length (by baselines when aligning so).
    func justifyMainAxis(_ line: inout FlexLine, mainAxis: FlexDirection, mainMode: SizingMode,
                         crossMode: SizingMode, mainAxisOwnerSize: Double, childMainOwnerSize: Double, ownerWidth: Double,
                         availableInnerMainDim: Double, availableInnerCrossDim: Double,
                         availableInnerWidth: Double, performLayout: Bool, baselineLayout: Bool) {
        let crossAxis = crossDirection
        let leadingPB = leadingPaddingAndBorder(mainAxis, ownerWidth)
        let trailingPB = trailingPaddingAndBorder(mainAxis, ownerWidth)
        let gap = mainGap(availableInnerMainDim)
        // A fit-content container shrinks to its items, so there is no free space to justify
        // into, except what a min size adds.
        if mainMode == .atMost && line.remainingFreeSpace > 0 {
            let minMain = resolvedMin(mainAxis, mainAxisOwnerSize)
            if !minMain.isNaN {
                let occupied = availableInnerMainDim - line.remainingFreeSpace
                line.remainingFreeSpace = maxDefined(0, minMain - leadingPB - trailingPB - occupied)
            } else {
                line.remainingFreeSpace = 0
            }
        }
        var leadingMainDim = 0.0
        var betweenMainDim = gap
        var justify = stack?.justifyContent ?? .start
        if !(line.remainingFreeSpace >= 0) {
            switch justify {
            case .spaceBetween: justify = .start
            case .spaceAround, .spaceEvenly:
                // The browser: their fallback is `safe center` (CSS Box Alignment §4.3), so an
                // overflowing line starts at the writing mode's start edge, which is the
                // flex-end one in a reversed direction (Yoga: flex-start).
                justify = !yogaCompatible && stack?.direction.flexDirection.isReverse == true ? .end : .start
            default: break
            }
        }
        let count = Double(line.items.count)
        // Auto margins take positive free space only; otherwise they are 0 and justify-content
        // places the line (CSS Flexbox §9.5 step 12; Yoga skips it whenever there are any).
        if line.numberOfAutoMargins == 0 || (!yogaCompatible && line.remainingFreeSpace < 0) {
            switch justify {
            case .start: break
            case .center: leadingMainDim = line.remainingFreeSpace / 2
            case .end: leadingMainDim = line.remainingFreeSpace
            case .spaceBetween:
                if line.items.count > 1 { betweenMainDim += line.remainingFreeSpace / (count - 1) }
            case .spaceEvenly:
                leadingMainDim = line.remainingFreeSpace / (count + 1)
                betweenMainDim += leadingMainDim
            case .spaceAround:
                leadingMainDim = 0.5 * line.remainingFreeSpace / count
                betweenMainDim += leadingMainDim * 2
            }
        }
        line.mainDim = leadingPB + leadingMainDim
        line.crossDim = 0
        var maxAscent = 0.0, maxDescent = 0.0
        let autoMarginShare = line.remainingFreeSpace > 0 && line.numberOfAutoMargins > 0
            ? line.remainingFreeSpace / Double(line.numberOfAutoMargins) : 0
        let lastIndex = line.items.count - 1
        let canSkipFlex = !performLayout && crossMode == .exactly
        for (i, child) in line.items.enumerated() {
            if child.marginIsAuto(mainAxis.startEdge) { line.mainDim += autoMarginShare }
            if performLayout { child.setPosition(mainAxis, child.position(mainAxis) + line.mainDim) }
            if i != lastIndex { line.mainDim += betweenMainDim }
            if child.marginIsAuto(mainAxis.endEdge) { line.mainDim += autoMarginShare }
            if canSkipFlex {
                // Measuring with a fixed cross size: the bases are enough.
                line.mainDim += child.marginForAxis(mainAxis, availableInnerWidth)
                    + child.boundWithinMinAndMax(mainAxis, child.computedFlexBasis, childMainOwnerSize)
                line.crossDim = availableInnerCrossDim
            } else {
                line.mainDim += child.dimensionWithMargin(mainAxis, availableInnerWidth)
                if baselineLayout {
                    let ascent = child.baseline(last: alignment(of: child) == .baselineLast)
                        + child.margin(.top, availableInnerWidth)
                    let descent = child.measuredHeight + child.marginForAxis(.column, availableInnerWidth) - ascent
                    maxAscent = maxDefined(maxAscent, ascent)
                    maxDescent = maxDefined(maxDescent, descent)
                } else {
                    line.crossDim = maxDefined(line.crossDim, child.dimensionWithMargin(crossAxis, availableInnerWidth))
                }
            }
        }
        line.mainDim += trailingPB
        if baselineLayout { line.crossDim = maxAscent + maxDescent }
    }
}
