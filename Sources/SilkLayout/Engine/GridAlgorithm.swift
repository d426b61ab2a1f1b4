import SilkGeometry

// The grid algorithm (CSS Grid Layout Level 1, §8 placement and §11–12 track sizing), for
// `GridLayoutSpec`. Simplifications, all documented in docs/layout.md "Grid":
//  - An item's minimum contribution is its definite size (or min size) in points, else 0: items
//    have no automatic minimum size (as everywhere in Silk, and as the corpus's `min-width: 0`);
//    its min-content contribution is not computed separately from the max-content one.
//  - No implicit tracks before the explicit grid: a line before the first is the first.
//  - Gaps are points; no named lines or areas, no subgrid, no baseline alignment of items.

struct GridAlgorithm {
    let spec: GridLayoutSpec
    let range: SizeRange
    let context: LayoutContext

    init(_ spec: GridLayoutSpec, range: SizeRange, context: LayoutContext) {
        self.spec = spec; self.range = range; self.context = context
    }

    /// A placed item: 0-based first track and span on each axis.
    struct Area { var column: Int, columnSpan: Int, row: Int, rowSpan: Int }

    /// An item's contributions to the tracks it spans on one axis.
    struct Contribution { let start: Int; let span: Int; let minimum: Double; let maximum: Double }

