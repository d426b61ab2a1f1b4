import SilkGeometry

// CSS Grid's essentials as a layout spec, for kiosk dashboards: fixed, percentage, `fr`, `auto`
// and `minmax()` tracks, gaps, spans, explicit and automatic placement (row or column flow,
// sparse or dense), item and content alignment, right-to-left. Checked against Chromium by the
// grid corpus (Fixtures/chromium-grid.json, docs/layout.md "Grid").

/// One end of a grid track's size range (CSS `<track-breadth>`).
public enum GridTrackBreadth: Hashable, Sendable {
    /// A fixed length in points.
    case points(Double)
    /// A fraction (0.5 = 50 %) of the grid's content-box length on that axis; `auto` when that
    /// length is not known.
    case fraction(Double)
    /// A share of the free space (CSS `fr`); only meaningful as a track's maximum (a `flex`
    /// minimum is `auto`, as in CSS).
    case flex(Double)
    /// From the items' contents: the minimum sizes of the items as a minimum, their max-content
    /// sizes as a maximum (and auto tracks stretch into left-over space).
    case auto
}

/// A track's size: `minmax(min, max)` (a single breadth is both, except that `fr` alone is
/// `minmax(auto, fr)`, as in CSS).
public struct GridTrack: Hashable, Sendable, CustomStringConvertible {
    /// The least the track may be.
    public var min: GridTrackBreadth
    /// The most the track grows to from its contents (or its share of free space for `flex`).
    public var max: GridTrackBreadth

    /// `minmax(min, max)`; a `flex` minimum is `auto`.
    public init(min: GridTrackBreadth, max: GridTrackBreadth) {
        if case .flex = min { self.min = .auto } else { self.min = min }
        self.max = max
    }
    var hasFraction: Bool {
        if case .fraction = min { return true }
        if case .fraction = max { return true }
        return false
    }
    /// A track of exactly `v` points.
    public static func points(_ v: Double) -> GridTrack { GridTrack(min: .points(v), max: .points(v)) }
    /// A track of a fraction (0.5 = 50 %) of the grid's length.
    public static func fraction(_ f: Double) -> GridTrack { GridTrack(min: .fraction(f), max: .fraction(f)) }
    /// `N fr`: `minmax(auto, N fr)`.
    public static func fr(_ v: Double) -> GridTrack { GridTrack(min: .auto, max: .flex(v)) }
    /// `auto`: sized by the items.
    public static let auto = GridTrack(min: .auto, max: .auto)
    /// `minmax(min, max)`.
    public static func minmax(_ min: GridTrackBreadth, _ max: GridTrackBreadth) -> GridTrack {
        GridTrack(min: min, max: max)
    }

    public var description: String {
        func b(_ v: GridTrackBreadth) -> String {
            switch v {
            case .points(let p): return formatPoints(p)
            case .fraction(let f): return formatPoints(f * 100) + "%"
            case .flex(let f): return formatPoints(f) + "fr"
            case .auto: return "auto"
            }
        }
        if min == max { return b(min) }
        if min == .auto, case .flex = max { return b(max) }
        return "minmax(\(b(min)), \(b(max)))"
    }
}

/// How items without a definite place fill the grid (CSS `grid-auto-flow`).
public enum GridAutoFlow: Hashable, Sendable {
    /// Row by row, never going back (`row`).
    case row
    /// Column by column (`column`).
    case column
    /// Row by row, filling earlier holes (`row dense`).
    case rowDense
    /// Column by column, filling earlier holes (`column dense`).
    case columnDense
    var isColumn: Bool { self == .column || self == .columnDense }
    var isDense: Bool { self == .rowDense || self == .columnDense }
}

/// Where an item sits in its grid area on one axis (CSS `justify-self`/`align-self`).
public enum GridItemAlignment: Hashable, Sendable {
    /// Fill the area (items with an `auto` size on that axis; others sit at the start).
    case stretch
    case start, center, end
}

/// Distribution of left-over space between tracks (CSS `justify-content`/`align-content`).
public enum GridContentAlignment: Hashable, Sendable {
    /// Auto tracks grow to fill the space (CSS `normal`).
    case stretch
    case start, center, end, spaceBetween, spaceAround, spaceEvenly
}

/// A grid line or span on one axis (CSS `grid-column`/`grid-row`). Lines count from 1; a
/// negative line counts from the end of the explicit grid (−1 is the last line).
public struct GridPlacement: Hashable, Sendable {
    /// The start line; nil: placed automatically (or from `end` − `span`).
    public var start: Int?
    /// The end line; nil: `start` + `span`.
    public var end: Int?
    /// How many tracks the item covers when `start` or `end` is not given (≥ 1).
    public var span: Int
    /// A placement from `start`/`end` lines or a span (`auto` when nothing is given).
    public init(start: Int? = nil, end: Int? = nil, span: Int = 1) {
        self.start = start == 0 ? nil : start; self.end = end == 0 ? nil : end
        self.span = Swift.max(1, Swift.min(span, GridLayoutSpec.maximumTracks))
    }
    /// Placed automatically, one track.
    public static let auto = GridPlacement()
    /// Placed automatically, `n` tracks.
    public static func span(_ n: Int) -> GridPlacement { GridPlacement(span: n) }
    /// At line `line`, `span` tracks.
    public static func line(_ line: Int, span: Int = 1) -> GridPlacement { GridPlacement(start: line, span: span) }
}

