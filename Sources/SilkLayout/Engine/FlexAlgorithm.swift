import SilkGeometry

// The stack (flexbox) algorithm, written once for both axes: `mainAxis`/`crossAxis` are
// `FlexDirection`s and every length goes through an axis helper on `FlexBox`. Phase one
// (unpositioned: flex basis, lines, flexible lengths) is in FlexLines.swift; phase two
// (positioned: justification, alignment, lines, final size) is here; absolutely positioned
// children are in AbsoluteLayout.swift. Steps follow the CSS Flexible Box Layout spec §9 as
// Yoga's `CalculateLayout.cpp` organises them.
//
// Deviations from CSS (all shared with Yoga, whose browser-generated tests are the oracle):
//  - No automatic minimum size: `min-width/height: auto` is 0 (Texture does the same).
//  - `flexShrink` defaults to 0 (Texture, Yoga); `flexBasis` fractions of an unknown length
//    fall back to content size.
//  - Right-to-left: a row resolves to row-reverse (and back) and a column's cross axis runs
//    from the right, as in Yoga and the browser (Direction.swift).
//  - Baselines without `style.ascender` are synthesized from the first child (or the bottom edge).
// Where Yoga and the browser disagree, sixteen deviations follow the browser unless
// `yogaCompatible` (relative offsets on reversed axes, wrap-reverse padding, absolute
// children's percentage margins, a definite flex basis in an indefinite container, no stretch
// of percentage cross sizes, multi-line item margins, Yoga's single-flex-child shortcut,
// wrap-reverse item margins, stretching in multi-line containers (twice), relative offsets in
// an RTL row-reverse, a min size above the max size, a percentage flex basis of an indefinite
// main size, the `safe center` fallback of overflowing `space-around`/`space-evenly` lines and
// justification, overlapping insets of an absolute child with an auto margin), and twelve more where Yoga has no CSS intrinsic sizes or definiteness rules:
// intrinsic widths of stacks (IntrinsicSizes.swift: percentages as auto, flex bases, wrapping
// columns), children's percentage min/max of the container, no fit-content heights, indefinite
// heights of unflexed column items and of absolute boxes, auto margins of over-constrained
// absolute boxes, no single-flex-child shortcut when wrapping, auto margins counted per line,
// stretched items laid out again (docs/layout.md "Deviations"), with CSS's freezing loop for
// flexible lengths (`cssTargetMainSizes`). Otherwise
// Yoga's behaviour is kept where it differs from CSS: in Yoga mode relative offsets
// are applied from the flex-start edge (mirrored on reversed axes), multi-line alignment
// places items as Yoga does (see STEP 8), auto margins of an item that starts a new line
// also count in the previous one (Yoga mode only), and an inset-placed absolute child's percentage margins
// are of the containing block's length on that axis.
// Numerics: doubles instead of Yoga's floats; a cancelled flex-factor sum snaps to 0 and line
// breaking tolerates 0.0001 of rounding noise. Random trees agree with Yoga ~99 %; the rest
// are degenerate cases (min > max, every shrinking item frozen) where float rounding decides.
// Additions from Texture: `spacingBefore/After` (extra main-axis margins), `baselineLast`.

/// Cross-axis placement of one child, after `alignSelf` and the stack's `alignItems` are combined.
enum FlexAlign: UInt8 {
    case start, end, center, stretch, baselineFirst, baselineLast
    var isBaseline: Bool { self == .baselineFirst || self == .baselineLast }
}

extension FlexBox {
    /// The child's effective cross-axis alignment in this stack (Yoga `resolveChildAlignment`).
    @inline(__always)
    func alignment(of child: FlexBox) -> FlexAlign {
        let a: FlexAlign
        switch child.style.alignSelf {
        case .auto:
            switch stack?.alignItems ?? .stretch {
            case .start: a = .start
            case .end: a = .end
            case .center: a = .center
            case .stretch: a = .stretch
            case .baselineFirst: a = .baselineFirst
            case .baselineLast: a = .baselineLast
            }
        case .start: a = .start
        case .end: a = .end
        case .center: a = .center
        case .stretch: a = .stretch
        case .baselineFirst: a = .baselineFirst
        case .baselineLast: a = .baselineLast
        }
        // Baselines are horizontal: a vertical stack aligns them to the start.
        if a.isBaseline && !direction.isRow { return .start }
        // Only an auto cross size stretches (CSS §9.4 step 11): a percentage of an indefinite
        // length behaves as auto for sizing but does not stretch (Yoga stretches it).
        if a == .stretch && !yogaCompatible, case .fraction = direction.isRow ? child.style.height : child.style.width {
            return .start
        }
        return a
    }

