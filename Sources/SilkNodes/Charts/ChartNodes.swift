import Foundation
import SilkGeometry
import SilkRaster

/// Colours, grid and labels of a chart (``LineChartNode``, ``BarChartNode``). A value: set the
/// whole style on the node; ``init(theme:)`` derives one from a ``Theme``.
public struct ChartStyle: Sendable, Equatable {
    /// Filled behind the plot (nil: transparent).
    public var backgroundColor: Color?
    /// Horizontal grid lines at the value ticks.
    public var gridColor: Color
    /// The axis lines (left and at the baseline).
    public var axisColor: Color
    /// Tick and category labels.
    public var labelColor: Color
    /// Label size in points (0: no labels and no room kept for them).
    public var labelFontSize: Double
    /// About how many value ticks (grid lines) to draw; the step is rounded to 1, 2 or 5 × 10ⁿ.
    public var tickCount: Int
    /// Space around the plot, in points.
    public var padding: Double

    /// A light style: white background, grey grid, dark labels at 11 points, about 5 ticks.
    public init(backgroundColor: Color? = .white, gridColor: Color = Color(white: 0.88), axisColor: Color = Color(white: 0.55),
                labelColor: Color = Color(white: 0.3), labelFontSize: Double = 11, tickCount: Int = 5, padding: Double = 8) {
        self.backgroundColor = backgroundColor; self.gridColor = gridColor; self.axisColor = axisColor
        self.labelColor = labelColor; self.labelFontSize = labelFontSize.isFinite ? min(max(0, labelFontSize), 72) : 11
        self.tickCount = min(max(1, tickCount), 20); self.padding = padding.isFinite ? min(max(0, padding), 200) : 8
    }
}

extension ChartStyle {
    /// A style in `theme`'s colours: the theme's surface behind the plot, its border colour for
    /// the axis (and, faded towards the surface, the grid), its secondary text colour for labels
    /// two points smaller than its captions. The gallery sets it again when the theme changes
    /// (``ThemeObserver``), so switching light to dark recolours the charts.
    public init(theme: Theme) {
        let c = theme.colors
        self.init(backgroundColor: c.surface, gridColor: c.border.mixed(with: c.surface, 0.65), axisColor: c.border,
                  labelColor: c.secondaryText, labelFontSize: max(8, Theme.size(theme.fonts.captionSize, 13) - 2))
    }

    /// The colours of a chart's series (and bars) in `theme`, in order: the accent, the danger
    /// colour, the focus-ring colour, the secondary text colour.
    public static func seriesColors(for theme: Theme) -> [Color] {
        [theme.colors.accent, theme.colors.danger, theme.colors.focusRing, theme.colors.secondaryText]
    }
}

/// The last `capacity` values appended (a ring: appending to a full history drops the oldest,
/// in constant time). A value type: cheap to copy into a display job's snapshot.
public struct ChartHistory: Sendable, Equatable {
    private var storage: [Double] = []
    private var start = 0
    /// Most values kept (1 … ``LineChartNode/maximumHistory``).
    public let capacity: Int

    /// An empty history of at most `capacity` values (clamped to 1 … ``LineChartNode/maximumHistory``).
    public init(capacity: Int) { self.capacity = min(max(1, capacity), LineChartNode.maximumHistory) }

    /// A history holding the last `capacity` of `values`.
    public init(_ values: [Double], capacity: Int) {
        self.init(capacity: capacity)
        storage = Array(values.suffix(self.capacity))
    }

    /// Number of values held.
    public var count: Int { storage.count }
    /// The values held, oldest first.
    public var values: [Double] { Array(storage[start...] + storage[..<start]) }
    /// The `i`th value held, oldest first.
    public subscript(i: Int) -> Double { storage[(start + i) % storage.count] }

    /// Appends `value` (any value: non-finite ones are kept and drawn as gaps).
    public mutating func append(_ value: Double) {
        if storage.count < capacity { storage.append(value); return }
        storage[start] = value
        start = (start + 1) % capacity
    }
}

