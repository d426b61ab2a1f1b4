import Foundation
import Testing
import SilkGeometry
@testable import SilkNodes
import SilkRaster
import SilkRender
import SilkScenes
import SilkTestSupport

/// Line and bar charts drawn with the Path API: goldens of several series and of bars with a
/// negative value, the bounded live history, and absurd values (NaN, infinity, empty series,
/// 10⁶ points) that draw what they can and never crash.
@Suite struct ChartNodeTests {
    let dir = Golden.directory()

    static let blue = Color(rgb: 0x3182CE), orange = Color(rgb: 0xDD6B20), green = Color(rgb: 0x38A169)

    func lineChart(_ series: [LineChartNode.Series]) -> LineChartNode {
        let chart = LineChartNode()
        chart.frame = Rect(x: 0, y: 0, width: 240, height: 140)
        chart.series = series
        return chart
    }

    @Test func lineChartWithThreeSeriesGridAndLabels() throws {
        let sine = (0..<100).map { 50 + 40 * sin(Double($0) / 8) }
        let ramp = (0..<100).map { Double($0) }
        let steps = (0..<100).map { Double(($0 / 20) * 20) }
        let chart = lineChart([
            .init(name: "sine", color: Self.blue, values: sine),
            .init(name: "ramp", color: Self.orange, values: ramp),
            .init(name: "steps", color: Self.green, lineWidth: 1.5, values: steps),
        ])
        let bitmap = try NodeSnapshot.render(chart, size: Size(width: 240, height: 140), scale: 2)
        try Golden.verify(bitmap, named: "chart-line@2x", in: dir)
    }

    @Test func barChartWithANegativeValueAndOwnColours() throws {
        let chart = BarChartNode()
        chart.frame = Rect(x: 0, y: 0, width: 240, height: 140)
        chart.bars = [.init(label: "Mon", value: 12), .init(label: "Tue", value: 30), .init(label: "Wed", value: -8, color: Self.orange),
                      .init(label: "Thu", value: 22), .init(label: "Fri", value: .nan), .init(label: "Sat", value: 5)]
        let bitmap = try NodeSnapshot.render(chart, size: Size(width: 240, height: 140), scale: 2)
        // The Wednesday bar goes down from the baseline in its own colour.
        try Golden.verify(bitmap, named: "chart-bars@2x", in: dir)
    }

    @Test func liveAppendsKeepABoundedHistory() {
        let chart = lineChart([.init(name: "a", color: Self.blue, capacity: 100), .init(name: "b", color: Self.orange, capacity: 10)])
        for i in 0..<1_000 { chart.append([Double(i), Double(-i)]) }
        chart.append(5, toSeries: 7)  // no such series: ignored
        let s = chart.series
        #expect(s[0].history.count == 100 && s[0].history.values.first == 900 && s[0].history.values.last == 999)
        #expect(s[1].history.count == 10 && s[1].history.values == (990..<1000).map { -Double($0) })
        #expect(ChartHistory(capacity: 0).capacity == 1)
        #expect(ChartHistory(capacity: Int.max).capacity == LineChartNode.maximumHistory)
    }

    @Test func absurdValuesDrawWhatTheyCan() throws {
        let size = Size(width: 200, height: 100)
        // NaN and infinities are gaps; the range is the finite values'.
        let gappy = lineChart([.init(name: "g", color: Self.blue, values: [1, 2, 3, .nan, 5, 6, 7, .infinity, 9, 10, -.infinity, 12, 13])])
        let a = try NodeSnapshot.render(gappy, size: size, scale: 1)
        // A value alone between gaps shows as a dot (round caps on a zero-length segment).
        let lone = lineChart([.init(name: "l", color: Self.blue, lineWidth: 6, values: [.nan, 5, .nan])])
        lone.chartStyle = ChartStyle(labelFontSize: 0, padding: 0)
        lone.valueRange = 0...10
        let dot = try NodeSnapshot.render(lone, size: size, scale: 1)
        #expect((dot.argb32(x: 100, y: 50) >> 16) & 0xFF < 120, "red of \(String(dot.argb32(x: 100, y: 50), radix: 16)): not the white background")
        // Empty series, one value, all NaN, and values at the ends of Double.
        for values in [[], [3.0], [.nan, .nan], [-Double.greatestFiniteMagnitude, Double.greatestFiniteMagnitude], [1e-300, 2e-300]] {
            _ = try NodeSnapshot.render(lineChart([.init(name: "x", color: Self.blue, values: values)]), size: size, scale: 1)
        }
        // A fixed range that is empty or not finite is ignored.
        let fixed = lineChart([.init(name: "f", color: Self.blue, values: [1, 2, 3])])
        fixed.valueRange = 5...5
        _ = try NodeSnapshot.render(fixed, size: size, scale: 1)
        fixed.valueRange = -Double.infinity...0
        _ = try NodeSnapshot.render(fixed, size: size, scale: 1)
        // The blue line shows (some pixels are blue-ish).
        var blue = 0
        for y in 0..<100 { for x in 0..<200 where (a.argb32(x: x, y: y) & 0xFF) > 150 && ((a.argb32(x: x, y: y) >> 16) & 0xFF) < 120 { blue += 1 } }
        #expect(blue > 50)
        // Bars: none, all NaN, infinities, a million.
        let bars = BarChartNode()
        bars.frame = Rect(size: size)
        for set in [[], [BarChartNode.Bar(label: "n", value: .nan)], [.init(label: "i", value: .infinity), .init(label: "j", value: -.infinity)]] {
            bars.bars = set
            _ = try NodeSnapshot.render(bars, size: size, scale: 1)
        }
        bars.bars = (0..<1_000_000).map { BarChartNode.Bar(label: "\($0)", value: Double($0 % 100)) }
        _ = try NodeSnapshot.render(bars, size: size, scale: 1)
    }

