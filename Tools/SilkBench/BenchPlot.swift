import Foundation
import SilkGeometry
import SilkRaster

/// The report drawn by Silk itself (Canvas and the text stack) into one image: per frame scene,
/// a timeline of frame times over the measured window and a histogram of them, async in blue
/// against sync in orange, with the 16.7 ms (60 Hz) budget marked. Frame time is drawn on a log
/// scale so that a 0.5 ms async frame and a 40 ms sync frame are both readable. Measurement
/// scenes are listed below as text.
public struct BenchPlot {
    public let report: BenchReport
    public init(report: BenchReport) { self.report = report }

    static let width = 1600.0
    static let rowHeight = 300.0
    static let headerHeight = 120.0
    static let async = Color(rgb: 0x1f6fd1)
    static let sync = Color(rgb: 0xe0621b)
    static let budget = Color(rgb: 0xc81e3c)
    static let ink = Color(rgb: 0x1d1d1f)
    static let grid = Color(rgb: 0xdedfe3)
    static let muted = Color(rgb: 0x6b6e76)

    /// The y range of every panel, ms (log scale): 0.05 ms up to past the slowest frame.
    var range: (lo: Double, hi: Double) {
        let worst = report.scenes.compactMap(\.modes).flatMap { $0.values }.map(\.frameMs.max).max() ?? 20
        return (0.05, Swift.max(50, worst * 1.3))
    }

    public func render() throws -> Bitmap {
        let frameScenes = report.scenes.filter { $0.kind == .frames }
        let measurements = report.scenes.filter { $0.kind == .measurement }
        let rows = frameScenes.map { $0.modes == nil ? 44.0 : BenchPlot.rowHeight }
        let footer = 40 + 26 * Double(measurements.count)
        let height = BenchPlot.headerHeight + rows.reduce(0, +) + footer
        let bitmap = try Bitmap(width: Int(BenchPlot.width), height: Int(height.rounded(.up)))
        let c = Canvas(bitmap: bitmap)
        c.fill(Rect(x: 0, y: 0, width: BenchPlot.width, height: height), with: .color(.white))

        // Header: title, run facts, legend.
        text(c, "Silk benchmark — frame time per scene, async (display queues) vs sync (display on the main thread)",
             at: Point(x: 24, y: 16), size: 22, weight: .bold)
        text(c, "\(report.date) · \(report.build) build · \(report.backend) \(report.size[0])x\(report.size[1]) · "
             + "\(report.machine.cores) cores \(report.machine.architecture) · memcpy \(fmt(report.machine.memcpyGBps, 1)) GB/s, one frame \(fmt(report.machine.frameCopyMs, 2)) ms · "
             + "\(fmt(report.measuredSeconds, 2)) s measured per mode after \(fmt(report.warmupSeconds, 2)) s warm-up",
             at: Point(x: 24, y: 50), size: 14, color: BenchPlot.muted)
        text(c, "frame time = main-thread CPU + composite CPU + present, per frame; log scale", at: Point(x: 24, y: 74), size: 14, color: BenchPlot.muted)
        legend(c, at: Point(x: 1000, y: 76))

        var y = BenchPlot.headerHeight
        for (scene, h) in zip(frameScenes, rows) {
            drawScene(c, scene, top: y, height: h)
            y += h
        }
        // Measurement scenes as text.
        text(c, "Measurements", at: Point(x: 24, y: y + 10), size: 17, weight: .bold)
        y += 40
        for m in measurements {
            let body = m.status == .ok
                ? (m.figures ?? []).map { "\(figureLabel($0.name)) \(fmt($0.value, $0.value >= 100 ? 0 : $0.value >= 10 ? 1 : 3)) \($0.unit)" }.joined(separator: ", ")
                : "\(m.status.rawValue): \(m.reason ?? "")"
            text(c, "\(m.name): \(body)", at: Point(x: 24, y: y), size: 14)
            y += 26
        }
        return bitmap
    }

    // MARK: One scene