    /// `spacing` (the gap between items on a line) resolved against the inner main length.
    @inline(__always) func mainGap(_ innerMain: Double) -> Double {
        guard let stack else { return 0 }
        let v = stack.spacing.value(innerMain)
        return v > 0 ? v : 0
    }
    @inline(__always) func crossGap(_ innerCross: Double) -> Double {
        guard let stack else { return 0 }
        let v = stack.lineSpacing.value(innerCross)
        return v > 0 ? v : 0
    }

    /// The inner (content-box) length available along `axis`, clamped by min/max
    /// (Yoga `calculateAvailableInnerDimension`).
    func availableInner(_ axis: FlexDirection, _ available: Double, _ paddingAndBorder: Double,
                        _ ownerSize: Double) -> Double {
        var inner = available - paddingAndBorder
        if !inner.isNaN {
            let minV = resolvedMin(axis, ownerSize), maxV = resolvedMax(axis, ownerSize)
            let minInner = minV.isNaN ? 0 : minV - paddingAndBorder
            let maxInner = maxV.isNaN ? Double.greatestFiniteMagnitude : maxV - paddingAndBorder
            inner = maxDefined(minDefined(inner, maxInner), minInner)
        }
        return inner
    }

    /// The layout of this box for the given available lengths (margin box) and modes.
    func layoutImpl(availableWidth: Double, availableHeight: Double, widthMode: SizingMode,
                    heightMode: SizingMode, ownerWidth: Double, ownerHeight: Double,
                    performLayout: Bool, context: LayoutContext) throws(LayoutError) {
        let marginRow = marginForAxis(.row, ownerWidth)
        let marginColumn = marginForAxis(.column, ownerWidth)
        if performLayout { layoutOwnerWidth = ownerWidth }

        guard let stack else {
            try measureElement(availableWidth: availableWidth - marginRow, availableHeight: availableHeight - marginColumn,
                               widthMode: widthMode, heightMode: heightMode, ownerWidth: ownerWidth,
                               ownerHeight: ownerHeight, performLayout: performLayout, context: context)
            return
        }
        if children.isEmpty {
            measureEmpty(availableWidth: availableWidth - marginRow, availableHeight: availableHeight - marginColumn,
                         widthMode: widthMode, heightMode: heightMode, ownerWidth: ownerWidth, ownerHeight: ownerHeight)
            return
        }
        if !performLayout && measureFixedSize(availableWidth: availableWidth - marginRow,
                                              availableHeight: availableHeight - marginColumn,
                                              widthMode: widthMode, heightMode: heightMode,
                                              ownerWidth: ownerWidth, ownerHeight: ownerHeight) {
            return
        }

        // The browser sizes a stack whose width is not given as fit-content from its items'
        // width contributions (IntrinsicSizes.swift), then lays it out at that width; Yoga lays
        // the items out into the available width and takes what they fill.
        var availableWidth = availableWidth, widthMode = widthMode
        if !yogaCompatible && widthMode != .exactly {
            var heightLimit = Double.nan
            if isWrap && !direction.isRow {
                let pbColumn = paddingAndBorderForAxis(.column, ownerWidth)
                if heightMode != .undefined {
                    heightLimit = boundAxis(.column, availableHeight - marginColumn, ownerHeight, ownerWidth) - pbColumn
                } else {
                    heightLimit = resolvedMax(.column, ownerHeight) - pbColumn
                }
            }
            let definite = heightMode == .exactly
            let hi = try intrinsicWidths(ownerWidth: ownerWidth, innerHeightLimit: heightLimit, limitIsDefinite: definite,
                                         needMin: false, context: context).max
            var w = hi
            if widthMode == .atMost && !availableWidth.isNaN && hi > availableWidth - marginRow {
                let lo = try intrinsicWidths(ownerWidth: ownerWidth, innerHeightLimit: heightLimit, limitIsDefinite: definite,
                                             context: context).min
                w = Swift.max(lo, availableWidth - marginRow)
            }
            availableWidth = boundAxis(.row, w, ownerWidth, ownerWidth) + marginRow
            widthMode = .exactly
        }

        // STEP 1: Axes, padding and border, and the inner lengths available to the children.
        let mainAxis = direction, crossAxis = crossDirection
        let isMainAxisRow = mainAxis.isRow
        let mainAxisOwnerSize = isMainAxisRow ? ownerWidth : ownerHeight
        let crossAxisOwnerSize = isMainAxisRow ? ownerHeight : ownerWidth
        let paddingAndBorderMain = paddingAndBorderForAxis(mainAxis, ownerWidth)
        let paddingAndBorderCross = paddingAndBorderForAxis(crossAxis, ownerWidth)
        let leadingPaddingAndBorderCross = leadingPaddingAndBorder(crossAxis, ownerWidth)
        var mainMode = isMainAxisRow ? widthMode : heightMode
        let crossMode = isMainAxisRow ? heightMode : widthMode
        let paddingAndBorderRow = isMainAxisRow ? paddingAndBorderMain : paddingAndBorderCross
        let paddingAndBorderColumn = isMainAxisRow ? paddingAndBorderCross : paddingAndBorderMain
        let availableInnerWidth = availableInner(.row, availableWidth - marginRow, paddingAndBorderRow, ownerWidth)
        let availableInnerHeight = availableInner(.column, availableHeight - marginColumn, paddingAndBorderColumn, ownerHeight)
        var availableInnerMainDim = isMainAxisRow ? availableInnerWidth : availableInnerHeight
        let availableInnerCrossDim = isMainAxisRow ? availableInnerHeight : availableInnerWidth

        // STEP 2–3: The flex base size of every in-flow child (§9.2).
        var totalMainDim = try computeFlexBasisForChildren(
            availableInnerWidth: availableInnerWidth, availableInnerHeight: availableInnerHeight,
            widthMode: widthMode, heightMode: heightMode, performLayout: performLayout, context: context)
        if children.count > 1 {
            totalMainDim += mainGap(availableInnerMainDim) * Double(children.count - 1)
        }
        // What the children's percentage min/max main sizes are of: the container's inner main
        // size when it is definite (Yoga takes the container's own owner size).
        let childMainOwnerSize = yogaCompatible ? mainAxisOwnerSize : (mainMode == .exactly ? availableInnerMainDim : .nan)
        let mainAxisOverflows = mainMode != .undefined && totalMainDim > availableInnerMainDim
        // A wrapping fit-content container that overflows is as wide as it may be.
        if isWrap && mainAxisOverflows && mainMode == .atMost { mainMode = .exactly }
        // The browser: a wrapping column broken at its max height is as high as its longest
        // line (laid out again at that height below); Yoga takes the whole available height.
        let columnWrapHugsLines = !yogaCompatible && isWrap && !isMainAxisRow && mainAxisOverflows
            && heightMode == .atMost
        var longestLine = 0.0

        // STEP 4: Collect items into lines (§9.3), then per line resolve flexible lengths (§9.7),
        // justify (§9.5) and align within the line (§9.6).
        var startIndex = 0
        var lineCount = 0
        var totalLineCrossDim = 0.0
        var maxLineMainDim = 0.0
        let lineGap = crossGap(availableInnerCrossDim)
        let baselineLayout = isBaselineLayout
        while startIndex < children.count {
            var line = collectLine(from: &startIndex, lineIndex: lineCount, mainAxis: mainAxis,
                                   mainAxisOwnerSize: childMainOwnerSize, availableInnerWidth: availableInnerWidth,
                                   availableInnerMainDim: availableInnerMainDim)
            // A measurement with a fixed cross size does not need the children's final sizes.
            let canSkipFlex = !performLayout && crossMode == .exactly

            // STEP 5: The line's free space. A content-sized container takes the line's length
            // (within its min/max) rather than the available length.
            var sizeBasedOnContent = false
            if mainMode != .exactly {
                let minInnerMain = resolvedMin(mainAxis, mainAxisOwnerSize) - paddingAndBorderMain
                let maxInnerMain = resolvedMax(mainAxis, mainAxisOwnerSize) - paddingAndBorderMain
                if !minInnerMain.isNaN && line.sizeConsumed < minInnerMain {
                    availableInnerMainDim = minInnerMain
                } else if !maxInnerMain.isNaN && line.sizeConsumed > maxInnerMain {
                    availableInnerMainDim = maxInnerMain
                } else {
                    if line.totalFlexGrowFactors == 0 || flexGrow == 0 {
                        availableInnerMainDim = line.sizeConsumed
                    }
                    sizeBasedOnContent = true
                }
            }
            if !sizeBasedOnContent && !availableInnerMainDim.isNaN {
                line.remainingFreeSpace = availableInnerMainDim - line.sizeConsumed
            } else if line.sizeConsumed < 0 {
                line.remainingFreeSpace = -line.sizeConsumed
            }

            if !canSkipFlex {
                try resolveFlexibleLengths(
                    &line, mainAxis: mainAxis, mainAxisOwnerSize: childMainOwnerSize,
                    availableInnerMainDim: availableInnerMainDim, availableInnerCrossDim: availableInnerCrossDim,
                    availableInnerWidth: availableInnerWidth, availableInnerHeight: availableInnerHeight,
                    mainAxisOverflows: mainAxisOverflows, crossMode: crossMode,
                    mainIndefinite: !yogaCompatible && childMainOwnerSize.isNaN, performLayout: performLayout,
                    context: context)
            }

            // STEP 6: Main-axis justification; also measures the line's cross length.
            justifyMainAxis(&line, mainAxis: mainAxis, mainMode: mainMode, crossMode: crossMode,
                            mainAxisOwnerSize: mainAxisOwnerSize, childMainOwnerSize: childMainOwnerSize,
                            ownerWidth: ownerWidth,
                            availableInnerMainDim: availableInnerMainDim,
                            availableInnerCrossDim: availableInnerCrossDim,
                            availableInnerWidth: availableInnerWidth, performLayout: performLayout,
                            baselineLayout: baselineLayout)

            var containerCrossAxis = availableInnerCrossDim
            if crossMode != .exactly {
                containerCrossAxis = boundAxis(crossAxis, line.crossDim + paddingAndBorderCross,
                                               crossAxisOwnerSize, ownerWidth) - paddingAndBorderCross
            }
            // A single line fills a definite cross length.
            if !isWrap && crossMode == .exactly { line.crossDim = availableInnerCrossDim }
            if !isWrap {
                line.crossDim = boundAxis(crossAxis, line.crossDim + paddingAndBorderCross,
                                          crossAxisOwnerSize, ownerWidth) - paddingAndBorderCross
            }

            // STEP 7: Cross-axis alignment of each item in its line (§9.4 stretch, §8.3).
            if performLayout {
                for child in line.items {
                    var leadingCrossDim = leadingPaddingAndBorderCross
                    let align = alignment(of: child)
                    let autoStart = child.marginIsAuto(crossAxis.startEdge)
                    let autoEnd = child.marginIsAuto(crossAxis.endEdge)
                    if align == .stretch && !autoStart && !autoEnd {
                        if !child.hasDefiniteLength(crossAxis, availableInnerCrossDim) {
                            try stretchChild(child, line: line, mainAxis: mainAxis,
                                             availableInnerMainDim: availableInnerMainDim, mainOwnerSize: childMainOwnerSize,
                                             availableInnerCrossDim: availableInnerCrossDim,
                                             availableInnerWidth: availableInnerWidth,
                                             availableInnerHeight: availableInnerHeight, context: context)
                        }
                    } else {
                        let remainingCrossDim = containerCrossAxis - child.dimensionWithMargin(crossAxis, availableInnerWidth)
                        if autoStart && autoEnd {
                            leadingCrossDim += Swift.max(0, remainingCrossDim / 2)
                        } else if autoEnd {
                            // Auto end margin: stays at the start.
                        } else if autoStart {
                            leadingCrossDim += Swift.max(0, remainingCrossDim)
                        } else if align == .start {
                        } else if align == .center {
                            leadingCrossDim += remainingCrossDim / 2
                        } else {
                            leadingCrossDim += remainingCrossDim
                        }
                    }
                    child.setPosition(crossAxis, child.position(crossAxis) + totalLineCrossDim + leadingCrossDim)
                }
            }
            totalLineCrossDim += line.crossDim + (lineCount != 0 ? lineGap : 0)
            maxLineMainDim = maxDefined(maxLineMainDim, line.mainDim)
            longestLine = Swift.max(longestLine, line.sizeConsumed)
            lineCount += 1
        }

        if columnWrapHugsLines {
            let height = boundAxis(.column, longestLine + paddingAndBorderMain, ownerHeight, ownerWidth)
            if height < availableHeight - marginColumn - 0.0001 {
                try layoutImpl(availableWidth: availableWidth, availableHeight: height + marginColumn,
                               widthMode: widthMode, heightMode: .exactly, ownerWidth: ownerWidth,
                               ownerHeight: ownerHeight, performLayout: performLayout, context: context)
                return
            }
        }

        // STEP 8: Multi-line containers: distribute lines (align-content, §9.4 step 15) and
        // align items within their line, including baselines.
        if performLayout && (isWrap || baselineLayout) {
            try alignLines(lineCount: lineCount, totalLineCrossDim: totalLineCrossDim, lineGap: lineGap,
                           mainAxis: mainAxis, crossMode: crossMode, crossAxisOwnerSize: crossAxisOwnerSize,
                           ownerWidth: ownerWidth, paddingAndBorderCross: paddingAndBorderCross,
                           leadingPaddingAndBorderCross: leadingPaddingAndBorderCross,
                           availableInnerCrossDim: availableInnerCrossDim, availableInnerWidth: availableInnerWidth,
                           availableInnerHeight: availableInnerHeight, context: context)
        }

        // STEP 9: The container's own size (§9.8 / §9.9): the available length when definite,
        // otherwise the content's, clamped by min/max.
        measuredWidth = boundAxis(.row, availableWidth - marginRow, ownerWidth, ownerWidth)
        measuredHeight = boundAxis(.column, availableHeight - marginColumn, ownerHeight, ownerWidth)
        let scrolls = style.overflow == .scroll
        if mainMode == .undefined || (!scrolls && mainMode == .atMost) {
            setMeasured(mainAxis, boundAxis(mainAxis, maxLineMainDim, mainAxisOwnerSize, ownerWidth))
        } else if mainMode == .atMost && scrolls {
            setMeasured(mainAxis, maxDefined(minDefined(availableInnerMainDim + paddingAndBorderMain,
                                                        boundWithinMinAndMax(mainAxis, maxLineMainDim, mainAxisOwnerSize)),
                                             paddingAndBorderMain))
        }
        if crossMode == .undefined || (!scrolls && crossMode == .atMost) {
            setMeasured(crossAxis, boundAxis(crossAxis, totalLineCrossDim + paddingAndBorderCross,
                                             crossAxisOwnerSize, ownerWidth))
        } else if crossMode == .atMost && scrolls {
            setMeasured(crossAxis, maxDefined(minDefined(availableInnerCrossDim + paddingAndBorderCross,
                                                         boundWithinMinAndMax(crossAxis, totalLineCrossDim + paddingAndBorderCross,
                                                                              crossAxisOwnerSize)),
                                              paddingAndBorderCross))
        }
        guard performLayout else { return }

        // STEP 10: From flex-relative to physical positions: mirror wrap-reverse lines and
        // reversed main axes, then apply relative offsets.
        let crossSize = measured(crossAxis), mainSize = measured(mainAxis)
        let wrapReverse = stack.flexWrap == .wrapReverse
        // A reversed cross axis (a column in RTL) was laid out from its start edge, the right.
        let mirrorCross = wrapReverse != crossAxis.isReverse
        // The browser keeps each padding on its own side under wrap-reverse (Yoga lays the lines
        // out from the cross-start padding and mirrors it to the other side).
        var wrapReverseShift = 0.0
        if wrapReverse && !yogaCompatible {
            let d = leadingPaddingAndBorder(crossAxis, ownerWidth) - trailingPaddingAndBorder(crossAxis, ownerWidth)
            wrapReverseShift = mirrorCross ? d : -d
        }
        let rowReversed = (mainAxis.isRow ? mainAxis : crossAxis).isReverse
        let columnReversed = (mainAxis.isRow ? crossAxis : mainAxis).isReverse
        for child in children where child.style.positionType != .absolute {
            if mirrorCross {
                child.setPosition(crossAxis, crossSize - child.position(crossAxis) - child.measured(crossAxis))
            }
            if mainAxis.isReverse && child.style.display != .none {
                child.setPosition(mainAxis, mainSize - child.position(mainAxis) - child.measured(mainAxis))
            }
            if wrapReverseShift != 0 { child.setPosition(crossAxis, child.position(crossAxis) + wrapReverseShift) }
            // Browser: relative offsets on a reversed axis, physically, after placement.
            if !yogaCompatible && child.style.display != .none {
                if rowReversed {
                    child.x += rtl ? -child.relativeOffset(.row, availableInnerWidth, rtl: true)
                                   : child.relativeOffset(.row, availableInnerWidth, rtl: false)
                }
                if columnReversed { child.y += child.relativeOffset(.column, availableInnerHeight, rtl: false) }
            }
        }

        // STEP 11: Absolutely positioned children (§4.1), also those of static descendants.
        if style.positionType != .static || isRoot {
            try layoutAbsoluteDescendants(containing: self, widthMode: isMainAxisRow ? mainMode : crossMode,
                                          offsetLeft: 0, offsetTop: 0, context: context)
        }
    }