    @Test func aMillionPointsDrawAboutFourSegmentsPerPixelColumn() throws {
        let values = (0..<LineChartNode.maximumHistory).map { sin(Double($0) / 1000) * 100 }
        let chart = lineChart([.init(name: "m", color: Self.blue, values: values, capacity: LineChartNode.maximumHistory)])
        #expect(chart.series[0].history.count == 1_000_000)
        let bitmap = try NodeSnapshot.render(chart, size: Size(width: 240, height: 140), scale: 1)
        #expect(bitmap.width == 240)
        // The decimated path of the whole history: bounded by the plot's width, not the count.
        let path = LineChartNode.linePath(chart.series[0].history, longest: 1_000_000,
                                          plot: Rect(x: 0, y: 0, width: 200, height: 100), y: { $0 },
                                          range: -100...100, scale: 1)
        #expect(path.elements.count <= 4 * 201, "\(path.elements.count) path elements")
    }
}

extension PipelineTests {
    /// A live chart and the theme: appends every pass in async mode still put results on screen,
    /// and the gallery's charts take their colours from the theme.
    @Suite(.serialized) struct LiveChartTests {
        /// Before appends coalesced, each append cancelled the running display job (the node's
        /// sentinel moved), so a chart appended to every pass never showed a new result.
        @Test func appendingEveryPassInAsyncModeStillShowsResults() {
            let chart = LineChartNode()
            chart.series = [.init(name: "a", color: .blue, values: (0..<600).map { sin(Double($0) / 9) }, capacity: 600),
                            .init(name: "b", color: .red, values: (0..<600).map { cos(Double($0) / 7) }, capacity: 600)]
            let h = Harness(root: chart, size: Size(width: 600, height: 300))
            chart.frame = Rect(x: 0, y: 0, width: 600, height: 300)
            #expect(h.iterate(until: { h.pass.isDisplayComplete }))
            // Append before every pass until five different results were on screen; a time
            // limit, not a pass count, so a loaded machine's slow display jobs don't fail it (with
            // the coalescing off, one result shows however long it runs). The results are held,
            // so a freed bitmap's address can't come back as a "new" one.
            var seen: [Bitmap] = []
            var passes = 0
            let deadline = Date().addingTimeInterval(30)
            while seen.count < 5, Date() < deadline {
                chart.append([sin(Double(600 + passes) / 9), cos(Double(600 + passes) / 7)])
                passes += 1
                h.iterate()
                if let c = chart.layer?.contents, !seen.contains(where: { $0 === c }) { seen.append(c) }
                usleep(2000)
            }
            #expect(seen.count >= 5, "\(seen.count) results on screen in \(passes) passes with an append each")
            // Once appends stop, the last values are drawn and the chart settles.
            #expect(h.iterate(until: { h.pass.isDisplayComplete && !chart.needsDisplay }))
        }

        @Test func theGalleryChartsFollowTheTheme() {
            let panel = ControlsPanelNode(theme: .light)
            #expect(panel.lineChart.chartStyle == ChartStyle(theme: .light))
            #expect(panel.lineChart.series.map(\.color) == Array(ChartStyle.seriesColors(for: .light).prefix(2)))
            #expect(panel.barChart.barColor == Theme.light.colors.accent)
            panel.theme = .dark
            #expect(panel.lineChart.chartStyle == ChartStyle(theme: .dark) && panel.barChart.chartStyle == ChartStyle(theme: .dark))
            #expect(panel.lineChart.series.map(\.color) == [Theme.dark.colors.accent, Theme.dark.colors.danger])
            #expect(panel.barChart.barColor == Theme.dark.colors.accent)
            #expect(ChartStyle(theme: .dark).backgroundColor == Theme.dark.colors.surface)
        }
    }
}
