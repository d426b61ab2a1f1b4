import SilkGeometry

// Intrinsic widths of stacks, as the browser computes them (browser mode only; Yoga has none).
//
// A stack whose width is not fixed by its parent (a fit-content column item, an absolutely
// positioned box, a row item measured for its flex basis) is, in CSS, as wide as
// `min(max-content, max(min-content, available))` (CSS Sizing §5.2, Flexbox §9.9.1). Chromium
// computes a flex container's max-content width from its items' *contributions*: each item's
// `width` within its min/max, or its own max-content width when `width` is `auto`, plus its
// margins — not from flex base sizes (`flex-basis` does not count), and a percentage of the
// container's yet unknown width counts as `auto` (a percentage margin or padding as 0, a
// percentage min as 0, a percentage max as none; CSS Sizing §5.2.1 "cyclic percentages").
// A row sums the contributions (min-content too when it does not wrap, else the largest), a
// column takes the largest. Yoga instead lays the items out into the available width and
// sums their bases, resolving percentages against that width.

extension FlexBox {
    /// The min-content and max-content border-box widths of this stack, its own padding and
    /// border resolved against `ownerWidth`.
    /// `innerHeightLimit` is the inner height a wrapping column breaks its lines at (NaN: none);
    /// when that height is definite (`limitIsDefinite`: a fixed or flexed height, not a max),
    /// the items' percentage heights are of it, as in Chromium.
    /// Without `needMin` only the max-content width is computed (`min` is then meaningless):
    /// a fit-content width needs the min-content one only when the max-content one overflows.
    func intrinsicWidths(ownerWidth: Double, innerHeightLimit: Double, limitIsDefinite: Bool = false, needMin: Bool = true,
                         context: LayoutContext) throws(LayoutError) -> (min: Double, max: Double) {
        if isWrap && !direction.isRow {
            let (lo, hi) = try columnWrapContentWidths(innerHeightLimit: innerHeightLimit,
                                                       percentBase: limitIsDefinite ? innerHeightLimit : .nan,
                                                       needMin: needMin, context: context)
            let pb = paddingAndBorderForAxis(.row, ownerWidth)
            return (lo + pb, hi + pb)
        }
        let pb = paddingAndBorderForAxis(.row, ownerWidth)
        if !needMin && intrinsicContentWidths.min.isNaN {
            let c = try computeIntrinsicContentWidths(needMin: false, context: context)
            return (c.max + pb, c.max + pb)
        }
        if intrinsicContentWidths.min.isNaN { intrinsicContentWidths = try computeIntrinsicContentWidths(needMin: true, context: context) }
        return (intrinsicContentWidths.min + pb, intrinsicContentWidths.max + pb)
    }

    /// The content-box part (the children's contributions), which does not depend on the owner.
    private func computeIntrinsicContentWidths(needMin: Bool, context: LayoutContext) throws(LayoutError) -> (min: Double, max: Double) {
        var lo = 0.0, hi = 0.0
        var count = 0
        let row = direction.isRow
        let needMin = needMin || (row && isWrap)   // a wrapping row's max-content needs its min-content
        for child in children where child.isInFlow {
            var (cMin, cMax) = try child.widthContributions(needMin: needMin, context: context)
            // A wrapping row's min-content width is its widest item's own min-content
            // contribution, flex basis or not (Chromium), and its max-content is never less.
            let ownMin = cMin
            if row { child.flexAdjustContributions(&cMin, &cMax) }
            if row && isWrap { cMin = ownMin }
            if row {
                hi += cMax
                lo = isWrap ? Swift.max(lo, cMin) : lo + cMin
            } else {
                hi = Swift.max(hi, cMax)
                lo = Swift.max(lo, cMin)
            }
            count += 1
        }
        if row && isWrap { hi = Swift.max(hi, lo) }
        if row && count > 1, let stack {
            // A percentage gap of an unknown width is 0.
            let gap = Swift.max(0, zeroIfNaN(stack.spacing.value(.nan))) * Double(count - 1)
            hi += gap
            if !isWrap { lo += gap }
        }
        return (lo, hi)
    }

    /// A wrapping column is as wide as its lines side by side (Chromium): items are broken into
    /// lines by their hypothetical heights (each laid out at its max-content width) within
    /// `innerHeightLimit`, and each line is as wide as its widest item.
    private func columnWrapContentWidths(innerHeightLimit: Double, percentBase: Double, needMin: Bool,
                                         context: LayoutContext) throws(LayoutError) -> (min: Double, max: Double) {
        var lo = 0.0, hi = 0.0, lineLo = 0.0, lineHi = 0.0, used = 0.0
        var lines = 0, inLine = 0
        let gap = mainGap(.nan)
        for child in children where child.isInFlow {
            let (cMin, cMax) = try child.widthContributions(needMin: needMin, context: context)
            let outerHeight = try child.hypotheticalHeight(outerWidth: cMax, percentBase: percentBase, context: context)
                + zeroIfNaN(child.style.margin.top.value(.nan)) + zeroIfNaN(child.style.margin.bottom.value(.nan))
            let needed = (inLine > 0 ? gap : 0) + outerHeight
            if inLine > 0 && !innerHeightLimit.isNaN && used + needed > innerHeightLimit + 0.0001 {
                lo += lineLo; hi += lineHi; lines += 1
                lineLo = 0; lineHi = 0; used = 0; inLine = 0
            }
            used += inLine > 0 ? needed : outerHeight
            lineLo = Swift.max(lineLo, cMin); lineHi = Swift.max(lineHi, cMax)
            inLine += 1
        }
        if inLine > 0 { lo += lineLo; hi += lineHi; lines += 1 }
        if lines > 1, let stack {
            let g = Swift.max(0, zeroIfNaN(stack.lineSpacing.value(.nan))) * Double(lines - 1)
            lo += g; hi += g
        }
        return (lo, hi)
    }

