import SilkGeometry

// Absolutely positioned children (CSS Positioned Layout §4, Yoga `AbsoluteLayout.cpp`).
// The containing block is the nearest ancestor that is not `static` (or the root), at its
// padding box. Children of `static` boxes are laid out by that ancestor, so insets are relative
// to it, while a child with no insets keeps its static position in its own parent (from the
// parent's `justifyContent` and the child's alignment).

extension FlexBox {
    /// Lays out the absolute children of `self` (and, through static children, their
    /// descendants) against `containing`'s padding box. `offsetLeft/Top` give `self`'s position
    /// inside `containing`.
    func layoutAbsoluteDescendants(containing: FlexBox, widthMode: SizingMode, offsetLeft: Double,
                                   offsetTop: Double, context: LayoutContext) throws(LayoutError) {
        for child in children {
            if child.style.display == .none { continue }
            if child.style.positionType == .absolute {
                let blockWidth = containing.measuredWidth - containing.borderForAxis(.row)
                let blockHeight = containing.measuredHeight - containing.borderForAxis(.column)
                try layoutAbsoluteChild(child, containing: containing, blockWidth: blockWidth,
                                        blockHeight: blockHeight, widthMode: widthMode, context: context)
                // Inset-placed children were positioned in the containing block; make that
                // relative to their parent.
                let insets = child.style.insets
                if insets.left != nil || insets.right != nil { child.x -= offsetLeft }
                if insets.top != nil || insets.bottom != nil { child.y -= offsetTop }
            } else if child.style.positionType == .static && child.stack != nil {
                try child.layoutAbsoluteDescendants(containing: containing, widthMode: widthMode,
                                                    offsetLeft: offsetLeft + child.x, offsetTop: offsetTop + child.y,
                                                    context: context)
            }
        }
    }

    /// Sizes an absolute child (from its size, or from opposite insets, or its content) and
    /// positions it on both axes.
    private func layoutAbsoluteChild(_ child: FlexBox, containing: FlexBox, blockWidth: Double, blockHeight: Double,
                                     widthMode: SizingMode, context: LayoutContext) throws(LayoutError) {
        let mainAxis = direction
        let isMainAxisRow = mainAxis.isRow
        var childWidth = Double.nan, childHeight = Double.nan
        let marginRow = child.marginForAxis(.row, blockWidth)
        let marginColumn = child.marginForAxis(.column, blockWidth)
        let insets = child.style.insets
        child.contentBoxOwnerWidth = blockWidth

        if child.hasDefiniteLength(.row, blockWidth) {
            childWidth = child.resolvedDimension(.row, blockWidth) + marginRow
        } else if let l = insets.left, let r = insets.right, !l.isAuto, !r.isAuto {
            // Both horizontal insets: the width is what they leave.
            childWidth = containing.measuredWidth - containing.borderForAxis(.row)
                - (zeroIfNaN(l.value(blockWidth)) + zeroIfNaN(r.value(blockWidth)))
            childWidth = child.boundAxis(.row, childWidth, blockWidth, blockWidth)
        }
        if child.hasDefiniteLength(.column, blockHeight) {
            childHeight = child.resolvedDimension(.column, blockHeight) + marginColumn
        } else if let t = insets.top, let b = insets.bottom, !t.isAuto, !b.isAuto,
                  yogaCompatible || child.blockInsetBias.stretches {
            childHeight = containing.measuredHeight - containing.borderForAxis(.column)
                - (zeroIfNaN(t.value(blockHeight)) + zeroIfNaN(b.value(blockHeight)))
            childHeight = child.boundAxis(.column, childHeight, blockHeight, blockWidth)
        }
        if childWidth.isNaN != childHeight.isNaN, let ratio = child.style.aspectRatio {
            if childWidth.isNaN {
                childWidth = marginRow + (childHeight - marginColumn) * ratio
            } else {
                childHeight = marginColumn + (childWidth - marginRow) / ratio
            }
        }
        // The browser: an auto height (not from insets) stays indefinite for the child's own
        // children, so their percentage heights act as auto; the final layout keeps it open.
        var contentHeight = false
        if childWidth.isNaN || childHeight.isNaN {
            contentHeight = childHeight.isNaN && !yogaCompatible && child.stack != nil
            var wm: SizingMode = childWidth.isNaN ? .undefined : .exactly
            let hm: SizingMode = childHeight.isNaN ? .undefined : .exactly
            // In a column, an auto-width child fits inside the containing block.
            if !isMainAxisRow && childWidth.isNaN && widthMode != .undefined && blockWidth > 0 {
                childWidth = blockWidth
                wm = .atMost
            }
            try child.layoutInternal(availableWidth: childWidth, availableHeight: childHeight, widthMode: wm,
                                     heightMode: hm, ownerWidth: blockWidth, ownerHeight: blockHeight,
                                     performLayout: false, context: context)
            childWidth = child.measuredWidth + marginRow
            childHeight = child.measuredHeight + marginColumn
        }
        try child.layoutInternal(availableWidth: childWidth, availableHeight: contentHeight ? .nan : childHeight,
                                 widthMode: .exactly, heightMode: contentHeight ? .undefined : .exactly,
                                 ownerWidth: blockWidth, ownerHeight: blockHeight, performLayout: true, context: context)
        positionAbsoluteChild(child, containing: containing, axis: mainAxis, isMainAxis: true,
                              blockWidth: blockWidth, blockHeight: blockHeight)
        positionAbsoluteChild(child, containing: containing, axis: crossDirection, isMainAxis: false,
                              blockWidth: blockWidth, blockHeight: blockHeight)
    }

