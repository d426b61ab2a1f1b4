import Foundation
import SilkGeometry
import SilkNodes
import SilkRender
import SilkScenes

/// `layers-scroll`: the frame-machinery scene — 200 opaque full-width bitmaps scrolled by moving
/// a clipping container's bounds. Nothing is rasterized per frame, so there is no sync run.
public final class LayersScrollBench: BenchScene {
    public static let name = "layers-scroll"
    public static let summary = "200 opaque full-width bitmaps scrolled at 1,200 pt/s (pure compositing)"
    public static let supportsSync = false
    let scene: LayersScrollScene

    public init(stage: BenchStage) throws {
        scene = try LayersScrollScene(root: stage.root, viewport: stage.size, scale: stage.scale)
    }
    public func update(time: Double) { scene.update(time: time) }
}

/// `rainforest-scroll`: the nodes scene — 200 rainforest cards (blurred backdrop, photo,
/// gradient, title, description) in a 4-column grid scrolled at 1,200 pt/s after a still warm-up;
/// cards within one screen ahead and half a screen behind are in the display range.
public final class RainforestScrollBench: BenchScene {
    public static let name = "rainforest-scroll"
    public static let summary = "200 rainforest cards (photo, blur, text) scrolled at 1,200 pt/s; display range 1 screen ahead"
    public static let supportsSync = true
    let list: RainforestListNode
    let warmup: Double
    let speed = 1200.0
    private var screen = ScreenContentTracker()
    private var coldFirstFrameMs = 0.0

    public init(stage: BenchStage) throws {
        guard RainforestCatalog.entries[0].photoPath != nil else { throw SceneError("rainforest-scroll: assets/photos not found (set SILK_ASSETS)") }
        warmup = stage.warmupSeconds
        list = RainforestScene.makeList(count: 200, viewport: stage.size, scale: stage.scale)
        stage.background = Color(rgb: 0x1f2a22)
        stage.show(list)
    }

    /// Still during the warm-up (the first screen displays), then down at 1,200 pt/s.
    public func update(time: Double) {
        list.scroll(to: time < warmup ? 0 : (time - warmup) * speed)
    }

    public func didPresent(_ frame: FrameObservation) {
        if frame.index == 0 { coldFirstFrameMs = frame.mainBusyMs }
        screen.observe(list.visibleCardIndices().map { (index: $0, hasContent: list.card(at: $0)?.layer?.contents != nil) }, frame: frame)
    }

    public func finish(into result: inout ModeResult, pass: NodePass?) {
        let stats = pass?.committer.statistics ?? TransactionCommitter.Statistics()
        screen.report(into: &result)
        result.coldFirstFrameMs = coldFirstFrameMs
        result.firstScreenCompleteMs = screen.firstScreenCompleteMs ?? -1
        result.displayJobs = pass?.statistics.jobsStarted ?? 0
        result.cancelledResults = stats.cancelledResults
    }
}

/// `kiosk-idle`: the kiosk dashboard (photo tiles, list, buttons) standing still; only the
/// clock's text changes, once a second. Measures what an idle kiosk costs: CPU % and the
/// clock frame (text displayed, a small damage composited).
public final class KioskIdleBench: BenchScene {
    public static let name = "kiosk-idle"
    public static let summary = "the kiosk dashboard standing still; only the clock text changes, once a second"
    public static let supportsSync = true
    public static let updateInterval = 1.0
    let kiosk: KioskNode

    public init(stage: BenchStage) throws {
        guard RainforestCatalog.entries[0].photoPath != nil else { throw SceneError("kiosk-idle: assets/photos not found (set SILK_ASSETS)") }
        let viewport = stage.size
        kiosk = NodeSnapshot.buildInBackground { KioskNode(viewport: viewport) }
        stage.background = KioskNode.backgroundColor
        stage.show(kiosk)
    }

    /// A reproducible clock: 09:41:SS from the seconds elapsed.
    public func update(time: Double) {
        kiosk.setClock(String(format: "09:41:%02d", Int(time.rounded()) % 60))
    }
}
