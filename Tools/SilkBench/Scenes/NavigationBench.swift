import Foundation
import SilkGeometry
import SilkLayout
import SilkNodes
import SilkRender
import SilkScenes

/// `navigation`: a navigation stack over the rainforest grid (200 cards: photo, blur, text)
/// pushes a detail screen and pops it again, one change every 0.6 s, with the default slide
/// (0.3 s). The home grid is hidden while covered — its cards release their bitmaps — so every
/// pop uncovers cells that are displaying again during the slide: the transition and display
/// work overlap, which is what the scene measures. Frames during a slide are tagged, and their
/// composite time is reported as `transitionCompositeMs` (a full-screen slide recomposites the
/// whole frame: the target is ≤ 3 × `frameCopyMs`).
public final class NavigationBench: BenchScene {
    public static let name = "navigation"
    public static let summary = "push and pop a detail screen over the rainforest grid every 0.6 s with the default slide, while the grid's cells display"
    public static let supportsSync = true

    let navigation: NavigationController
    let home: RainforestListNode
    let size: Size
    let scale: Double
    private let clock = SceneTimer()
    private var nextChange = 0.0
    private var changes = 0
    /// Seconds between changes (a push, then a pop, …).
    static let period = 0.6

    public init(stage: BenchStage) throws {
        guard RainforestCatalog.entries[0].photoPath != nil else { throw SceneError("navigation: assets/photos not found (set SILK_ASSETS)") }
        size = stage.size
        scale = stage.scale
        home = RainforestScene.makeList(count: 200, viewport: stage.size, scale: stage.scale)
        let root = NodeController(node: home)
        root.title = "home"
        navigation = NavigationController(root: root)
        navigation.timer = clock.timer
        navigation.beginAppearanceTransition(true, animated: false)
        navigation.endAppearanceTransition(animated: false)
        stage.background = Color(rgb: 0x1f2a22)
        stage.show(navigation.node)
        nextChange = stage.warmupSeconds
    }

    /// A detail screen: one card, large, on a plain background (built off the main thread, as
    /// an app would prepare it).
    private func makeDetail(_ index: Int) -> NodeController {
        let entry = RainforestCatalog.entries[index % RainforestCatalog.entries.count]
        let scale = self.scale
        let card = NodeSnapshot.buildInBackground { CardNode(entry: entry, scale: scale) }
        let screen = DisplayNode()
        screen.backgroundColor = Color(rgb: 0x10161a)
        screen.isOpaque = true
        screen.addSubnode(card)
        screen.layoutSpecBlock = { _, _ in CenterLayoutSpec(centeringOptions: .xy, child: card) }
        let controller = NodeController(node: screen)
        controller.title = "detail \(index)"
        return controller
    }

    /// Still during the warm-up (the first screen displays); then a push or a pop every 0.6 s.
    public func update(time: Double) {
        clock.advance(to: time)
        guard time >= nextChange else { return }
        nextChange += Self.period
        if navigation.controllers.count > 1 {
            navigation.pop()
        } else {
            navigation.push(makeDetail(changes))
        }
        changes += 1
    }

    /// Frames composited while a slide runs.
    public var isInTransition: Bool { navigation.isTransitioning }

    public func finish(into result: inout ModeResult, pass: NodePass?) {
        let stats = pass?.committer.statistics ?? TransactionCommitter.Statistics()
        result.displayJobs = pass?.statistics.jobsStarted ?? 0
        result.cancelledResults = stats.cancelledResults
        result.staleFrames = stats.staleApplied
    }

    public var notes: [String] { ["navigation: \(changes) pushes and pops, one every \(Self.period) s, default slide 0.3 s"] }
}

/// Transition ends on the scene's clock (the frame runner's, not the main loop's).
final class SceneTimer: @unchecked Sendable {
    private var pending: [(id: Int, due: Double, body: () -> Void)] = []
    private var now = 0.0
    private var nextID = 0

    var timer: TransitionTimer {
        TransitionTimer { [self] seconds, body in
            nextID += 1
            let id = nextID
            pending.append((id, now + seconds, body))
            return { [self] in pending.removeAll { $0.id == id } }
        }
    }

    /// Runs the bodies due by `time` (seconds since the mode started).
    func advance(to time: Double) {
        now = time
        let due = pending.filter { $0.due <= time }
        pending.removeAll { $0.due <= time }
        for p in due { p.body() }
    }
}
