import Foundation

// The benchmark's results: Codable values written by `silk bench --json` in the shape that
// docs/benchmark.schema.json describes (keep the two in step: CI validates one against the other).

/// Percentiles of a set of samples (milliseconds unless the field says otherwise).
public struct Distribution: Codable, Sendable, Equatable {
    public var p50: Double, p95: Double, p99: Double, max: Double, mean: Double
    /// Nearest-rank percentiles of `values` (all zero for no samples).
    public init(_ values: [Double]) {
        let s = values.filter(\.isFinite).sorted()
        func pct(_ p: Double) -> Double { s.isEmpty ? 0 : s[Swift.min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))] }
        p50 = pct(0.5); p95 = pct(0.95); p99 = pct(0.99); max = s.last ?? 0
        mean = s.isEmpty ? 0 : s.reduce(0, +) / Double(s.count)
    }
}

public struct MeanMax: Codable, Sendable {
    public var mean: Double, max: Double
    public init(_ v: [Double]) { mean = v.isEmpty ? 0 : v.reduce(0, +) / Double(v.count); max = v.max() ?? 0 }
    public init(mean: Double, max: Double) { self.mean = mean; self.max = max }
}

/// One mode (async or sync) of a frame scene.
public struct ModeResult: Codable, Sendable {
    /// Frames presented in the measured window (after warm-up).
    public var frames: Int
    /// Seconds of the measured window.
    public var measuredSeconds: Double
    /// Frames presented per second of the measured window.
    public var fps: Double
    /// Frames whose cost (`frameMs`) exceeded 16.67 ms: they would miss a 60 Hz deadline.
    public var missedFrames: Int
    /// Frames composited during the idle check (nothing changed), for layer scenes; must be 0.
    public var idleFramesComposited: Int
    /// User + system CPU time of the process in the measured window, and as a share of one core.
    public var cpuMs: Double
    public var cpuPercent: Double
    /// Peak resident memory (MiB) from the start of this mode's setup to its end.
    public var peakRSSMB: Double
    /// Frame cost: main-thread CPU + composite CPU + present (what a 60 Hz deadline must hold).
    public var frameMs: Distribution
    /// Wall time from the start of a frame's main-thread work until it was presented.
    public var frameWallMs: Distribution
    public var mainBusyMs: Distribution
    public var compositeMs: Distribution
    public var presentMs: Distribution
    public var mainWallMs: Distribution
    public var compositeWallMs: Distribution
    /// Device pixels the presenter updated per frame — repainted or moved by a scroll blit (a
    /// pixel in two overlapping damage rectangles counts twice), millions.
    public var damagedMegapixels: Distribution
    /// Banded compositing (`Compositor.compositeThreads`): the band workers' CPU per frame, and
    /// the render thread's plus theirs (what the frame's compositing cost the machine). Nil when
    /// no measured frame was banded; `compositeMs` is then all of it.
    public var compositeWorkerCPUMs: Distribution? = nil
    public var compositeAllCPUMs: Distribution? = nil
    /// Composite CPU time of the frames shown while a screen transition ran (navigation).
    public var transitionCompositeMs: Distribution? = nil
    /// Per measured frame: its start (seconds from the start of the measured window) and its cost
    /// (`frameMs`), in order — the plot's timeline.
    public var timeline: [[Double]]
    // Node scenes with a display range (rainforest-scroll):
    public var staleFrames: Int? = nil
    public var placeholderCellFrames: Int? = nil
    public var timeToContentMs: MeanMax? = nil
    public var coldFirstFrameMs: Double? = nil
    public var firstScreenCompleteMs: Double? = nil
    public var displayJobs: Int? = nil
    public var cancelledResults: Int? = nil
    // Scenes that scroll through the feed (feed-scroll, feed-10k):
    /// Feed pages fetched by batch fetching during the mode, and the posts loaded in all.
    public var pagesFetched: Int? = nil
    public var postsLoaded: Int? = nil
    /// Photos that arrived (decoded and shown) during the mode.
    public var photosShown: Int? = nil
    // The media scene's video (measured window): frames decoded and scaled on GStreamer's
    // streaming thread, shown by the render thread, and decoded but replaced before being shown.
    public var videoFramesDecoded: Int? = nil
    public var videoFramesShown: Int? = nil
    public var videoFramesDropped: Int? = nil
    // Memory scenes (feed-10k); MiB of resident memory (VmRSS):
    /// At the start of the scene (after building it), after its warm-up (the first
    /// `warmupItems` posts scrolled past), and at its end.
    public var rssAtStartMB: Double? = nil
    public var rssAfterWarmupMB: Double? = nil
    public var rssEndMB: Double? = nil
    public var warmupItems: Int? = nil
    /// Least-squares slope of RSS over the posts scrolled after the warm-up, MiB per 1,000 posts
    /// (flat memory: near 0).
    public var rssSlopeMBPer1000Items: Double? = nil
    /// Samples [post index at the top of the screen, RSS MiB, seconds since the mode started].
    public var rssTimeline: [[Double]]? = nil
    /// Where the resident memory is, every 100 frames: [post index at the top, C heap MiB in
    /// use, C heap MiB free in the arenas, MiB of blocks mapped on their own, glyph cache MiB,
    /// decoded + modified bitmap caches MiB, encoded-image memory cache MiB] (`feed-10k`).
    public var heapTimeline: [[Double]]? = nil
    /// A presenter that flips (KMS): its page flips during the measured window.
    public var pageFlips: PageFlipResult? = nil
}