    /// Sets the child's physical position along `axis`: from the start inset, else the end
    /// inset (both within `containing`), else its static position in `self` by justification
    /// (main axis) or alignment (cross axis).
    private func positionAbsoluteChild(_ child: FlexBox, containing: FlexBox, axis: FlexDirection, isMainAxis: Bool,
                                       blockWidth: Double, blockHeight: Double) {
        let isRow = axis.isRow
        let blockSize = isRow ? blockWidth : blockHeight
        // The inline-start inset wins when both are set: the right one in a right-to-left parent.
        let flipped = isRow && rtl
        let startEdge: Edge = isRow ? (flipped ? .right : .left) : .top
        let endEdge: Edge = isRow ? (flipped ? .left : .right) : .bottom
        let insets = child.style.insets
        let start = isRow ? (flipped ? insets.right : insets.left) : insets.top
        let end = isRow ? (flipped ? insets.left : insets.right) : insets.bottom
        let physical: Double
        // Inset-placed: margins are fractions of the containing block's width, as in CSS (Yoga,
        // and yogaCompatible, take its length on this axis).
        let marginBasis = yogaCompatible ? blockSize : blockWidth
        // The browser: with both insets set, an auto margin on this axis takes what the insets,
        // the size and the other margin leave, negative too (CSS Positioned Layout §4.4, §4.5).
        let leadEdge: Edge = isRow ? .left : .top, trailEdge: Edge = isRow ? .right : .bottom
        // `align-self` places it vertically in the insets' area (no auto margin there).
        let bias = child.blockInsetBias
        if !yogaCompatible && !isRow && bias != .normal, let t = insets.top, let b = insets.bottom, !t.isAuto, !b.isAuto,
           !child.marginIsAuto(.top) && !child.marginIsAuto(.bottom) {
            let y = alignedInInsetArea(start: zeroIfNaN(t.value(blockSize)), end: zeroIfNaN(b.value(blockSize)),
                                       blockSize: blockSize, bias: bias,
                                       outerSize: child.measured(axis) + child.margin(.top, marginBasis) + child.margin(.bottom, marginBasis))
            child.setPosition(axis, containing.border(.top) + y + child.margin(.top, marginBasis))
            return
        }
        if !yogaCompatible, let l = isRow ? insets.left : insets.top, let r = isRow ? insets.right : insets.bottom,
           !l.isAuto, !r.isAuto, child.marginIsAuto(leadEdge) || child.marginIsAuto(trailEdge) {
            let autoLead = child.marginIsAuto(leadEdge), autoTrail = child.marginIsAuto(trailEdge)
            let lv = zeroIfNaN(l.value(blockSize)), rv = zeroIfNaN(r.value(blockSize))
            // The inset-modified containing block is clamped to zero size at its start edge
            // when the insets overlap (§4.1); the end inset gives way.
            let area = max(0, blockSize - lv - rv)
            var free = area - child.measured(axis)
            if !autoLead { free -= child.margin(leadEdge, marginBasis) }
            if !autoTrail { free -= child.margin(trailEdge, marginBasis) }
            let lead: Double
            if autoLead && autoTrail {
                // Equal halves; without room the inline-end margin takes the overflow.
                lead = free >= 0 ? free / 2 : (flipped ? free : 0)
            } else if autoLead {
                lead = free
            } else {
                lead = child.margin(leadEdge, marginBasis)
            }
            let areaStart = flipped && blockSize - lv - rv < 0 ? blockSize - rv : lv
            child.setPosition(axis, containing.border(leadEdge) + areaStart + lead)
            return
        }
        if let start, !start.isAuto {
            let fromStart = zeroIfNaN(start.value(blockSize)) + containing.border(startEdge) + child.margin(startEdge, marginBasis)
            physical = flipped ? containing.measured(axis) - child.measured(axis) - fromStart : fromStart
        } else if let end, !end.isAuto {
            let fromStart = containing.measured(axis) - child.measured(axis) - containing.border(endEdge)
                - child.margin(endEdge, marginBasis) - zeroIfNaN(end.value(blockSize))
            physical = flipped ? containing.measured(axis) - child.measured(axis) - fromStart : fromStart
        } else {
            enum Placement { case start, center, end }
            var placement: Placement
            if isMainAxis {
                switch stack?.justifyContent ?? .start {
                case .start, .spaceBetween: placement = .start
                case .end: placement = .end
                case .center, .spaceAround, .spaceEvenly: placement = .center
                }
            } else {
                var align = alignment(of: child)
                if stack?.flexWrap == .wrapReverse {
                    align = align == .end ? .start : (align == .center ? .center : .end)
                }
                switch align {
                case .end: placement = .end
                case .center: placement = .center
                default: placement = .start
                }
            }
            let ownPadding = layoutOwnerWidth
            let flexStart = axis.startEdge, flexEnd = axis.endEdge
            let fromFlexStart: Double
            switch placement {
            case .start:
                fromFlexStart = child.margin(flexStart, blockWidth) + border(flexStart) + padding(flexStart, ownPadding)
            case .end:
                fromFlexStart = measured(axis) - child.measured(axis)
                    - (border(flexEnd) + padding(flexEnd, ownPadding) + child.margin(flexEnd, blockWidth))
            case .center:
                let contentSize = measured(axis) - border(flexStart) - border(flexEnd)
                    - padding(flexStart, ownPadding) - padding(flexEnd, ownPadding)
                let outer = child.measured(axis) + child.marginForAxis(axis, blockWidth)
                fromFlexStart = (contentSize - outer) / 2 + border(flexStart) + padding(flexStart, ownPadding)
                    + child.margin(flexStart, blockWidth)
            }
            physical = axis.isReverse ? measured(axis) - child.measured(axis) - fromFlexStart : fromFlexStart
        }
        child.setPosition(axis, physical)
    }
}