/// Shared drawing of the two charts: value range, ticks, grid, labels.
enum ChartDrawing {
    /// A range covering the finite `values` (and 0 when `includeZero`); never empty or infinite.
    static func range(_ values: some Sequence<Double>, includeZero: Bool, fixed: ClosedRange<Double>?) -> ClosedRange<Double> {
        if let fixed, fixed.lowerBound.isFinite, fixed.upperBound.isFinite, fixed.upperBound > fixed.lowerBound { return fixed }
        var lo = Double.infinity, hi = -Double.infinity
        for v in values where v.isFinite { lo = min(lo, v); hi = max(hi, v) }
        if includeZero { lo = min(lo, 0); hi = max(hi, 0) }
        guard lo.isFinite, hi.isFinite else { return 0...1 }
        if hi - lo < 1e-300 || !(hi - lo).isFinite {
            // One value (or a span beyond Double): a unit around it, or the largest finite span.
            if !(hi - lo).isFinite { return -Double.greatestFiniteMagnitude / 2...Double.greatestFiniteMagnitude / 2 }
            let pad = max(1, abs(lo) * 0.1)
            return (lo - pad)...(hi + pad)
        }
        return lo...hi
    }

    /// "Nice" ticks (1, 2 or 5 × 10ⁿ apart) covering `range`, about `count` of them, and the range
    /// widened to the outer ticks.
    static func ticks(_ range: ClosedRange<Double>, count: Int) -> (ticks: [Double], range: ClosedRange<Double>) {
        let span = range.upperBound - range.lowerBound
        guard span.isFinite, span > 0 else { return ([range.lowerBound], range) }
        let raw = span / Double(max(1, count))
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
        let first = (range.lowerBound / step).rounded(.down) * step
        let last = (range.upperBound / step).rounded(.up) * step
        guard step > 0, step.isFinite, first.isFinite, last.isFinite, (last - first) / step < 100 else { return ([range.lowerBound, range.upperBound], range) }
        var ticks: [Double] = []
        var v = first
        while v <= last + step / 2 { ticks.append(abs(v) < step * 1e-9 ? 0 : v); v += step }
        return (ticks, first...last)
    }

    static func label(_ v: Double) -> String {
        let a = abs(v)
        if a >= 1e6 || (a < 1e-3 && a > 0) { return String(format: "%.2g", v) }
        if a == a.rounded() { return String(Int(v)) }
        return String(format: a >= 10 ? "%.1f" : "%.2f", v)
    }

    static func text(_ s: String, _ style: ChartStyle) -> TextLayout {
        TextLayout(text: AttributedText(s, attributes: TextAttributes(fontSize: style.labelFontSize, color: style.labelColor)),
                   constrainedTo: Size(width: 200, height: style.labelFontSize * 3), maximumLines: 1)
    }

    /// Background, the plot rectangle (bounds less padding and label room), grid lines and value
    /// labels; returns the plot rectangle and how to map a value to y.
    static func frame(_ c: Canvas, bounds: Rect, style: ChartStyle, range: ClosedRange<Double>,
                      bottomLabels: Bool) -> (plot: Rect, y: (Double) -> Double, range: ClosedRange<Double>) {
        if let bg = style.backgroundColor { c.fill(bounds, with: .color(bg)) }
        let (ticks, r) = ticks(range, count: style.tickCount)
        let labels = style.labelFontSize > 0 ? ticks.map { text(label($0), style) } : []
        let left = (labels.map { $0.size.width }.max() ?? 0) + (labels.isEmpty ? 0 : 4)
        let bottom = bottomLabels && style.labelFontSize > 0 ? style.labelFontSize * 1.5 : 0
        let p = style.padding
        let plot = Rect(x: bounds.minX + p + left, y: bounds.minY + p + style.labelFontSize / 2,
                        width: max(0, bounds.width - 2 * p - left), height: max(0, bounds.height - 2 * p - bottom - style.labelFontSize / 2))
        let span = r.upperBound - r.lowerBound
        let y: (Double) -> Double = { v in plot.maxY - (v - r.lowerBound) / span * plot.height }
        let hairline = StrokeStyle(lineWidth: 1)
        for (i, t) in ticks.enumerated() {
            let ty = y(t)
            var grid = Path()
            grid.move(to: Point(x: plot.minX, y: ty)); grid.addLine(to: Point(x: plot.maxX, y: ty))
            c.stroke(grid, style: hairline, with: .color(style.gridColor))
            if i < labels.count {
                let l = labels[i]
                c.draw(l, at: Point(x: plot.minX - 4 - l.size.width, y: ty - l.size.height / 2))
            }
        }
        var axis = Path()
        axis.move(to: Point(x: plot.minX, y: plot.minY)); axis.addLine(to: Point(x: plot.minX, y: plot.maxY))
        c.stroke(axis, style: hairline, with: .color(style.axisColor))
        return (plot, y, r)
    }
}