    func run() throws(LayoutError) -> Layout {
        let items = spec.items.filter { $0.element.style.display != .none }
        let areas = place(items)
        let columnCount = max(spec.columns.count, areas.map { $0.column + $0.columnSpan }.max() ?? 0)
        let rowCount = max(spec.rows.count, areas.map { $0.row + $0.rowSpan }.max() ?? 0)
        let columnTracks = (0..<columnCount).map { $0 < spec.columns.count ? spec.columns[$0] : spec.autoColumns }
        let rowTracks = (0..<rowCount).map { $0 < spec.rows.count ? spec.rows[$0] : spec.autoRows }

        // Columns: definite when the range fixes the width; otherwise the grid is fit-content:
        // its max-content width, within the range, and the columns are sized again for that.
        var availableWidth = range.min.width == range.max.width && range.max.width.isFinite ? range.max.width : Double.nan
        let availableHeight = range.min.height == range.max.height && range.max.height.isFinite ? range.max.height : .nan
        let unknown = Size(width: Double.nan, height: .nan)

        // Max-content widths, measured once.
        var maxContent: [Size] = []
        maxContent.reserveCapacity(items.count)
        for item in items {
            maxContent.append(try item.element.layoutThatFits(.unconstrained, parentSize: unknown, context: context).size)
        }
        var columnContributions: [Contribution] = []
        for (i, item) in items.enumerated() {
            let s = item.element.style
            let margin = points(s.margin.left, availableWidth) + points(s.margin.right, availableWidth)
            columnContributions.append(Contribution(start: areas[i].column, span: areas[i].columnSpan,
                                                    minimum: minimumContribution(s.width, s.minWidth, s.maxWidth) + margin,
                                                    maximum: maxContent[i].width + margin))
        }
        var columnSizes = sizeTracks(columnTracks, gap: spec.columnGap, available: availableWidth,
                                     contributions: columnContributions, alignment: spec.justifyContent)
        if availableWidth.isNaN {
            let maxContentWidth = total(columnSizes, spec.columnGap)
            availableWidth = min(range.max.width, max(range.min.width, maxContentWidth))
            if availableWidth != maxContentWidth || columnTracks.contains(where: \.hasFraction) {
                columnSizes = sizeTracks(columnTracks, gap: spec.columnGap, available: availableWidth,
                                         contributions: columnContributions, alignment: spec.justifyContent)
            }
        }
        let gridWidth = availableWidth
        let columnStarts = trackStarts(columnSizes, gap: spec.columnGap, free: gridWidth - total(columnSizes, spec.columnGap),
                                       alignment: spec.justifyContent)

        // Each item's width in its area, then its height at that width (row contributions).
        var widths: [Double] = [], heights: [Double] = []
        var rowContributions: [Contribution] = []
        for (i, item) in items.enumerated() {
            let s = item.element.style
            let a = areas[i]
            let areaWidth = extent(columnStarts, columnSizes, a.column, a.columnSpan)
            let ml = points(s.margin.left, areaWidth), mr = points(s.margin.right, areaWidth)
            let bounds = s.sizeRange(parentSize: Size(width: areaWidth, height: availableHeight))
            var w: Double
            if let v = s.width.resolve(areaWidth) {
                w = v
            } else if (item.justifySelf ?? spec.justifyItems) == .stretch && !s.margin.left.isAuto && !s.margin.right.isAuto {
                w = areaWidth - ml - mr
            } else {
                // Fit-content: min(max-content, max(min-content, area)); min-content is taken
                // as the max-content width (see the file's header), so the max-content width.
                w = maxContent[i].width
            }
            w = max(0, min(bounds.max.width, max(bounds.min.width, w)))
            widths.append(w)
            // Percentage heights count as auto while the rows are sized (their area is not
            // known yet); they resolve against the area in the final layout.
            let measured = try item.element.layoutThatFits(
                SizeRange(min: Size(width: w, height: 0), max: Size(width: w, height: .infinity)),
                parentSize: Size(width: areaWidth, height: .nan), context: context)
            heights.append(measured.size.height)
            let mt = points(s.margin.top, areaWidth), mb = points(s.margin.bottom, areaWidth)
            rowContributions.append(Contribution(start: a.row, span: a.rowSpan,
                                                 minimum: minimumContribution(s.height, s.minHeight, s.maxHeight) + mt + mb,
                                                 maximum: measured.size.height + mt + mb))
        }
        var rowSizes = sizeTracks(rowTracks, gap: spec.rowGap, available: availableHeight,
                                  contributions: rowContributions, alignment: spec.alignContent)
        var gridHeight = availableHeight.isNaN ? total(rowSizes, spec.rowGap) : availableHeight
        gridHeight = min(range.max.height, max(range.min.height, gridHeight))
        // §12.1: with the height found, percentage rows resolve against it and the rows are
        // sized again (they may now overflow, which the content alignment then shows).
        if availableHeight.isNaN && (gridHeight != total(rowSizes, spec.rowGap) || rowTracks.contains(where: \.hasFraction)) {
            rowSizes = sizeTracks(rowTracks, gap: spec.rowGap, available: gridHeight,
                                  contributions: rowContributions, alignment: spec.alignContent)
        }
        let rowStarts = trackStarts(rowSizes, gap: spec.rowGap, free: gridHeight - total(rowSizes, spec.rowGap),
                                    alignment: spec.alignContent)
        let size = range.clamp(Size(width: gridWidth, height: gridHeight))

        // Final layout of each item in its area.
        var sublayouts: [Layout] = []
        sublayouts.reserveCapacity(spec.items.count)
        var placed = 0
        for item in spec.items {
            if item.element.style.display == .none {
                sublayouts.append(Layout(element: item.element, size: .zero))
                continue
            }
            let i = placed
            placed += 1
            let a = areas[i], s = item.element.style
            // Areas include the space content alignment put between their tracks.
            let areaX = columnStarts[a.column], areaY = rowStarts[a.row]
            let areaWidth = extent(columnStarts, columnSizes, a.column, a.columnSpan)
            let areaHeight = extent(rowStarts, rowSizes, a.row, a.rowSpan)
            let mt = points(s.margin.top, areaWidth), mb = points(s.margin.bottom, areaWidth)
            // Percentage heights resolve against the area.
            let percentBasis = areaHeight
            let bounds = s.sizeRange(parentSize: Size(width: areaWidth, height: percentBasis))
            let alignY = item.alignSelf ?? spec.alignItems
            var h: Double
            if let v = s.height.resolve(percentBasis) {
                h = v
            } else if alignY == .stretch && !s.margin.top.isAuto && !s.margin.bottom.isAuto {
                h = areaHeight - mt - mb
            } else {
                h = heights[i]
            }
            h = max(0, min(bounds.max.height, max(bounds.min.height, h)))
            let w = widths[i]
            let layout = try item.element.layoutThatFits(SizeRange(exactly: Size(width: w, height: h)),
                                                         parentSize: Size(width: areaWidth, height: percentBasis),
                                                         context: context)
            // Right-to-left, x is measured from the right edge, so the right margin is the start.
            let rtl = context.direction == .rtl
            let x = areaX + offset(item.justifySelf ?? spec.justifyItems, area: areaWidth, size: layout.size.width,
                                   start: rtl ? s.margin.right : s.margin.left, end: rtl ? s.margin.left : s.margin.right,
                                   basis: areaWidth)
            let y = areaY + offset(alignY, area: areaHeight, size: layout.size.height,
                                   start: s.margin.top, end: s.margin.bottom, basis: areaWidth)
            // Right-to-left: columns run from the right edge.
            let px = rtl ? size.width - x - layout.size.width : x
            sublayouts.append(layout.positioned(at: Point(x: px, y: y)))
        }
        return Layout(element: spec, size: size, sublayouts: sublayouts)
    }