    /// The offset a relatively positioned box is moved by along a physical axis: the inline-start
    /// inset if set (left, or right in a right-to-left parent), else minus the end inset.
    /// Measured towards the parent's inline end.
    func relativeOffset(_ axis: FlexDirection, _ axisSize: Double, rtl: Bool) -> Double {
        if hasNoInsets || style.positionType == .static { return 0 }
        let start = axis.isRow ? (rtl ? style.insets.right : style.insets.left) : style.insets.top
        if let start, !start.isAuto {
            let v = start.value(axisSize)
            return v.isNaN ? 0 : v
        }
        if let end = axis.isRow ? (rtl ? style.insets.left : style.insets.right) : style.insets.bottom {
            let v = end.value(axisSize)
            return v.isNaN ? 0 : -v
        }
        return 0
    }

    /// The inset on the flex-start edge of `axis` (Yoga `computeFlexStartPosition`), 0 when unset.
    func startInset(_ axis: FlexDirection, _ axisSize: Double) -> Double {
        let d: Dimension?
        switch axis.startEdge {
        case .left: d = style.insets.left
        case .top: d = style.insets.top
        case .right: d = style.insets.right
        case .bottom: d = style.insets.bottom
        }
        guard let d else { return 0 }
        let v = d.value(axisSize)
        return v.isNaN ? 0 : v
    }