/// A line chart for dashboards: several series, value grid lines with labels, values appended
/// live with a bounded history (Texture-style node: drawn on a display queue with the `Path`
/// API, so a chart updating every frame costs the main thread only the append).
///
/// - x: the values of each series, oldest at the left; the plot's width spans the longest series
///   (once full, the history scrolls). y: ``valueRange`` or the finite values' range, widened to
///   1, 2 or 5 × 10ⁿ ticks.
/// - Absurd values: NaN and ±infinity are gaps in their line (a value alone between gaps is a
///   dot); an empty series draws nothing;
///   a history of up to ``maximumHistory`` (10⁶) values draws at most about four segments per
///   device pixel column (each column's first, lowest, highest and last value), so a million
///   points cost what the plot's width does.
///
/// - Live updates: a value appended while a display job of the chart runs does not cancel that
///   job (as `setNeedsDisplay()` would); the chart draws again, with every value appended
///   meanwhile, once the job's result is on screen. So a chart appended to every frame shows
///   new values at the rate its display jobs finish, in async mode too, instead of cancelling
///   each job before it can commit and showing nothing.
///
/// Threads: every property and method may be called from any thread (the node's lock).
open class LineChartNode: DisplayNode, @unchecked Sendable {
    /// Largest history a series keeps (10⁶ values).
    public static let maximumHistory = 1_000_000

    /// One line: its name, colour, width and values.
    public struct Series: Sendable, Equatable {
        /// The series' name (for a legend; not drawn yet).
        public var name: String
        /// The line's colour.
        public var color: Color
        /// The line's width in points (clamped to 0.5 … 20).
        public var lineWidth: Double
        /// The last values appended, oldest first.
        public var history: ChartHistory

        /// A series of at most `capacity` values (the last of `values` are kept).
        public init(name: String, color: Color, lineWidth: Double = 2, values: [Double] = [], capacity: Int = 300) {
            self.name = name; self.color = color
            self.lineWidth = lineWidth.isFinite ? min(max(0.5, lineWidth), 20) : 2
            history = ChartHistory(values, capacity: capacity)
        }
    }

    private var _series: [Series] = []
    private var _style = ChartStyle()
    private var _valueRange: ClosedRange<Double>?
    /// When the display job now running started (system uptime; nil: none runs).
    private var _jobStarted: Double?
    /// Values were appended while a job ran: draw again when its result is on screen.
    private var _redrawPending = false
    /// A job running longer than this (seconds) no longer holds appends back (a result that
    /// never arrives must not freeze the chart).
    static let coalescingTimeout = 1.0

    /// An empty chart. Any thread.
    public override init() { super.init() }

    /// True: charts draw in display jobs.
    open override class var drawsContent: Bool { true }

    /// Colours series `i` with `colors[i % colors.count]` (nothing when `colors` is empty); redraws
    /// only when a colour changed. Any thread.
    public func setSeriesColors(_ colors: [Color]) {
        guard !colors.isEmpty else { return }
        let changed = lock.withLock { () -> Bool in
            var changed = false
            for i in _series.indices where _series[i].color != colors[i % colors.count] {
                _series[i].color = colors[i % colors.count]; changed = true
            }
            return changed
        }
        if changed { setNeedsDisplay() }
    }

