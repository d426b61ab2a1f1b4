import Foundation
import Testing
import SilkGeometry
import SilkRaster
import SilkRender
@testable import SilkBench

/// A layer scene small enough to run anywhere: four translucent squares moving.
final class TinyMovingScene: BenchScene {
    static let name = "tiny"
    static let summary = "four squares moving"
    static let supportsSync = false
    let layers: [Layer]
    init(stage: BenchStage) throws {
        layers = (0..<4).map { _ in Layer() }
        for l in layers { l.backgroundColor = Color(rgb: 0x3366cc).withAlpha(0.5); stage.root.addSublayer(l) }
        update(time: 0)
    }
    func update(time: Double) {
        for (i, l) in layers.enumerated() { l.frame = Rect(x: (time * 60 + Double(i) * 10).truncatingRemainder(dividingBy: 40), y: Double(i) * 8, width: 16, height: 16) }
    }
}

@Suite struct BenchTests {
    @Test func distributionUsesNearestRank() {
        let d = Distribution((1...100).map(Double.init))
        #expect(d.p50 == 51 && d.p95 == 95 && d.p99 == 99 && d.max == 100)
        #expect(d.mean == 50.5)
        let empty = Distribution([])
        #expect(empty.p50 == 0 && empty.max == 0)
        #expect(Distribution([.nan, 3]).max == 3)
    }

    @Test func catalogueListsEveryScene() {
        #expect(BenchCatalog.names == ["layers-scroll", "rainforest-scroll", "feed-scroll", "kiosk-idle", "text-heavy",
                                       "many-layers", "image-decode", "layout", "startup", "feed-10k", "navigation", "controls", "media"])
        // feed-10k takes minutes, media needs GStreamer and encodes its clip: only when named.
        #expect(BenchCatalog.defaultRun.map(\.name) == BenchCatalog.names.filter { $0 != "feed-10k" && $0 != "media" })
        #expect(Feed10kBench.modes == [.async])
    }

    /// The runner's own bookkeeping: one timeline point per measured frame, missed frames
    /// among them, nothing composited when nothing changes, and sane CPU/RSS readings.
    @Test func runnerMeasuresEveryPresentedFrame() throws {
        var settings = BenchSettings.quick(size: Size(width: 64, height: 48), scale: 1)
        settings.warmupSeconds = 0.05
        settings.measuredSeconds = 0.3
        let (r, _) = try FrameRunner(settings: settings).run(TinyMovingScene.self, mode: .async)
        #expect(r.frames >= 1)
        #expect(r.timeline.count == r.frames)
        #expect(r.missedFrames <= r.frames)
        #expect(r.idleFramesComposited == 0)
        #expect(r.fps <= 61)  // never more frames than 60 Hz slots
        #expect(r.timeline.allSatisfy { $0[0] >= 0 && $0[0] <= r.measuredSeconds + 0.05 && $0[1] >= 0 })
        #expect(zip(r.timeline, r.timeline.dropFirst()).allSatisfy { $0[0] < $1[0] })
        #expect(r.peakRSSMB > 0 && r.cpuMs >= 0)
    }

    /// A scene that ends itself ends its mode there, before the measured window is over.
    @Test func aSceneThatFinishesEndsItsMode() throws {
        final class Countdown: BenchScene {
            static let name = "countdown"
            static let summary = "ends after 5 measured frames"
            static let supportsSync = false
            let square = Layer()
            var measured = 0
            init(stage: BenchStage) throws { stage.root.addSublayer(square) }
            func update(time: Double) { square.frame = Rect(x: time * 60, y: 0, width: 8, height: 8) }
            func didPresent(_ frame: FrameObservation) { if frame.measuring { measured += 1 } }
            var isFinished: Bool { measured >= 5 }
        }
        var settings = BenchSettings.quick(size: Size(width: 64, height: 48), scale: 1)
        settings.warmupSeconds = 0.05
        settings.measuredSeconds = 30
        let (r, _) = try FrameRunner(settings: settings).run(Countdown.self, mode: .async)
        #expect(r.frames == 5)
        #expect(r.measuredSeconds < 30)
    }

    @Test func slopeIsLeastSquares() {
        #expect(Feed10kBench.slope([(0, 1), (1, 3), (2, 5)]) == 2)
        #expect(Feed10kBench.slope([(1, 1)]) == nil)
        #expect(Feed10kBench.slope([(1, 1), (1, 2)]) == nil)
    }

    func sampleReport() throws -> BenchReport {
        var settings = BenchSettings.quick(size: Size(width: 64, height: 48), scale: 1)
        settings.warmupSeconds = 0.05
        settings.measuredSeconds = 0.2
        let entries: [BenchCatalog.Entry] = [
            .frames(TinyMovingScene.self),
            .unavailable(name: "feed-scroll", summary: "the feed", reason: "unavailable in this build: not merged"),
        ]
        return BenchSuite(settings: settings, entries: entries, command: "test", build: "debug").run()
    }

    @Test func unavailableScenesAreReportedNotDropped() throws {
        let report = try sampleReport()
        #expect(report.scenes.map(\.status) == [.ok, .unavailable])
        #expect(report.table().contains("feed-scroll        unavailable: unavailable in this build"))
        #expect(report.markdown().contains("| feed-scroll | — | unavailable"))
        // Layer scenes say why there is no sync run.
        #expect(report.scenes[0].syncNote != nil && report.scenes[0].modes?["sync"] == nil)
        let json = try JSONSerialization.jsonObject(with: report.jsonData()) as? [String: Any]
        #expect(json?["schemaVersion"] as? Int == 1)
        #expect((json?["scenes"] as? [[String: Any]])?.count == 2)
    }

    /// The plot is drawn: the legend's async swatch is the async colour, and the frame of the
    /// timeline panel is there.
    @Test func plotDrawsLegendAndPanels() throws {
        let report = try sampleReport()
        let bitmap = try BenchPlot(report: report).render()
        #expect(bitmap.width == 1600)
        #expect(bitmap.height > 300)
        let swatch = bitmap.argb32(x: 1010, y: 85)
        #expect(swatch & 0xffffff == 0x1f6fd1)
    }
}