    /// Re-lays out a child stretched to its line's cross length (§9.4 step 11).
    private func stretchChild(_ child: FlexBox, line: FlexLine, mainAxis: FlexDirection,
                              availableInnerMainDim: Double, mainOwnerSize: Double, availableInnerCrossDim: Double,
                              availableInnerWidth: Double, availableInnerHeight: Double,
                              context: LayoutContext) throws(LayoutError) {
        let crossAxis = crossDirection
        let isMainAxisRow = mainAxis.isRow
        var childMainSize = child.measured(mainAxis)
        var childCrossSize: Double
        if let ratio = child.style.aspectRatio {
            childCrossSize = child.marginForAxis(crossAxis, availableInnerWidth)
                + (isMainAxisRow ? childMainSize / ratio : childMainSize * ratio)
        } else {
            childCrossSize = line.crossDim
        }
        childMainSize += child.marginForAxis(mainAxis, availableInnerWidth)
        var childMainMode = SizingMode.exactly, childCrossMode = SizingMode.exactly
        child.constrainMaxSizeForMode(mainAxis, yogaCompatible ? availableInnerMainDim : mainOwnerSize, availableInnerWidth,
                                      &childMainMode, &childMainSize)
        child.constrainMaxSizeForMode(crossAxis, availableInnerCrossDim, availableInnerWidth, &childCrossMode, &childCrossSize)
        let childWidth = isMainAxisRow ? childMainSize : childCrossSize
        let keepOpen = !isMainAxisRow && child.heightIndefinite && !yogaCompatible
        let childHeight = isMainAxisRow ? childCrossSize : (keepOpen ? .nan : childMainSize)
        let crossAxisDoesNotGrow = (stack?.alignContent ?? .start) != .stretch && isWrap
        let widthMode: SizingMode = childWidth.isNaN || (!isMainAxisRow && crossAxisDoesNotGrow) ? .undefined : .exactly
        let heightMode: SizingMode = childHeight.isNaN || (isMainAxisRow && crossAxisDoesNotGrow) ? .undefined : .exactly
        let flexedHeight = child.measuredHeight
        try child.layoutInternal(availableWidth: childWidth, availableHeight: childHeight, widthMode: widthMode,
                                 heightMode: heightMode, ownerWidth: availableInnerWidth,
                                 ownerHeight: availableInnerHeight, performLayout: true, context: context)
        if keepOpen && !sameLength(child.measuredHeight, flexedHeight) {
            try child.layoutInternal(availableWidth: childWidth, availableHeight: childMainSize, widthMode: widthMode,
                                     heightMode: .exactly, ownerWidth: availableInnerWidth,
                                     ownerHeight: availableInnerHeight, performLayout: true, context: context)
        }
    }