    func drawScene(_ c: Canvas, _ scene: SceneResult, top: Double, height: Double) {
        c.fill(Rect(x: 0, y: top, width: BenchPlot.width, height: 1), with: .color(BenchPlot.grid))
        guard let modes = scene.modes else {
            text(c, "\(scene.name): \(scene.status.rawValue) — \(scene.reason ?? "")", at: Point(x: 24, y: top + 12), size: 15, color: BenchPlot.muted)
            return
        }
        var title = scene.name
        for (name, m) in modes.sorted(by: { $0.key < $1.key }) {
            title += m.frames == 0 ? "   \(name): no frame in the measured window"
                : "   \(name): \(fmt(m.fps, 1)) fps, p50 \(fmt(m.frameMs.p50, 2)) ms, p99 \(fmt(m.frameMs.p99, 2)) ms, \(m.missedFrames) missed"
        }
        if let r = scene.ratios { title += "   sync/async p99 ×\(fmt(r["frameP99"] ?? 0, 1))" }
        text(c, title, at: Point(x: 24, y: top + 10), size: 15, weight: .bold)
        if scene.modes?["sync"] == nil, let note = scene.syncNote {
            text(c, "sync: n/a — \(note)", at: Point(x: 24, y: top + 32), size: 12, color: BenchPlot.muted)
        }
        let plotTop = top + 74, plotHeight = height - 126
        let timeline = Rect(x: 90, y: plotTop, width: 930, height: plotHeight)
        let histogram = Rect(x: 1120, y: plotTop, width: 440, height: plotHeight)
        drawTimeline(c, modes, in: timeline)
        drawHistogram(c, modes, in: histogram)
    }

    func yFor(_ ms: Double, in r: Rect) -> Double {
        let (lo, hi) = range
        let v = Swift.min(Swift.max(ms, lo), hi)
        return r.maxY - (log10(v) - log10(lo)) / (log10(hi) - log10(lo)) * r.height
    }

    /// Decade and budget ticks of the log axis.
    var ticks: [Double] {
        [0.1, 1, 10, 100, 1000].filter { $0 > range.lo && $0 < range.hi }
    }

    func drawLogAxis(_ c: Canvas, in r: Rect, vertical: Bool) {
        for t in ticks {
            if vertical {
                let y = yFor(t, in: r)
                c.fill(Rect(x: r.minX, y: y, width: r.width, height: 1), with: .color(BenchPlot.grid))
                text(c, tickLabel(t), at: Point(x: r.minX - 8, y: y - 8), size: 12, color: BenchPlot.muted, alignRightTo: true)
            } else {
                let x = xForLog(t, in: r)
                c.fill(Rect(x: x, y: r.minY, width: 1, height: r.height), with: .color(BenchPlot.grid))
                text(c, tickLabel(t), at: Point(x: x - 12, y: r.maxY + 6), size: 12, color: BenchPlot.muted)
            }
        }
    }

    func xForLog(_ ms: Double, in r: Rect) -> Double {
        let (lo, hi) = range
        let v = Swift.min(Swift.max(ms, lo), hi)
        return r.minX + (log10(v) - log10(lo)) / (log10(hi) - log10(lo)) * r.width
    }

    func tickLabel(_ t: Double) -> String { t < 1 ? fmt(t, 1) : fmt(t, 0) }

    func drawTimeline(_ c: Canvas, _ modes: [String: ModeResult], in r: Rect) {
        drawLogAxis(c, in: r, vertical: true)
        let seconds = Swift.max(report.measuredSeconds, modes.values.map(\.measuredSeconds).max() ?? 1)
        // Seconds along the bottom.
        let step = seconds > 4 ? 1.0 : seconds > 1.5 ? 0.5 : 0.1
        var s = 0.0
        while s <= seconds + 1e-9 {
            let x = r.minX + s / seconds * r.width
            c.fill(Rect(x: x, y: r.maxY, width: 1, height: 5), with: .color(BenchPlot.muted))
            text(c, step < 0.5 ? fmt(s, 1) : (s == s.rounded() ? fmt(s, 0) : fmt(s, 1)), at: Point(x: x - 8, y: r.maxY + 7), size: 12, color: BenchPlot.muted)
            s += step
        }
        text(c, "time in the measured window (s)", at: Point(x: r.midX - 100, y: r.maxY + 26), size: 12, color: BenchPlot.ink)
        text(c, "frame ms", at: Point(x: r.minX - 80, y: r.minY - 20), size: 12, color: BenchPlot.ink)
        budgetLine(c, y: yFor(1000.0 / 60, in: r), from: r.minX, to: r.maxX)
        for (name, color) in [("async", BenchPlot.async), ("sync", BenchPlot.sync)] {
            guard let points = modes[name]?.timeline, !points.isEmpty else { continue }
            let p = points.map { Point(x: r.minX + Swift.min(1, $0[0] / seconds) * r.width, y: yFor($0[1], in: r)) }
            for i in 1..<Swift.max(1, p.count) { c.strokeLine(from: p[i - 1], to: p[i], width: 1.5, with: .color(color.withAlpha(0.85))) }
            if p.count < 80 { for q in p { c.fillEllipse(in: Rect(x: q.x - 3, y: q.y - 3, width: 6, height: 6), with: .color(color)) } }
        }
        c.stroke(r, lineWidth: 1, with: .color(BenchPlot.muted))
    }