    // MARK: - Placement (§8.5)

    /// Resolves definite lines, then auto-places the rest in the flow's order.
    func place(_ items: [GridItem]) -> [Area] {
        let columnFlow = spec.autoFlow.isColumn
        let dense = spec.autoFlow.isDense
        let limit = GridLayoutSpec.maximumTracks
        // Work in (major, minor) = (row, column) for row flow, (column, row) for column flow.
        let majorExplicit = columnFlow ? spec.columns.count : spec.rows.count
        let minorExplicit = columnFlow ? spec.rows.count : spec.columns.count
        struct Pending { var major: (Int, Int)?; var minor: (Int, Int)?; let majorSpan: Int; let minorSpan: Int }
        var pending: [Pending] = []
        for item in items {
            let majorPlacement = columnFlow ? item.column : item.row
            let minorPlacement = columnFlow ? item.row : item.column
            let major = resolve(majorPlacement, explicit: majorExplicit)
            let minor = resolve(minorPlacement, explicit: minorExplicit)
            pending.append(Pending(major: major, minor: minor, majorSpan: major?.1 ?? majorPlacement.span,
                                   minorSpan: minor?.1 ?? minorPlacement.span))
        }
        // The occupied cells, one bit per key (4,096 per major track), in words grown as tracks
        // are reached: a `Set<Int>` of the keys spent 8 % of a cold grid-dashboard layout hashing
        // (dense flow tests every cell from the start for each item). Keys are never negative.
        var occupied: [UInt64] = []
        @inline(__always) func key(_ major: Int, _ minor: Int) -> Int { major &* 4096 &+ minor }
        @inline(__always) func isOccupied(_ k: Int) -> Bool {
            let w = k >> 6
            return w < occupied.count && occupied[w] & (1 << UInt64(k & 63)) != 0
        }
        func fits(_ major: Int, _ majorSpan: Int, _ minor: Int, _ minorSpan: Int) -> Bool {
            for r in major..<(major + majorSpan) {
                for c in minor..<(minor + minorSpan) where isOccupied(key(r, c)) { return false }
            }
            return true
        }
        func mark(_ major: Int, _ majorSpan: Int, _ minor: Int, _ minorSpan: Int) {
            for r in major..<(major + majorSpan) {
                for c in minor..<(minor + minorSpan) {
                    let k = key(r, c), w = k >> 6
                    if w >= occupied.count { occupied.append(contentsOf: repeatElement(0, count: w + 1 - occupied.count)) }
                    occupied[w] |= 1 << UInt64(k & 63)
                }
            }
        }
        var out = [(Int, Int, Int, Int)?](repeating: nil, count: items.count)
        // 1. Both axes definite.
        for (i, p) in pending.enumerated() {
            if let major = p.major, let minor = p.minor {
                out[i] = (major.0, major.1, minor.0, minor.1)
                mark(major.0, major.1, minor.0, minor.1)
            }
        }
        // 2. Locked to a major track (a row in row flow): the first minor position that fits,
        // past earlier items of this step in that track (sparse); may add implicit tracks.
        var cursors: [Int: Int] = [:]
        for (i, p) in pending.enumerated() where out[i] == nil {
            guard let major = p.major else { continue }
            var minor = dense ? 0 : cursors[major.0, default: 0]
            while minor + p.minorSpan < limit && !fits(major.0, major.1, minor, p.minorSpan) { minor += 1 }
            minor = min(minor, limit - p.minorSpan)
            out[i] = (major.0, major.1, minor, p.minorSpan)
            mark(major.0, major.1, minor, p.minorSpan)
            cursors[major.0] = minor + p.minorSpan
        }
        // 3. The implicit grid's minor tracks: explicit, placed, definite, and the widest span.
        var minorCount = minorExplicit
        for (i, p) in pending.enumerated() {
            if let o = out[i] { minorCount = max(minorCount, o.2 + o.3) }
            if let m = p.minor { minorCount = max(minorCount, m.0 + m.1) } else { minorCount = max(minorCount, p.minorSpan) }
        }
        minorCount = min(max(minorCount, 1), limit)
        // 4. The rest, with the auto-placement cursor.
        var cursorMajor = 0, cursorMinor = 0
        for (i, p) in pending.enumerated() where out[i] == nil {
            let span = min(p.minorSpan, minorCount)
            if dense { cursorMajor = 0; cursorMinor = 0 }
            if let minor = p.minor {
                if !dense && minor.0 < cursorMinor { cursorMajor += 1 }
                cursorMinor = minor.0
                while cursorMajor < limit - 1 && !fits(cursorMajor, p.majorSpan, minor.0, minor.1) { cursorMajor += 1 }
                out[i] = (cursorMajor, p.majorSpan, minor.0, minor.1)
                mark(cursorMajor, p.majorSpan, minor.0, minor.1)
            } else {
                while cursorMajor < limit - 1 {
                    if cursorMinor + span > minorCount { cursorMajor += 1; cursorMinor = 0; continue }
                    if fits(cursorMajor, p.majorSpan, cursorMinor, span) { break }
                    cursorMinor += 1
                }
                out[i] = (cursorMajor, p.majorSpan, cursorMinor, span)
                mark(cursorMajor, p.majorSpan, cursorMinor, span)
                cursorMinor += span
            }
        }
        return out.map { o in
            let (major, majorSpan, minor, minorSpan) = o!
            let spanMajor = max(1, min(majorSpan, limit - major))
            let spanMinor = max(1, min(minorSpan, limit - minor))
            return columnFlow ? Area(column: major, columnSpan: spanMajor, row: minor, rowSpan: spanMinor)
                              : Area(column: minor, columnSpan: spanMinor, row: major, rowSpan: spanMajor)
        }
    }