    /// STEP 8 in detail: place lines by `alignContent` and items in each line by their
    /// alignment (Yoga's multi-line pass).
    private func alignLines(lineCount: Int, totalLineCrossDim: Double, lineGap: Double, mainAxis: FlexDirection,
                            crossMode: SizingMode, crossAxisOwnerSize: Double, ownerWidth: Double,
                            paddingAndBorderCross: Double, leadingPaddingAndBorderCross: Double,
                            availableInnerCrossDim: Double, availableInnerWidth: Double,
                            availableInnerHeight: Double, context: LayoutContext) throws(LayoutError) {
        let crossAxis = crossDirection
        var leadPerLine = 0.0
        var currentLead = leadingPaddingAndBorderCross
        var extraSpacePerLine = 0.0
        let unclampedCrossDim: Double
        if crossMode == .exactly {
            unclampedCrossDim = availableInnerCrossDim + paddingAndBorderCross
        } else if hasDefiniteLength(crossAxis, crossAxisOwnerSize) {
            unclampedCrossDim = resolvedDimension(crossAxis, crossAxisOwnerSize)
        } else {
            unclampedCrossDim = totalLineCrossDim + paddingAndBorderCross
        }
        let innerCrossDim = boundAxis(crossAxis, unclampedCrossDim, crossAxisOwnerSize, ownerWidth) - paddingAndBorderCross
        let remaining = innerCrossDim - totalLineCrossDim
        var alignContent = stack?.alignContent ?? .start
        if !(remaining >= 0) {
            switch alignContent {
            case .spaceBetween, .stretch: alignContent = .start
            case .spaceAround, .spaceEvenly:
                // `safe center`, as in justification: overflowing lines start at the block or
                // inline start, the flex-end side under `wrap-reverse` (Yoga: flex-start).
                alignContent = !yogaCompatible && stack?.flexWrap == .wrapReverse ? .end : .start
            default: break
            }
        }
        let lines = Double(lineCount)
        switch alignContent {
        case .start: break
        case .end: currentLead += remaining
        case .center: currentLead += remaining / 2
        case .stretch: extraSpacePerLine = remaining / lines
        case .spaceAround:
            currentLead += remaining / (2 * lines)
            leadPerLine = remaining / lines
        case .spaceEvenly:
            currentLead += remaining / (lines + 1)
            leadPerLine = remaining / (lines + 1)
        case .spaceBetween:
            if lineCount > 1 { leadPerLine = remaining / (lines - 1) }
        }

        let mirrored = (stack?.flexWrap == .wrapReverse) != crossAxis.isReverse
        var endIndex = 0
        for i in 0..<lineCount {
            let startIndex = endIndex
            var index = startIndex
            var lineHeight = 0.0, maxAscent = 0.0, maxDescent = 0.0
            while index < children.count {
                let child = children[index]
                if child.style.display == .none { index += 1; continue }
                if child.style.positionType != .absolute {
                    if child.lineIndex != i { break }
                    let m = child.measured(crossAxis)
                    if m >= 0 {
                        lineHeight = maxDefined(lineHeight, m + child.marginForAxis(crossAxis, availableInnerWidth))
                    }
                    let align = alignment(of: child)
                    if align.isBaseline {
                        let ascent = child.baseline(last: align == .baselineLast) + child.margin(.top, availableInnerWidth)
                        let descent = child.measuredHeight + child.marginForAxis(.column, availableInnerWidth) - ascent
                        maxAscent = maxDefined(maxAscent, ascent)
                        maxDescent = maxDefined(maxDescent, descent)
                        lineHeight = maxDefined(lineHeight, maxAscent + maxDescent)
                    }
                }
                index += 1
            }
            endIndex = index
            currentLead += i != 0 ? lineGap : 0
            lineHeight += extraSpacePerLine
            // Yoga's placements, kept exactly (the oracle's cases are those Yoga agrees on):
            // start uses the start inset and no margin, center ignores margins, and a stretched
            // item in a column is re-measured with its cross-axis margins.
            for child in children[startIndex..<endIndex] where child.isInFlow {
                let align = alignment(of: child)
                if !yogaCompatible && !align.isBaseline {
                    // The browser: every alignment keeps the item's cross margins, auto margins
                    // take the line's free space, and relative offsets still apply (on a
                    // reversed cross axis they are applied physically in STEP 10).
                    // Positions run from the physical left/top edge here and are mirrored in
                    // STEP 10 when wrap-reverse and a reversed cross axis do not cancel out, so the
                    // leading margin is the one on the edge that ends up at the line's start.
                    let leadEdge: Edge = crossAxis.isRow ? (mirrored ? .right : .left) : (mirrored ? .bottom : .top)
                    let trailEdge: Edge = crossAxis.isRow ? (mirrored ? .left : .right) : (mirrored ? .top : .bottom)
                    let autoStart = child.marginIsAuto(leadEdge), autoEnd = child.marginIsAuto(trailEdge)
                    let lead = child.margin(leadEdge, availableInnerWidth)
                    let free = lineHeight - child.measured(crossAxis) - lead - child.margin(trailEdge, availableInnerWidth)
                    var offset = 0.0
                    if autoStart || autoEnd {
                        offset = autoStart && autoEnd ? Swift.max(0, free / 2) : autoStart ? Swift.max(0, free) : 0
                    } else if align == .end {
                        offset = free
                    } else if align == .center {
                        offset = free / 2
                    }
                    let rel = crossAxis.isReverse ? 0
                        : (mirrored ? -1 : 1) * (crossAxis.isRow ? child.relativeOffset(.row, availableInnerWidth, rtl: rtl)
                                                 : child.relativeOffset(.column, availableInnerHeight, rtl: false))
                    child.setPosition(crossAxis, currentLead + lead + offset + rel)
                    if align == .stretch && !autoStart && !autoEnd && !child.hasDefiniteLength(crossAxis, availableInnerCrossDim) {
                        // The line's length only (Yoga adds the space align-content puts after it).
                        try restretch(child, lineHeight: lineHeight, mainAxis: mainAxis,
                                      availableInnerWidth: availableInnerWidth, availableInnerHeight: availableInnerHeight,
                                      context: context)
                    }
                    continue
                }
                switch align {
                case .start:
                    child.setPosition(crossAxis, currentLead + child.startInset(crossAxis, availableInnerWidth))
                case .end:
                    child.setPosition(crossAxis, currentLead + lineHeight
                                      - child.trailingMargin(crossAxis, availableInnerWidth) - child.measured(crossAxis))
                case .center:
                    child.setPosition(crossAxis, currentLead + (lineHeight - child.measured(crossAxis)) / 2)
                case .stretch:
                    child.setPosition(crossAxis, currentLead + child.leadingMargin(crossAxis, availableInnerWidth))
                    if !child.hasDefiniteLength(crossAxis, availableInnerCrossDim) {
                        try restretch(child, lineHeight: leadPerLine + lineHeight, mainAxis: mainAxis,
                                      availableInnerWidth: availableInnerWidth, availableInnerHeight: availableInnerHeight,
                                      context: context)
                    }
                case .baselineFirst, .baselineLast:
                    let b = child.baseline(last: alignment(of: child) == .baselineLast)
                    child.y = currentLead + maxAscent - b + child.startInset(.column, availableInnerCrossDim)
                }
            }
            currentLead += leadPerLine + lineHeight
        }
    }