    /// The lines, drawn in order (later ones on top). Any thread.
    public var series: [Series] {
        get { lock.withLock { _series } }
        set { lock.withLock { _series = newValue }; setNeedsDisplay() }
    }
    /// Colours, grid and labels. Any thread.
    public var chartStyle: ChartStyle {
        get { lock.withLock { _style } }
        set { if lock.withLock({ () -> Bool in defer { _style = newValue }; return _style != newValue }) { setNeedsDisplay() } }
    }
    /// A fixed value range (nil, the default: the range of the values shown). A range that is
    /// empty or not finite counts as nil. Any thread.
    public var valueRange: ClosedRange<Double>? {
        get { lock.withLock { _valueRange } }
        set { lock.withLock { _valueRange = newValue }; setNeedsDisplay() }
    }

    /// Appends `value` to series `index` (ignored when there is no such series); the oldest value
    /// goes when the history is full. Any thread.
    public func append(_ value: Double, toSeries index: Int) {
        let redraw = lock.withLock { () -> Bool in
            guard _series.indices.contains(index) else { return false }
            _series[index].history.append(value)
            return _redrawNowLocked()
        }
        if redraw { setNeedsDisplay() }
    }

    /// Appends one value to each series (`values[i]` to series `i`; extra values are ignored). Any
    /// thread.
    public func append(_ values: [Double]) {
        let redraw = lock.withLock { () -> Bool in
            for (i, v) in values.enumerated() where i < _series.count { _series[i].history.append(v) }
            return _redrawNowLocked()
        }
        if redraw { setNeedsDisplay() }
    }

    /// Under the lock, after an append: true to redraw now; false when a display job runs (the
    /// redraw waits for its result, see `displayDidFinish`).
    private func _redrawNowLocked() -> Bool {
        guard let started = _jobStarted, ProcessInfo.processInfo.systemUptime - started < Self.coalescingTimeout else { return true }
        _redrawPending = true
        return false
    }

    /// Main thread: a job starts; it reads every value appended so far.
    open override func displayWillStart() {
        super.displayWillStart()
        lock.withLock { _jobStarted = ProcessInfo.processInfo.systemUptime; _redrawPending = false }
    }

    /// Main thread: a job's result is on screen; draws again if values came meanwhile.
    open override func displayDidFinish() {
        super.displayDidFinish()
        let again = lock.withLock { () -> Bool in
            defer { _jobStarted = nil; _redrawPending = false }
            return _redrawPending
        }
        if again { setNeedsDisplay() }
    }

    /// Main thread: the job was cancelled with the contents; the chart draws in full on return.
    open override func didExitDisplayState() {
        super.didExitDisplayState()
        lock.withLock { _jobStarted = nil; _redrawPending = false }
    }

    struct Parameters: Sendable { let series: [Series]; let style: ChartStyle; let range: ClosedRange<Double>? }

    /// The series, style and range for the display job.
    open override func drawParameters() -> (any Sendable)? {
        lock.withLock { Parameters(series: _series, style: _style, range: _valueRange) }
    }

    /// Draws grid, labels and each series' line (display queue).
    open override class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {
        guard let p = parameters as? Parameters else { return }
        let c = context.canvas
        let all = p.series.lazy.flatMap { s in (0..<s.history.count).lazy.map { s.history[$0] } }
        let range = ChartDrawing.range(all, includeZero: false, fixed: p.range)
        let (plot, y, r) = ChartDrawing.frame(c, bounds: context.bounds, style: p.style, range: range, bottomLabels: false)
        guard plot.width > 0, plot.height > 0 else { return }
        let longest = max(2, p.series.map { $0.history.count }.max() ?? 0)
        c.save()
        defer { c.restore() }
        c.clip(to: plot.insetBy(dx: -2, dy: -2))
        for s in p.series {
            if isCancelled() { throw RasterError.cancelled }
            let path = linePath(s.history, longest: longest, plot: plot, y: y, range: r, scale: context.scale)
            c.stroke(path, style: StrokeStyle(lineWidth: s.lineWidth, lineCap: .round, lineJoin: .round), with: .color(s.color))
        }
    }