    /// A placement's 0-based start and span when at least one line is given; nil for auto.
    func resolve(_ p: GridPlacement, explicit: Int) -> (Int, Int)? {
        func index(_ line: Int) -> Int {
            let l = line > 0 ? line - 1 : explicit + 1 + line   // −1: the last explicit line
            return min(max(0, l), GridLayoutSpec.maximumTracks - 1)
        }
        switch (p.start, p.end) {
        case (nil, nil): return nil
        case (let s?, nil): return (index(s), p.span)
        case (nil, let e?): let end = index(e); return (max(0, end - p.span), min(p.span, max(1, end)))
        case (let s?, let e?):
            var a = index(s), b = index(e)
            if b < a { swap(&a, &b) }
            return (a, max(1, b - a))
        }
    }

    // MARK: - Track sizing (§11)

    func sizeTracks(_ tracks: [GridTrack], gap: Double, available: Double, contributions: [Contribution],
                    alignment: GridContentAlignment) -> [Double] {
        let n = tracks.count
        if n == 0 { return [] }
        var base = [Double](repeating: 0, count: n)
        var limit = [Double](repeating: -1, count: n)   // −1: none yet (an intrinsic maximum)
        var flex = [Double](repeating: 0, count: n)
        var intrinsicMin = [Bool](repeating: false, count: n)
        var autoMax = [Bool](repeating: false, count: n)
        for (i, t) in tracks.enumerated() {
            switch t.min {
            case .points(let p): base[i] = max(0, p)
            case .fraction(let f) where available.isFinite: base[i] = max(0, f * available)
            default: intrinsicMin[i] = true
            }
            switch t.max {
            case .points(let p): limit[i] = max(0, p)
            case .fraction(let f) where available.isFinite: limit[i] = max(0, f * available)
            case .flex(let f): flex[i] = max(0, f)
            default: autoMax[i] = true
            }
            if !autoMax[i] && flex[i] == 0 && limit[i] < base[i] { limit[i] = base[i] }
        }
        let isFlex = flex.map { $0 > 0 }
        func crossesFlex(_ c: Contribution) -> Bool { (c.start..<(c.start + c.span)).contains { isFlex[$0] } }

        // §11.5 steps 2–3: items not crossing flexible tracks, by increasing span.
        let maxSpan = contributions.map(\.span).max() ?? 0
        // Base sizes first, then growth limits (an unset limit counts as the base size).
        for spanSize in 1...max(1, maxSpan) {
            let group = contributions.filter { $0.span == spanSize && !crossesFlex($0) }
            if group.isEmpty { continue }
            var newBase = base
            for c in group {
                let r = c.start..<(c.start + c.span)
                let mins = r.filter { intrinsicMin[$0] }
                let extra = c.minimum - gap * Double(c.span - 1) - r.reduce(0) { $0 + base[$1] }
                if extra > 0 && !mins.isEmpty {
                    // Up to the growth limits first, then beyond them in the auto-max tracks.
                    let inc = distribute(extra, mins, sizes: mins.map { base[$0] }, caps: mins.map { limit[$0] >= 0 ? limit[$0] : .infinity },
                                         beyond: mins.filter { autoMax[$0] })
                    for (k, t) in mins.enumerated() { newBase[t] = max(newBase[t], base[t] + inc[k]) }
                }
            }
            base = newBase
            for i in 0..<n where limit[i] >= 0 && limit[i] < base[i] { limit[i] = base[i] }
            var newLimit = limit
            for c in group {
                let r = c.start..<(c.start + c.span)
                let maxes = r.filter { autoMax[$0] }
                // §11.5 step 2: an item in one track sets that track's growth limit to its
                // max-content contribution, even 0 (the track is no longer infinitely growable,
                // so spanning items later grow the other tracks first).
                if c.span == 1, let t = maxes.first { newLimit[t] = max(newLimit[t], c.maximum) }
                let extra = c.maximum - gap * Double(c.span - 1) - r.reduce(0) { $0 + (limit[$1] >= 0 ? limit[$1] : base[$1]) }
                if extra > 0 && !maxes.isEmpty {
                    // Tracks whose limit no item has set yet ("infinitely growable") take the
                    // space first; set limits grow only when none is left.
                    let current = maxes.map { limit[$0] >= 0 ? limit[$0] : base[$0] }
                    let inc = distribute(extra, maxes, sizes: current,
                                         caps: maxes.map { limit[$0] >= 0 ? limit[$0] : .infinity }, beyond: maxes)
                    for (k, t) in maxes.enumerated() { newLimit[t] = max(newLimit[t], current[k] + inc[k]) }
                }
                // §11.5.1 step 3: an affected track's infinite growth limit becomes its base size
                // plus the increase, even when the item needed no space: a track crossed only by
                // spanning items stops being infinitely growable once a smaller span covered it,
                // so larger spans grow the other tracks (Chromium does so).
                for t in maxes where newLimit[t] < 0 { newLimit[t] = base[t] }
            }
            limit = newLimit
            for i in 0..<n where limit[i] >= 0 && limit[i] < base[i] { limit[i] = base[i] }
        }
        // Step 4: items crossing flexible tracks give those tracks base sizes (by flex factor).
        for c in contributions where crossesFlex(c) {
            let r = c.start..<(c.start + c.span)
            let flexTracks = r.filter { isFlex[$0] && intrinsicMin[$0] }
            let extra = c.minimum - gap * Double(c.span - 1) - r.reduce(0) { $0 + base[$1] }
            let factor = flexTracks.reduce(0) { $0 + flex[$1] }
            if extra > 0 && factor > 0 {
                for t in flexTracks { base[t] += extra * flex[t] / factor }
            }
        }
        for i in 0..<n where limit[i] < base[i] { limit[i] = base[i] }

        // §11.6 Maximize tracks: grow bases to limits with the free space (all of it when the
        // length is indefinite: the grid takes its max-content size).
        if available.isNaN {
            for i in 0..<n where !isFlex[i] { base[i] = limit[i] }
        } else {
            var free = available - total(base, gap)
            var growable = (0..<n).filter { !isFlex[$0] && limit[$0] > base[$0] }
            while free > 1e-9 && !growable.isEmpty {
                let share = free / Double(growable.count)
                for i in growable {
                    let add = min(share, limit[i] - base[i])
                    base[i] += add; free -= add
                }
                growable = growable.filter { limit[$0] > base[$0] + 1e-9 }
            }
        }

        // §11.7 Expand flexible tracks.
        if isFlex.contains(true) {
            var frSize = 0.0
            if available.isFinite {
                var flexible = (0..<n).filter { isFlex[$0] }
                while true {
                    let leftover = available - gap * Double(n - 1)
                        - (0..<n).filter { !flexible.contains($0) }.reduce(0) { $0 + base[$1] }
                    let factor = max(1, flexible.reduce(0) { $0 + flex[$1] })
                    frSize = max(0, leftover / factor)
                    let inflexible = flexible.filter { base[$0] > frSize * flex[$0] }
                    if inflexible.isEmpty { break }
                    flexible.removeAll { inflexible.contains($0) }
                    if flexible.isEmpty { break }
                }
            } else {
                for i in 0..<n where isFlex[i] { frSize = max(frSize, flex[i] > 1 ? base[i] / flex[i] : base[i]) }
                for c in contributions where crossesFlex(c) {
                    let r = c.start..<(c.start + c.span)
                    let fixed = r.filter { !isFlex[$0] }.reduce(0) { $0 + base[$1] }
                    let factor = max(1, r.filter { isFlex[$0] }.reduce(0) { $0 + flex[$1] })
                    frSize = max(frSize, (c.maximum - fixed - gap * Double(c.span - 1)) / factor)
                }
            }
            for i in 0..<n where isFlex[i] { base[i] = max(base[i], frSize * flex[i]) }
        }

        // §11.8 Stretch auto tracks into what is left.
        if alignment == .stretch && available.isFinite {
            let free = available - total(base, gap)
            let autos = (0..<n).filter { autoMax[$0] }
            if free > 0 && !autos.isEmpty {
                for i in autos { base[i] += free / Double(autos.count) }
            }
        }
        return base
    }