/// One child of a grid and where it goes.
public struct GridItem: Sendable {
    /// The laid-out element; its `style` gives its size, min/max and margins.
    public var element: any LayoutElement
    /// Its columns.
    public var column: GridPlacement
    /// Its rows.
    public var row: GridPlacement
    /// Horizontal placement in its area; nil: the grid's `justifyItems`.
    public var justifySelf: GridItemAlignment?
    /// Vertical placement in its area; nil: the grid's `alignItems`.
    public var alignSelf: GridItemAlignment?
    /// An item at `column` and `row` (both automatic unless given).
    public init(_ element: any LayoutElement, column: GridPlacement = .auto, row: GridPlacement = .auto,
                justifySelf: GridItemAlignment? = nil, alignSelf: GridItemAlignment? = nil) {
        self.element = element; self.column = column; self.row = row
        self.justifySelf = justifySelf; self.alignSelf = alignSelf
    }
}

/// Lays its items out in a two-dimensional grid of tracks (CSS Grid Layout Level 1's
/// essentials; see docs/layout.md "Grid" for what is and is not supported). The explicit grid
/// is `columns` × `rows`; items placed beyond it, or by auto-placement, add implicit tracks sized
/// by `autoColumns`/`autoRows`. In a right-to-left pass, columns run from the right.
/// Immutable; lay out from any thread.
public final class GridLayoutSpec: LayoutSpec, DebugNamedElement {
    /// The most tracks on an axis (explicit and implicit); larger spans and lines are clamped.
    public static let maximumTracks = 1000

    public let style: Style
    /// The explicit columns, left to right (right to left in RTL).
    public let columns: [GridTrack]
    /// The explicit rows, top to bottom.
    public let rows: [GridTrack]
    /// Size of implicit columns.
    public let autoColumns: GridTrack
    /// Size of implicit rows.
    public let autoRows: GridTrack
    /// Space between columns, in points (negative: 0).
    public let columnGap: Double
    /// Space between rows, in points (negative: 0).
    public let rowGap: Double
    /// How automatically placed items fill the grid.
    public let autoFlow: GridAutoFlow
    /// Default horizontal placement of items in their areas.
    public let justifyItems: GridItemAlignment
    /// Default vertical placement of items in their areas.
    public let alignItems: GridItemAlignment
    /// Distribution of horizontal left-over space between the columns.
    public let justifyContent: GridContentAlignment
    /// Distribution of vertical left-over space between the rows.
    public let alignContent: GridContentAlignment
    /// The items, in order (auto-placement follows it).
    public let items: [GridItem]

    /// A grid of `columns` × `rows` (either may be empty: implicit tracks then hold the items).
    public init(columns: [GridTrack], rows: [GridTrack] = [], autoColumns: GridTrack = .auto,
                autoRows: GridTrack = .auto, columnGap: Double = 0, rowGap: Double = 0,
                autoFlow: GridAutoFlow = .row, justifyItems: GridItemAlignment = .stretch,
                alignItems: GridItemAlignment = .stretch, justifyContent: GridContentAlignment = .stretch,
                alignContent: GridContentAlignment = .stretch, style: Style = Style(), items: [GridItem]) {
        self.columns = Array(columns.prefix(Self.maximumTracks)); self.rows = Array(rows.prefix(Self.maximumTracks))
        self.autoColumns = autoColumns; self.autoRows = autoRows
        self.columnGap = columnGap.isFinite ? Swift.max(0, columnGap) : 0
        self.rowGap = rowGap.isFinite ? Swift.max(0, rowGap) : 0
        self.autoFlow = autoFlow; self.justifyItems = justifyItems; self.alignItems = alignItems
        self.justifyContent = justifyContent; self.alignContent = alignContent
        self.style = style; self.items = items
    }

    public var sublayoutElements: [any LayoutElement] { items.map(\.element) }
    public var debugName: String {
        "Grid(\(columns.map(\.description).joined(separator: " ")) / \(rows.map(\.description).joined(separator: " ")))"
    }

    public func calculateLayoutThatFits(_ constrainedSize: SizeRange, context: LayoutContext) throws(LayoutError) -> Layout {
        try GridAlgorithm(self, range: constrainedSize, context: context).run()
    }
}