    /// The item's flex basis as a column item (its height) within its min/max, the content's
    /// height laid out at `outerWidth` when neither flex basis nor height is given in points
    /// (or as a percentage of a definite `percentBase`, the column's inner height).
    private func hypotheticalHeight(outerWidth: Double, percentBase: Double, context: LayoutContext) throws(LayoutError) -> Double {
        var h = Double.nan
        let pbColumn = isContentBox ? paddingAndBorderForAxis(.column, .nan) : 0
        switch style.flexBasis {
        case .points(let b): h = b + pbColumn
        case .fraction(let f) where !percentBase.isNaN: h = f * percentBase + pbColumn
        default: break
        }
        if h.isNaN {
            let v = dimension(.column).value(percentBase)
            if !v.isNaN { h = v + pbColumn }
        }
        if h.isNaN {
            try layoutInternal(availableWidth: outerWidth, availableHeight: .nan, widthMode: .exactly,
                               heightMode: .undefined, ownerWidth: .nan, ownerHeight: percentBase,
                               performLayout: false, context: context)
            h = measuredHeight
        }
        let maxV = style.maxHeight.value(percentBase), minV = style.minHeight.value(percentBase)
        if maxV >= 0 && h > maxV { h = maxV }
        if minV >= 0 && h < minV { h = minV }
        return Swift.max(h, paddingAndBorderForAxis(.column, .nan))
    }

    /// This box's outer min-content and max-content contributions to its parent's width.
    private func widthContributions(needMin: Bool, context: LayoutContext) throws(LayoutError) -> (min: Double, max: Double) {
        // Percentages of the unknown width: padding and margins 0, the width `auto`.
        let pb = paddingAndBorderForAxis(.row, .nan)
        var lo: Double, hi: Double
        var fixed = resolvedDimensionIgnoringPercentages(.row)
        if fixed.isNaN, let ratio = style.aspectRatio {
            let h = resolvedDimensionIgnoringPercentages(.column)
            if !h.isNaN { fixed = h * ratio }
        }
        if !fixed.isNaN {
            lo = fixed; hi = fixed
        } else if stack != nil {
            if children.isEmpty {
                lo = pb; hi = pb
            } else {
                var limit = resolvedDimensionIgnoringPercentages(.column)
                let definite = !limit.isNaN
                if limit.isNaN { limit = style.maxHeight.value(.nan) }
                (lo, hi) = try intrinsicWidths(ownerWidth: .nan, innerHeightLimit: limit - paddingAndBorderForAxis(.column, .nan),
                                               limitIsDefinite: definite, needMin: needMin,
                                               context: context)
            }
        } else {
            // Another element: its size with no room (min-content) and with unlimited room.
            let wide = try measuredContentWidth(maxWidth: .infinity, context: context)
            let narrow = needMin ? try measuredContentWidth(maxWidth: 0, context: context) : wide
            lo = narrow + pb; hi = wide + pb
        }
        let margins = intrinsicMargins
        return (clampToMinMaxIgnoringPercentages(lo) + margins, clampToMinMaxIgnoringPercentages(hi) + margins)
    }

    /// A row item's contributions with its flex basis (Chromium's row intrinsic sizing, after
    /// CSS Flexbox §9.9.1): an item with a definite basis contributes that basis, unless it may
    /// grow (to a larger contribution) or shrink (to a smaller one), within its min/max.
    /// A percentage basis of the unknown width leaves the contribution as it is.
    private func flexAdjustContributions(_ lo: inout Double, _ hi: inout Double) {
        guard case .points(var base) = style.flexBasis else { return }
        let pb = paddingAndBorderForAxis(.row, .nan)
        if isContentBox { base += pb }
        base = clampToMinMaxIgnoringPercentages(Swift.max(base, pb))
        let margins = intrinsicMargins
        func adjusted(_ outer: Double) -> Double {
            let size = outer - margins
            if size > base { return (flexGrow > 0 ? size : base) + margins }
            if size < base { return (flexShrink > 0 ? size : base) + margins }
            return outer
        }
        lo = adjusted(lo); hi = adjusted(hi)
    }

    /// Margins as intrinsic sizing counts them (percentages and `auto` as 0).
    private var intrinsicMargins: Double {
        zeroIfNaN(style.margin.left.value(.nan)) + zeroIfNaN(style.margin.right.value(.nan))
            + spacingMargins.left + spacingMargins.right
    }

    /// `v` within the min and max width that are numbers of points (never below padding and border).
    private func clampToMinMaxIgnoringPercentages(_ v: Double) -> Double {
        let maxV = style.maxWidth.value(.nan), minV = style.minWidth.value(.nan)
        var v = v
        if maxV >= 0 && v > maxV { v = maxV }
        if minV >= 0 && v < minV { v = minV }
        return Swift.max(v, paddingAndBorderForAxis(.row, .nan))
    }

    /// The width or height when it is a number of points (content-box sizes with their padding
    /// and border), NaN for `auto` and percentages.
    private func resolvedDimensionIgnoringPercentages(_ axis: FlexDirection) -> Double {
        let v = dimension(axis).value(.nan)
        return isContentBox && !v.isNaN ? v + paddingAndBorderForAxis(axis, .nan) : v
    }

    private func measuredContentWidth(maxWidth: Double, context: LayoutContext) throws(LayoutError) -> Double {
        let range = SizeRange(min: Size(width: 0, height: 0), max: Size(width: maxWidth, height: .infinity))
        return try elementLayout(range, context: context).size.width
    }
}