/// Page flips of the measured window (`silk bench --backend kms`).
public struct PageFlipResult: Codable, Sendable {
    /// Frames presented (flips requested) in the window.
    public var framesPresented: Int
    /// Flip-complete events in the window.
    public var flipsCompleted: Int
    /// Flips that never completed in time.
    public var flipTimeouts: Int
    /// Whether the display's vblank paced the flips (false: the driver has no vblank interrupt
    /// and a timer at the mode's rate paced them).
    public var vblankPaced: Bool
    /// Milliseconds between consecutive flip-complete events: the real present interval.
    public var intervalMs: Distribution
    /// Milliseconds from each flip's commit (drmModePageFlip) to its flip-complete event.
    public var flipLatencyMs: Distribution

    /// The flips between two samples of the same presenter.
    public init(from a: PageFlipSample, to b: PageFlipSample) {
        framesPresented = b.framesPresented - a.framesPresented
        flipsCompleted = b.flipsCompleted - a.flipsCompleted
        flipTimeouts = b.flipTimeouts - a.flipTimeouts
        vblankPaced = b.vblankPaced
        intervalMs = Distribution(b.intervals.dropFirst(a.intervals.count).map { $0 * 1000 })
        flipLatencyMs = Distribution(b.latencies.dropFirst(a.latencies.count).map { $0 * 1000 })
    }
}

/// A named figure of a measurement scene (image-decode, layout, startup).
public struct Figure: Codable, Sendable {
    public var name: String
    public var value: Double
    public var unit: String
    public init(_ name: String, _ value: Double, _ unit: String) { self.name = name; self.value = value; self.unit = unit }
}

public struct SceneResult: Codable, Sendable {
    public enum Kind: String, Codable, Sendable { case frames, measurement }
    public enum Status: String, Codable, Sendable { case ok, unavailable, failed }
    public var name: String
    public var summary: String
    public var kind: Kind
    public var status: Status
    /// Why the scene is unavailable or failed.
    public var reason: String? = nil
    /// Frame scenes: "async" and, when the scene displays per frame, "sync".
    public var modes: [String: ModeResult]? = nil
    /// Frame scenes without a sync run: why sync would be the same as async.
    public var syncNote: String? = nil
    /// sync ÷ async of the main figures (see docs/benchmark.md).
    public var ratios: [String: Double]? = nil
    /// Measurement scenes.
    public var figures: [Figure]? = nil
    /// Free-form facts about the run (fonts used, image sizes, how startup was measured).
    public var notes: [String]? = nil
    /// Wall time the scene took, setup included.
    public var wallSeconds: Double

    /// sync/async ratios of the figures a reader compares.
    public static func ratios(async a: ModeResult, sync s: ModeResult) -> [String: Double] {
        func r(_ x: Double, _ y: Double) -> Double { y > 0 ? (x / y * 1000).rounded() / 1000 : 0 }
        return ["frameP50": r(s.frameMs.p50, a.frameMs.p50), "frameP99": r(s.frameMs.p99, a.frameMs.p99),
                "mainBusyP50": r(s.mainBusyMs.p50, a.mainBusyMs.p50), "mainBusyP99": r(s.mainBusyMs.p99, a.mainBusyMs.p99),
                "fps": r(s.fps, a.fps), "cpuPercent": r(s.cpuPercent, a.cpuPercent)]
    }
}

/// Facts about the machine measured in the same run: the baseline every figure is read against.
public struct MachineBaseline: Codable, Sendable {
    public var cores: Int
    public var architecture: String
    public var kernel: String
    /// memcpy bandwidth, GB/s (64 MiB copies, thread CPU time).
    public var memcpyGBps: Double
    /// Median memcpy of one full ARGB32 frame at the benchmark's size, milliseconds.
    public var frameCopyMs: Double
    public var loadAverage: Double

    public static func measure(pixelWidth: Int, pixelHeight: Int) -> MachineBaseline {
        var u = utsname()
        uname(&u)
        func string<T>(_ t: T) -> String { withUnsafeBytes(of: t) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } }
        var load = [0.0, 0, 0]
        getloadavg(&load, 3)
        return MachineBaseline(cores: ProcessInfo.processInfo.activeProcessorCount, architecture: string(u.machine),
                               kernel: string(u.release), memcpyGBps: ProcessMeasurements.memcpyGigabytesPerSecond(),
                               frameCopyMs: ProcessMeasurements.frameCopyMilliseconds(width: pixelWidth, height: pixelHeight),
                               loadAverage: load[0])
    }
}

/// Everything one `silk bench` run measured.
public struct BenchReport: Codable, Sendable {
    public var schemaVersion = 1
    /// ISO 8601 date and time of the run (UTC).
    public var date: String
    /// The command line that produced it.
    public var command: String
    public var backend: String
    /// "release" or "debug": debug builds are several times slower; compare release figures.
    public var build: String
    public var quick: Bool
    /// Viewport in points and device pixels per point.
    public var size: [Int]
    public var scale: Double
    /// Warm-up and measured seconds per mode of a frame scene.
    public var warmupSeconds: Double
    public var measuredSeconds: Double
    public var machine: MachineBaseline
    public var scenes: [SceneResult]
    public var totalSeconds: Double

    public func jsonData() throws -> Data {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try enc.encode(self)
    }
}