    func drawHistogram(_ c: Canvas, _ modes: [String: ModeResult], in r: Rect) {
        drawLogAxis(c, in: r, vertical: false)
        let bins = 36
        let (lo, hi) = range
        func bin(_ ms: Double) -> Int {
            let f = (log10(Swift.min(Swift.max(ms, lo), hi)) - log10(lo)) / (log10(hi) - log10(lo))
            return Swift.min(bins - 1, Int(f * Double(bins)))
        }
        var shares: [String: [Double]] = [:]
        for (name, m) in modes where !m.timeline.isEmpty {
            var counts = [Double](repeating: 0, count: bins)
            for p in m.timeline { counts[bin(p[1])] += 1 }
            shares[name] = counts.map { $0 / Double(m.timeline.count) * 100 }
        }
        let top = Swift.max(10, ((shares.values.flatMap { $0 }.max() ?? 10) / 10).rounded(.up) * 10)
        for pct in stride(from: 0.0, through: top, by: top > 50 ? 25 : 10) {
            let y = r.maxY - pct / top * r.height
            c.fill(Rect(x: r.minX, y: y, width: r.width, height: 1), with: .color(BenchPlot.grid))
            text(c, fmt(pct, 0), at: Point(x: r.minX - 8, y: y - 8), size: 12, color: BenchPlot.muted, alignRightTo: true)
        }
        let bw = r.width / Double(bins)
        for (k, (name, color)) in [("async", BenchPlot.async), ("sync", BenchPlot.sync)].enumerated() {
            guard let s = shares[name] else { continue }
            for (i, v) in s.enumerated() where v > 0 {
                let h = Swift.max(1, v / top * r.height)
                c.fill(Rect(x: r.minX + Double(i) * bw + Double(k) * bw / 2, y: r.maxY - h, width: bw / 2, height: h), with: .color(color))
            }
        }
        let bx = xForLog(1000.0 / 60, in: r)
        var y = r.minY
        while y < r.maxY { c.fill(Rect(x: bx, y: y, width: 1.5, height: Swift.min(6, r.maxY - y)), with: .color(BenchPlot.budget)); y += 10 }
        text(c, "frame ms (log)", at: Point(x: r.midX - 45, y: r.maxY + 26), size: 12, color: BenchPlot.ink)
        text(c, "% of frames", at: Point(x: r.minX - 80, y: r.minY - 20), size: 12, color: BenchPlot.ink)
        c.stroke(r, lineWidth: 1, with: .color(BenchPlot.muted))
    }

    func budgetLine(_ c: Canvas, y: Double, from x0: Double, to x1: Double, labelRight: Bool = false) {
        var x = x0
        while x < x1 { c.fill(Rect(x: x, y: y, width: Swift.min(8, x1 - x), height: 1.5), with: .color(BenchPlot.budget)); x += 14 }
        text(c, "16.7 ms (60 Hz)", at: labelRight ? Point(x: x1 + 8, y: y - 8) : Point(x: x1 - 110, y: y - 18),
             size: labelRight ? 14 : 12, color: BenchPlot.budget)
    }

    func legend(_ c: Canvas, at p: Point) {
        var x = p.x
        for (label, color) in [("async", BenchPlot.async), ("sync", BenchPlot.sync)] {
            c.fill(Rect(x: x, y: p.y + 4, width: 22, height: 10), with: .color(color))
            text(c, label, at: Point(x: x + 28, y: p.y), size: 14)
            x += 100
        }
        budgetLine(c, y: p.y + 9, from: x, to: x + 40, labelRight: true)
    }

    /// Draws one line of text with its top-left at `point` (or its top-right, `alignRightTo`).
    func text(_ c: Canvas, _ s: String, at point: Point, size: Double, weight: FontWeight = .regular,
              color: Color = BenchPlot.ink, alignRightTo: Bool = false) {
        let layout = TextLayout(text: AttributedText(s, attributes: TextAttributes(fontSize: size, fontWeight: weight, color: color)),
                                constrainedTo: Size(width: .infinity, height: .infinity))
        c.draw(layout, at: alignRightTo ? Point(x: point.x - layout.size.width, y: point.y) : point)
    }
}
