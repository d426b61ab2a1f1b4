import SilkGeometry
import SilkNodes
import SilkRender

/// Makes the presenter a frame scene's mode shows its frames on: pixel width, height, scale.
public typealias PresenterFactory = @Sendable (Int, Int, Double) throws -> any Presenter

/// Page-flip counters read from a presenter that flips (KMS), cumulative since it opened.
public struct PageFlipSample: Sendable {
    /// Frames presented (each one flip requested).
    public var framesPresented: Int
    /// Flip-complete events received.
    public var flipsCompleted: Int
    /// Flips that never completed in time.
    public var flipTimeouts: Int
    /// Seconds between consecutive flip-complete events, oldest first.
    public var intervals: [Double]
    /// Seconds from each flip's commit to its completion, oldest first.
    public var latencies: [Double]
    /// Whether the display's vblank paces the flips (else a timer at the mode's rate).
    public var vblankPaced: Bool
    /// A sample of the given counters.
    public init(framesPresented: Int, flipsCompleted: Int, flipTimeouts: Int, intervals: [Double], latencies: [Double], vblankPaced: Bool) {
        self.framesPresented = framesPresented; self.flipsCompleted = flipsCompleted; self.flipTimeouts = flipTimeouts
        self.intervals = intervals; self.latencies = latencies; self.vblankPaced = vblankPaced
    }
}

/// Reads the page-flip counters of a presenter, nil for one that does not flip.
public typealias PageFlipProbe = @Sendable (any Presenter) -> PageFlipSample?

/// Where a frame scene is built: a window-sized root layer, and optionally a node tree that the
/// runner drives with a `NodePass` each frame (as a `Window` does).
public final class BenchStage {
    public let size: Size
    public let scale: Double
    /// The root layer the render thread shows; layer scenes add their layers here.
    public let root = Layer()
    /// True for `--quick`: scenes may build less (fewer cards) where that does not change what
    /// a frame measures.
    public let quick: Bool
    public var background: Color {
        didSet { root.backgroundColor = background }
    }
    public private(set) var rootNode: DisplayNode?
    /// Seconds of warm-up before the measured window (scenes may hold still during it).
    public let warmupSeconds: Double

    public init(size: Size, scale: Double, quick: Bool, warmupSeconds: Double, background: Color = .white) {
        self.size = size; self.scale = scale; self.quick = quick; self.background = background
        self.warmupSeconds = warmupSeconds
        root.frame = Rect(size: size)
        root.backgroundColor = background
    }

    /// Shows `node` filling the stage; the runner runs its node pass and commits its display
    /// results every frame.
    public func show(_ node: DisplayNode) { rootNode = node }

    public var pixelWidth: Int { Int((size.width * scale).rounded(.up)) }
    public var pixelHeight: Int { Int((size.height * scale).rounded(.up)) }
}

/// What the runner tells a scene after each frame (main thread).
public struct FrameObservation {
    /// Frames run so far in this mode (0 for the first).
    public var index: Int
    /// Seconds since the mode started (warm-up included), on the 60 Hz grid.
    public var time: Double
    /// Milliseconds since the mode started, when the frame was presented (wall).
    public var presentedAtMs: Double
    public var measuring: Bool
    /// Main-thread CPU time of this frame, milliseconds.
    public var mainBusyMs: Double
    /// Results the scene's committer applied although their job had been cancelled, so far in
    /// this mode (must stay 0; node scenes only).
    public var staleApplied = 0
}

/// A scene the frame runner drives: built once per mode on the main thread, then updated on a
/// 60 Hz real-time grid (or every `updateInterval` seconds); after each update the runner runs
/// the node pass (node scenes), commits the layer tree to the render thread and waits until it
/// is presented. See `FrameRunner` for the loop and docs/benchmark.md for the figures.
public protocol BenchScene: AnyObject {
    /// The name `silk bench --scene` takes.
    static var name: String { get }
    /// One line for the table and the JSON.
    static var summary: String { get }
    /// True for node scenes (`stage.show(_:)`): they display (rasterize) nodes while they run,
    /// so `sync` — display on the main thread during the pass — differs from `async`.
    /// Layer-only scenes have no display work and run once, without touching the node pipeline.
    static var supportsSync: Bool { get }
    /// Seconds between updates: 1/60 for animations (the default), 1 for a clock.
    static var updateInterval: Double { get }
    /// The modes the suite runs: async and sync when `supportsSync`, else async (the default).
    static var modes: [BenchMode] { get }
    /// True for scenes with endless render-thread animations (a spinner): the headless
    /// presenter then hands out frame slots on a real 60 Hz clock, since its virtual clock would
    /// composite animation frames back to back and starve the main thread. Default false.
    static var presentsOnRealTimeClock: Bool { get }
    /// The warm-up and the longest measured window for `settings` (default: the settings'). A
    /// scene that ends by itself (`isFinished`) gives its cap here.
    static func window(_ settings: BenchSettings) -> (warmup: Double, measured: Double)
    /// About how long the measured window lasts (the progress line's estimate).
    static func estimatedMeasuredSeconds(_ settings: BenchSettings) -> Double
    /// True once the scene has done what it measures (checked after every frame): the mode ends
    /// there, before its measured window is over. Default false.
    var isFinished: Bool { get }
    /// Builds the scene on `stage` (main thread).
    init(stage: BenchStage) throws
    /// Moves the scene to `time` seconds since the mode started (main thread).
    func update(time: Double)
    /// Called after each frame was presented (main thread).
    func didPresent(_ frame: FrameObservation)
    /// Adds the scene's own figures to the mode's result.
    func finish(into result: inout ModeResult, pass: NodePass?)
    /// Facts worth printing once (fonts used, sizes).
    var notes: [String] { get }
    /// True while the scene runs a screen transition (read after each update): those frames'
    /// composite times are also reported as `transitionCompositeMs`. Default false.
    var isInTransition: Bool { get }
}