    /// §11.5.1: the increase of each of `tracks` (their current `sizes`, indexed like `tracks`)
    /// for `extra` space: equal shares, each track frozen at its cap; what is left goes equally
    /// to the `beyond` tracks (all of `tracks` when empty).
    func distribute(_ extra: Double, _ tracks: [Int], sizes: [Double], caps: [Double], beyond: [Int]) -> [Double] {
        var inc = [Double](repeating: 0, count: tracks.count)
        var remaining = extra
        let sized = sizes
        var active = tracks.indices.filter { sized[$0] < caps[$0] }
        while remaining > 1e-9 && !active.isEmpty {
            let share = remaining / Double(active.count)
            for k in active {
                let add = min(share, caps[k] - sized[k] - inc[k])
                inc[k] += add; remaining -= add
            }
            active = active.filter { sized[$0] + inc[$0] < caps[$0] - 1e-9 }
        }
        if remaining > 1e-9 {
            let targets = beyond.isEmpty ? tracks : beyond
            for (k, t) in tracks.enumerated() where targets.contains(t) { inc[k] += remaining / Double(targets.count) }
        }
        return inc
    }

    /// Where each track starts, with the content alignment's distribution of `free` (§10.5).
    func trackStarts(_ sizes: [Double], gap: Double, free: Double, alignment: GridContentAlignment) -> [Double] {
        let n = Double(sizes.count)
        var lead = 0.0, between = gap
        switch alignment {
        case .start, .stretch: break
        case .end: lead = free
        case .center: lead = free / 2
        case .spaceBetween: if free > 0 && sizes.count > 1 { between += free / (n - 1) }
        // The space-* values fall back to safe centring: overflowing tracks start at the start.
        case .spaceAround: if free > 0 { lead = free / n / 2; between += free / n }
        case .spaceEvenly: if free > 0 { lead = free / (n + 1); between += free / (n + 1) }
        }
        var out: [Double] = []
        out.reserveCapacity(sizes.count + 1)
        var x = lead
        for s in sizes { out.append(x); x += s + between }
        out.append(x)
        return out
    }