    /// The line through `history`, broken at non-finite values, decimated to about four points
    /// per device pixel column when there are more values than that.
    static func linePath(_ history: ChartHistory, longest: Int, plot: Rect, y: (Double) -> Double,
                         range: ClosedRange<Double>, scale: Double) -> Path {
        var path = Path()
        let n = history.count
        guard n > 0 else { return path }
        let dx = plot.width / Double(longest - 1)
        // Values are clamped a little beyond the plot so a fixed range cuts lines at its edge.
        let span = range.upperBound - range.lowerBound
        func py(_ v: Double) -> Double { y(min(max(v, range.lowerBound - span), range.upperBound + span)) }
        var open = false
        func point(_ x: Double, _ v: Double) {
            guard v.isFinite else { open = false; return }
            let pt = Point(x: x, y: py(v))
            // A subpath starts with a zero-length segment: with round caps a value alone
            // between two gaps still shows as a dot.
            if open { path.addLine(to: pt) } else { path.move(to: pt); path.addLine(to: pt); open = true }
        }
        let columns = max(1, Int((plot.width * scale).rounded(.up)))
        if n <= 4 * columns {
            for i in 0..<n { point(plot.minX + Double(i) * dx, history[i]) }
            return path
        }
        // Per device pixel column: the first, lowest, highest and last finite value, in order.
        var column = -1
        var bucket: [(Int, Double)] = []
        func flush() {
            guard !bucket.isEmpty else { return }
            let finite = bucket.filter { $0.1.isFinite }
            if finite.count < bucket.count, finite.isEmpty { open = false; bucket.removeAll(keepingCapacity: true); return }
            var keep = [finite.first!, finite.min { $0.1 < $1.1 }!, finite.max { $0.1 < $1.1 }!, finite.last!]
            keep.sort { $0.0 < $1.0 }
            var last = -1
            for (i, v) in keep where i != last { point(plot.minX + Double(i) * dx, v); last = i }
            if finite.count < bucket.count { open = false }
            bucket.removeAll(keepingCapacity: true)
        }
        for i in 0..<n {
            let col = Int(Double(i) * dx * scale)
            if col != column { flush(); column = col }
            bucket.append((i, history[i]))
        }
        flush()
        return path
    }
}

/// A bar chart for dashboards: one bar per category from a zero baseline (negative values go
/// down), value grid lines with labels and category labels under the bars, drawn with the
/// `Path` API on a display queue.
///
/// Absurd values: a NaN or infinite value draws no bar (its label stays); no bars draws the grid
/// only; more bars than device pixel columns are merged per column (the value of largest
/// magnitude shows), and category labels that would overlap are thinned to every k-th.
///
/// Threads: every property may be set from any thread (the node's lock).
open class BarChartNode: DisplayNode, @unchecked Sendable {
    /// One category.
    public struct Bar: Sendable, Equatable {
        /// The label under the bar.
        public var label: String
        /// The bar's value.
        public var value: Double
        /// The bar's colour (nil: ``BarChartNode/barColor``).
        public var color: Color?

        /// A bar labelled `label` of `value`.
        public init(label: String, value: Double, color: Color? = nil) {
            self.label = label; self.value = value; self.color = color
        }
    }

    private var _bars: [Bar] = []
    private var _style = ChartStyle()
    private var _barColor = Color(rgb: 0x3182CE)
    private var _valueRange: ClosedRange<Double>?

    /// An empty chart. Any thread.
    public override init() { super.init() }

    /// True: charts draw in display jobs.
    open override class var drawsContent: Bool { true }