extension BenchScene {
    public static var updateInterval: Double { 1.0 / 60 }
    public static var modes: [BenchMode] { supportsSync ? BenchMode.allCases : [.async] }
    public static var presentsOnRealTimeClock: Bool { false }
    public static func window(_ settings: BenchSettings) -> (warmup: Double, measured: Double) {
        (settings.warmupSeconds, settings.measuredSeconds)
    }
    public static func estimatedMeasuredSeconds(_ settings: BenchSettings) -> Double { window(settings).measured }
    public var isFinished: Bool { false }
    public func didPresent(_ frame: FrameObservation) {}
    public func finish(into result: inout ModeResult, pass: NodePass?) {}
    public var notes: [String] { [] }
    public var isInTransition: Bool { false }
}

/// Settings of one run, shared by frame and measurement scenes.
public struct BenchSettings: Sendable {
    public var size: Size
    public var scale: Double
    public var warmupSeconds: Double
    public var measuredSeconds: Double
    public var quick: Bool
    /// The command that starts this program's startup probe (see `StartupBench`); nil when the
    /// host program offers none.
    public var startupCommand: [String]?
    /// The backend the report names ("headless", "fbdev") and the presenter frame scenes show
    /// their frames on; nil: a headless presenter on a virtual clock (composites at once).
    public var backend = "headless"
    public var makePresenter: PresenterFactory?
    /// Whether the default headless presenter copies each frame's damage into a frame of its
    /// own, as a display buffer would receive it (true); false skips it, as Qt's `offscreen`
    /// platform does (`silk bench --no-present-copy`, for the peer comparison).
    public var headlessKeepsFrames = true
    /// Reads page-flip counters from the presenter `makePresenter` made (KMS); the frame runner
    /// reports the measured window's flips as `ModeResult.pageFlips`.
    public var pageFlipProbe: PageFlipProbe?

    public init(size: Size, scale: Double, warmupSeconds: Double, measuredSeconds: Double, quick: Bool,
                startupCommand: [String]? = nil) {
        self.size = size; self.scale = scale; self.warmupSeconds = warmupSeconds
        self.measuredSeconds = measuredSeconds; self.quick = quick; self.startupCommand = startupCommand
    }

    /// The default full run (1 s warm-up + 3 s measured per mode) and `--quick`.
    public static func full(size: Size, scale: Double) -> BenchSettings {
        BenchSettings(size: size, scale: scale, warmupSeconds: 1, measuredSeconds: 3, quick: false)
    }
    public static func quick(size: Size, scale: Double) -> BenchSettings {
        BenchSettings(size: size, scale: scale, warmupSeconds: 0.25, measuredSeconds: 0.5, quick: true)
    }
}

/// A scene that measures throughput rather than frames (image decoding, layout, startup).
public protocol MeasurementBench {
    static var name: String { get }
    static var summary: String { get }
    /// About how long `measure` takes, seconds (for the progress line).
    static func estimatedSeconds(_ settings: BenchSettings) -> Double
    /// Runs the measurement; `progress` may be called with the fraction done.
    static func measure(_ settings: BenchSettings, progress: (Double) -> Void) throws -> (figures: [Figure], notes: [String])
}

/// The scenes `silk bench` runs, in order. A scene that this build cannot run is listed as
/// unavailable with its reason — in the table and the JSON, never silently left out.
public enum BenchCatalog {
    public enum Entry {
        case frames(any BenchScene.Type)
        case measurement(any MeasurementBench.Type)
        case unavailable(name: String, summary: String, reason: String)

        public var name: String {
            switch self {
            case .frames(let t): t.name
            case .measurement(let t): t.name
            case .unavailable(let name, _, _): name
            }
        }
    }

    public static var all: [Entry] { [
        .frames(LayersScrollBench.self),
        .frames(RainforestScrollBench.self),
        .frames(FeedScrollBench.self),
        .frames(KioskIdleBench.self),
        .frames(TextHeavyBench.self),
        .frames(ManyLayersBench.self),
        .measurement(ImageDecodeBench.self),
        .measurement(LayoutBench.self),
        .measurement(StartupBench.self),
        .frames(Feed10kBench.self),
        .frames(NavigationBench.self),
        .frames(ControlsBench.self),
        .frames(MediaBench.self),
    ] }

    public static var names: [String] { all.map(\.name) }

    /// Scenes that run only when named (`--scene`): too long for the default run.
    public static let optIn: Set<String> = [Feed10kBench.name, MediaBench.name]
    /// What `silk bench` runs without `--scene`: every scene but the opt-in ones.
    public static var defaultRun: [Entry] { all.filter { !optIn.contains($0.name) } }
}