    // MARK: - Helpers

    /// The item's minimum contribution without its margins: a definite size, else its min size.
    func minimumContribution(_ size: Dimension, _ minSize: Dimension, _ maxSize: Dimension) -> Double {
        if case .points(let v) = size {
            let lo: Double
            if case .points(let m) = minSize { lo = m } else { lo = 0 }
            if case .points(let hi) = maxSize { return max(0, max(lo, min(v, hi))) }
            return max(0, lo, v)
        }
        if case .points(let v) = minSize { return max(0, v) }
        return 0
    }

    func points(_ d: Dimension, _ basis: Double) -> Double {
        let v = d.resolve(basis.isFinite ? basis : .nan) ?? 0
        return v.isFinite ? v : 0
    }

    func total(_ sizes: [Double], _ gap: Double) -> Double {
        sizes.isEmpty ? 0 : sizes.reduce(0, +) + gap * Double(sizes.count - 1)
    }

    /// The length of `count` tracks from `start`, with the gaps and distributed space between them.
    func extent(_ starts: [Double], _ sizes: [Double], _ start: Int, _ count: Int) -> Double {
        let last = min(sizes.count, start + count) - 1
        if last < start { return 0 }
        return starts[last] + sizes[last] - starts[start]
    }

    func span(_ sizes: [Double], _ start: Int, _ count: Int, _ gap: Double) -> Double {
        let end = min(sizes.count, start + count)
        if start >= end { return 0 }
        return sizes[start..<end].reduce(0, +) + gap * Double(end - start - 1)
    }

    /// The offset of an item of `size` in an area of `area` by its alignment and margins (auto
    /// margins take the free space, as in CSS).
    func offset(_ a: GridItemAlignment, area: Double, size: Double, start: Dimension, end: Dimension,
                basis: Double) -> Double {
        let ms = points(start, basis), me = points(end, basis)
        let free = area - size - ms - me
        if start.isAuto && end.isAuto { return max(0, free) / 2 }
        if start.isAuto { return ms + max(0, free) }
        if end.isAuto { return ms }
        switch a {
        case .start, .stretch: return ms
        case .end: return ms + free
        case .center: return ms + free / 2
        }
    }
}
