import Foundation
import SilkGeometry
import SilkNodes
import SilkRaster
import SilkRender
import SilkScenes

/// `controls`: the controls gallery (both themes, every control in its states) with its
/// indeterminate progress bars and activity indicators animating on the render thread's clock,
/// and per frame one value change the app makes: a slider and a determinate progress bar per
/// panel move (two small display jobs per panel and frame: on the display queues in async mode,
/// on the main thread during the pass in sync mode); and per panel a live line chart that takes
/// a sample every frame (its display jobs coalesce appends, see `LineChartNode`), a bar chart
/// and a Lottie spinner playing on the frame clock.
public final class ControlsBench: BenchScene {
    public static let name = "controls"
    public static let summary = "controls gallery, light and dark: 2 sweeping progress bars, 2 activity indicators; a slider and a progress bar per panel move every frame; a live line chart (a sample per frame), a bar chart, a Lottie spinner per panel"
    public static let supportsSync = true
    /// The spinners and sweeps animate for ever: frames on a real 60 Hz clock.
    public static let presentsOnRealTimeClock = true
    let gallery: ControlsGalleryNode
    /// The next sample the line charts take.
    var nextSample = Double(ControlsPanelNode.chartHistory)
    /// Per panel: the line chart's contents last seen, and how many times they changed (each a
    /// display result on screen: the proof the live chart updates in async mode too).
    var chartContents: [ObjectIdentifier?]
    var chartUpdates: [Int]

    public init(stage: BenchStage) throws {
        gallery = NodeSnapshot.buildInBackground { ControlsGalleryNode() }
        stage.background = Theme.light.colors.background
        stage.show(gallery)
        chartContents = gallery.panels.map { _ in nil }
        chartUpdates = gallery.panels.map { _ in 0 }
    }

    public func update(time: Double) {
        let phase = 0.5 + 0.5 * sin(time * 2 * .pi / 3)
        for (i, p) in gallery.panels.enumerated() {
            let contents = p.lineChart.layer?.contents.map { ObjectIdentifier($0) }
            if contents != chartContents[i] { chartContents[i] = contents; chartUpdates[i] += 1 }
            p.sliders[0].value = phase
            p.progress.progress = (time / 4).truncatingRemainder(dividingBy: 1)
            p.appendChartSample(nextSample)
        }
        nextSample += 1
    }

    public var notes: [String] {
        let lottie = gallery.panels.compactMap { $0.lottie.animationStatistics }
        return ["controls: \(gallery.panels.count) panels of \(gallery.panels.first.map { $0.focusableControls.count + 4 } ?? 0) controls, "
                + "a line chart, a bar chart and a Lottie spinner each",
                "controls: \(Int(nextSample) - ControlsPanelNode.chartHistory) chart samples appended per panel; "
                + "line chart contents changed \(chartUpdates.map(String.init).joined(separator: ", ")) times",
                "controls: Lottie frames shown " + lottie.map { "\($0.shownFrames) (\($0.lateFrames) late)" }.joined(separator: ", ")]
    }
}