/// How an absolutely positioned box with both vertical insets sits in the area they leave
/// (the inset-modified containing block, CSS Positioned Layout §4.1, §4.4; CSS Box Alignment
/// §6.1): by its own `align-self`, where `auto` means `normal` (the parent's `align-items`
/// does not apply to a box that is not a flex item) and `flex-start`/`flex-end` mean the
/// block's start and end.
enum AbsoluteInsetBias {
    /// `auto`: stretched, and an overflowing box overflows at the end.
    case normal
    case start, center, end
    /// `stretch`: sized as `normal`, but placed like `start` alignment.
    case stretch

    /// `normal` and `stretch` make an auto height fill the area; the others size to content.
    var stretches: Bool { self == .normal || self == .stretch }

    /// The part of a change of the area's length taken at its start edge.
    func share(of amount: Double) -> Double {
        switch self {
        case .normal, .start, .stretch: 0
        case .center: amount / 2
        case .end: amount
        }
    }
}

extension FlexBox {
    var blockInsetBias: AbsoluteInsetBias {
        switch style.alignSelf {
        case .auto: .normal
        case .start, .baselineFirst, .baselineLast: .start
        case .center: .center
        case .end: .end
        case .stretch: .stretch
        }
    }

    /// The offset of the margin box from the containing block's padding edge, given the start
    /// and end insets resolved against `blockSize`: the area is clamped to zero length at its
    /// start edge (§4.1; Chromium keeps the start edge whatever the alignment: a centred box
    /// 13 high with `top: 35, bottom: 18` in a 0-high block lands at 22), the box is aligned in it, and (alignment other than
    /// `normal`, CSS Box Alignment §4.4 "default overflow alignment") a box overflowing the area
    /// is shifted to stay inside the containing block, its start edge first (Chromium's
    /// `ComputeInsets` in absolute_utils.cc does the same).
    func alignedInInsetArea(start: Double, end: Double, blockSize: Double, bias: AbsoluteInsetBias,
                            outerSize: Double) -> Double {
        var s = start, e = end
        let length = blockSize - s - e
        if length < 0 { e += length }
        let clampedStart = s, clampedEnd = e
        let free = blockSize - s - e - outerSize
        let atStart = bias.share(of: free)
        s += atStart; e += free - atStart
        let safeEnd = min(clampedEnd, 0)
        if e < safeEnd { s += e - safeEnd; e = safeEnd }
        let safeStart = min(clampedStart, 0)
        if s < safeStart { e += s - safeStart; s = safeStart }
        return s
    }
}

@inline(__always) func zeroIfNaN(_ v: Double) -> Double { v.isNaN ? 0 : v }