    /// Lays a stretched item of a multi-line container out again across its line (in Yoga mode
    /// with Yoga's sizes: in a column the item's height counts its cross margins).
    private func restretch(_ child: FlexBox, lineHeight: Double, mainAxis: FlexDirection, availableInnerWidth: Double,
                           availableInnerHeight: Double, context: LayoutContext) throws(LayoutError) {
        let isMainAxisRow = mainAxis.isRow
        let childWidth = isMainAxisRow
            ? child.measuredWidth + child.marginForAxis(mainAxis, availableInnerWidth)
            : lineHeight
        // Yoga adds the cross-axis margins to a column item's height; the browser keeps its
        // height (its main-axis margins).
        let keepOpen = !isMainAxisRow && child.heightIndefinite && !yogaCompatible
        let childHeight = isMainAxisRow
            ? lineHeight
            : keepOpen ? .nan : child.measuredHeight + child.marginForAxis(yogaCompatible ? crossDirection : mainAxis, availableInnerWidth)
        // The browser lays a stretched item out again even at the same size: its cross size is
        // now definite, so percentages inside it resolve (§9.4 step 11).
        if !yogaCompatible || !(sameLength(childWidth, child.measuredWidth) && sameLength(childHeight, child.measuredHeight)) {
            let flexedHeight = child.measuredHeight
            try child.layoutInternal(availableWidth: childWidth, availableHeight: childHeight,
                                     widthMode: .exactly, heightMode: keepOpen ? .undefined : .exactly,
                                     ownerWidth: availableInnerWidth, ownerHeight: availableInnerHeight,
                                     performLayout: true, context: context)
            if keepOpen && !sameLength(child.measuredHeight, flexedHeight) {
                try child.layoutInternal(availableWidth: childWidth,
                                         availableHeight: flexedHeight + child.marginForAxis(mainAxis, availableInnerWidth),
                                         widthMode: .exactly, heightMode: .exactly,
                                         ownerWidth: availableInnerWidth, ownerHeight: availableInnerHeight,
                                         performLayout: true, context: context)
            }
        }
    }