    /// The bars, left to right. Any thread.
    public var bars: [Bar] {
        get { lock.withLock { _bars } }
        set { lock.withLock { _bars = newValue }; setNeedsDisplay() }
    }
    /// Colours, grid and labels. Any thread.
    public var chartStyle: ChartStyle {
        get { lock.withLock { _style } }
        set { if lock.withLock({ () -> Bool in defer { _style = newValue }; return _style != newValue }) { setNeedsDisplay() } }
    }
    /// The colour of bars that have none of their own. Any thread.
    public var barColor: Color {
        get { lock.withLock { _barColor } }
        set { if lock.withLock({ () -> Bool in defer { _barColor = newValue }; return _barColor != newValue }) { setNeedsDisplay() } }
    }
    /// A fixed value range (nil: the values' range and 0). Any thread.
    public var valueRange: ClosedRange<Double>? {
        get { lock.withLock { _valueRange } }
        set { lock.withLock { _valueRange = newValue }; setNeedsDisplay() }
    }

    struct Parameters: Sendable { let bars: [Bar]; let style: ChartStyle; let color: Color; let range: ClosedRange<Double>? }

    /// The bars, style and colours for the display job.
    open override func drawParameters() -> (any Sendable)? {
        lock.withLock { Parameters(bars: _bars, style: _style, color: _barColor, range: _valueRange) }
    }

    /// Draws grid, labels and bars (display queue).
    open override class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {
        guard let p = parameters as? Parameters else { return }
        let c = context.canvas
        let range = ChartDrawing.range(p.bars.lazy.map { $0.value }, includeZero: true, fixed: p.range)
        let (plot, y, r) = ChartDrawing.frame(c, bounds: context.bounds, style: p.style, range: range, bottomLabels: true)
        guard plot.width > 0, plot.height > 0, !p.bars.isEmpty else { return }
        let n = p.bars.count
        let slot = plot.width / Double(n)
        let baseline = y(min(max(0, r.lowerBound), r.upperBound))
        func clampY(_ v: Double) -> Double { min(max(y(v), plot.minY), plot.maxY) }
        let columns = max(1, Int((plot.width * context.scale).rounded(.down)))
        if n <= columns {
            for (i, bar) in p.bars.enumerated() where bar.value.isFinite {
                let top = clampY(bar.value)
                let x = plot.minX + Double(i) * slot + slot * 0.15
                var path = Path()
                path.addRect(Rect(x: x, y: min(top, baseline), width: slot * 0.7, height: abs(baseline - top)))
                c.fill(path, with: .color(bar.color ?? p.color))
            }
        } else {
            // More bars than pixel columns: per column the value of largest magnitude.
            var best = [Double](repeating: .nan, count: columns)
            for (i, bar) in p.bars.enumerated() where bar.value.isFinite {
                let col = min(columns - 1, i * columns / n)
                if !(abs(best[col]) >= abs(bar.value)) { best[col] = bar.value }
            }
            let w = plot.width / Double(columns)
            var path = Path()
            for (col, v) in best.enumerated() where v.isFinite {
                let top = clampY(v)
                path.addRect(Rect(x: plot.minX + Double(col) * w, y: min(top, baseline), width: w, height: abs(baseline - top)))
            }
            c.fill(path, with: .color(p.color))
        }
        if isCancelled() { throw RasterError.cancelled }
        var axis = Path()
        axis.move(to: Point(x: plot.minX, y: baseline)); axis.addLine(to: Point(x: plot.maxX, y: baseline))
        c.stroke(axis, style: StrokeStyle(lineWidth: 1), with: .color(p.style.axisColor))
        guard p.style.labelFontSize > 0 else { return }
        // Category labels, every k-th when they would overlap (widths measured on at most 200
        // labels spread over the bars; at most 200 drawn).
        let sample = stride(from: 0, to: n, by: max(1, n / 200)).map { ChartDrawing.text(p.bars[$0].label, p.style) }
        let widest = (sample.map { $0.size.width }.max() ?? 0) + 6
        let every = max(1, Int((widest / slot).rounded(.up)), n / 200)
        for i in stride(from: 0, to: n, by: every) {
            if isCancelled() { throw RasterError.cancelled }
            let l = ChartDrawing.text(p.bars[i].label, p.style)
            let cx = plot.minX + (Double(i) + 0.5) * slot
            c.draw(l, at: Point(x: cx - l.size.width / 2, y: plot.maxY + 3))
        }
    }
}