    /// Whether items on a line align by baseline (Yoga `isBaselineLayout`).
    var isBaselineLayout: Bool {
        guard let stack, direction.isRow else { return false }
        if stack.alignItems == .baselineFirst || stack.alignItems == .baselineLast { return true }
        for child in children where child.style.positionType != .absolute {
            if child.style.alignSelf == .baselineFirst || child.style.alignSelf == .baselineLast { return true }
        }
        return false
    }

    /// Distance from the top edge to the first (or last) baseline: `style.ascender` /
    /// `descender` when set, else the first (last) in-flow child's, else the bottom edge.
    func baseline(last: Bool) -> Double {
        if !last, let a = style.ascender { return a }
        if last, let d = style.descender { return measuredHeight + d }
        if stack == nil, let b = contentBaselines {
            // Text: its own baselines, below this box's top padding and border.
            return (last ? b.last : b.first) + leadingPaddingAndBorder(.column, layoutOwnerWidth)
        }
        guard stack != nil, !children.isEmpty else { return measuredHeight }
        var chosen: FlexBox?
        if last {
            for child in children.reversed() where child.isInFlow { chosen = child; break }
        } else {
            for child in children where child.style.positionType != .absolute {
                if child.lineIndex > 0 { break }
                if alignment(of: child) == .baselineFirst { chosen = child; break }
                if chosen == nil { chosen = child }
            }
        }
        guard let chosen else { return measuredHeight }
        return chosen.baseline(last: last) + chosen.y
    }
}
