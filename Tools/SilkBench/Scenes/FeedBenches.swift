import Foundation
import SilkDemoServer
import SilkGeometry
import SilkNodes
import SilkRaster
import SilkRender
import SilkScenes

/// What the feed scenes track on screen after every frame (`ScreenContentTracker`), and which
/// posts' photos were ever shown.
struct FeedScreenTracker {
    private(set) var screen = ScreenContentTracker()
    private(set) var photosShown = ItemBits()

    /// A post's photo counts as shown once it arrived (final or progressive) and its layer has
    /// contents.
    static func photoShown(_ cell: FeedCellNode?) -> Bool {
        guard let cell else { return false }
        return cell.photoIsShown && cell.content.photoNode.layer?.contents != nil
    }

    mutating func observe(_ feed: FeedNode, _ frame: FrameObservation) {
        let visible = feed.visibleItemPaths.map { (index: $0.item, hasContent: Self.photoShown(feed.cell(at: $0.item))) }
        for item in visible where item.hasContent { photosShown.insert(item.index) }
        screen.observe(visible, frame: frame)
    }
}

/// Builds the feed for a bench scene: a demo server with `length` posts, the first page loaded
/// and measured before the run, and the server's photos for the first `warmPhotos` posts
/// rendered ahead (the server stands for another machine: its CPU is not the app's).
func makeBenchFeed(stage: BenchStage, length: Int, pageSize: Int, warmPhotos: Int) throws -> (FeedScene.Session, FeedNode) {
    let session = try FeedScene.Session(feedLength: length, pageSize: pageSize)
    if warmPhotos > 0 {
        let content = session.server.content
        let page = content.respond(to: DemoRequest(target: "/feed?page=0&count=\(min(100, warmPhotos))"))
        if let posts = try? JSONDecoder().decode(FeedPage.self, from: page.body).posts {
            for p in posts { _ = content.respond(to: DemoRequest(target: p.photoURL.path + "?" + (p.photoURL.query ?? ""))) }
        }
    }
    let feed = FeedNode(model: session.model, loader: session.loader)
    do { try feed.loadNow(pages: 1, viewport: stage.size) } catch { throw SceneError("\(error)") }
    stage.background = FeedNode.backgroundColor
    stage.show(feed)
    return (session, feed)
}

/// `feed-scroll`: the feed demo — posts with a round avatar, name, age, photo, likes and caption,
/// avatars and photos downloaded from the local demo server (progressive JPEGs for half of
/// them) and decoded at their node's size — still during the warm-up, then scrolled down at
/// 1,200 pt/s. Pages of 6 posts, so batch fetching inserts new posts during the measured window.
public final class FeedScrollBench: BenchScene {
    public static let name = "feed-scroll"
    public static let summary = "the ASDKgram feed (avatar, photo over HTTP, text) scrolled at 1,200 pt/s; pages by batch fetching"
    public static let supportsSync = true
    let session: FeedScene.Session
    let feed: FeedNode
    let warmup: Double
    let speed = 1200.0
    private var tracker = FeedScreenTracker()
    private var coldFirstFrameMs = 0.0
    private let pagesBefore: Int

    public init(stage: BenchStage) throws {
        warmup = stage.warmupSeconds
        (session, feed) = try makeBenchFeed(stage: stage, length: 10_000, pageSize: 6, warmPhotos: 48)
        pagesBefore = feed.fetchStatistics.pagesLoaded
    }

    deinit { session.server.stop() }

    /// Still during the warm-up (the first screen loads and displays), then down at 1,200 pt/s,
    /// as far as the posts loaded so far reach.
    public func update(time: Double) {
        let target = time < warmup ? 0 : (time - warmup) * speed
        feed.advance(by: target - feed.contentOffset.y)
    }

    public func didPresent(_ frame: FrameObservation) {
        if frame.index == 0 { coldFirstFrameMs = frame.mainBusyMs }
        tracker.observe(feed, frame)
    }

    public func finish(into result: inout ModeResult, pass: NodePass?) {
        let stats = pass?.committer.statistics ?? TransactionCommitter.Statistics()
        tracker.screen.report(into: &result)
        result.coldFirstFrameMs = coldFirstFrameMs
        result.firstScreenCompleteMs = tracker.screen.firstScreenCompleteMs ?? -1
        result.displayJobs = pass?.statistics.jobsStarted ?? 0
        result.cancelledResults = stats.cancelledResults
        result.pagesFetched = feed.fetchStatistics.pagesLoaded - pagesBefore
        result.postsLoaded = feed.posts.count
        result.photosShown = tracker.photosShown.count
    }

    public var notes: [String] {
        ["feed-scroll: a 600-pt column of posts; photos 600 x 400-750 px JPEG from 127.0.0.1, rendered by the server before the run",
         "feed-scroll: sync runs display jobs on the main thread; image decoding stays on the display queues in both modes"]
    }
}

/// `feed-10k`: memory while 10,000 feed posts scroll by, top to bottom — a fast scripted scroll
/// (60,000 pt/s, frames still rendered, as far as the posts loaded so far reach) that stops for
/// half a second every 500 posts so the images near the screen load and display. Pages of 50
/// posts are batch-fetched 8 screens ahead. Reports resident memory: after the first
/// `warmupItems` posts, its peak, at the end, and its slope over the rest. Opt-in (`--scene
/// feed-10k`): it takes a minute or two, and for a clean peak it should run alone.
public final class Feed10kBench: BenchScene {
    public static let name = "feed-10k"
    public static let summary = "10,000 feed posts scrolled top to bottom (fast, pausing every 500 for images): resident memory"
    public static let supportsSync = true
    public static let modes: [BenchMode] = [.async]
    public static let length = 10_000
    public static let warmupItems = 500
    static let speed = 60_000.0
    static let dwellEvery = 500
    static let dwellSeconds = 0.5

    public static func window(_ settings: BenchSettings) -> (warmup: Double, measured: Double) { (settings.warmupSeconds, 900) }
    public static func estimatedMeasuredSeconds(_ settings: BenchSettings) -> Double { 90 }

    let session: FeedScene.Session
    let feed: FeedNode
    let warmup: Double
    private var tracker = FeedScreenTracker()
    private var lastTime = 0.0
    private var dwellUntil = -1.0
    private var nextDwell = dwellEvery
    private var frames = 0
    private var timeline: [[Double]] = []
    private var heapTimeline: [[Double]] = []
    private var rssAtStart = 0.0
    private var rssAfterWarmup: Double?
    private let startedAt = ProcessMeasurements.now()

    public init(stage: BenchStage) throws {
        // What earlier scenes left in the heap goes back to the kernel first, and the peak
        // starts from here.
        ProcessMeasurements.trimHeap()
        warmup = stage.warmupSeconds
        (session, feed) = try makeBenchFeed(stage: stage, length: Self.length, pageSize: 50, warmPhotos: 0)
        feed.leadingScreensForBatching = 8
        ProcessMeasurements.resetPeakRSS()
        rssAtStart = ProcessMeasurements.currentRSSMegabytes() ?? 0
    }

    deinit { session.server.stop() }

    public var isFinished: Bool { feed.isAtEnd }

    var topItem: Int { feed.visibleItemPaths.first?.item ?? 0 }

    public func update(time: Double) {
        defer { lastTime = time }
        guard time >= warmup, time >= dwellUntil else { return }
        if topItem >= nextDwell {
            nextDwell += Self.dwellEvery
            // The demo server stands for another machine but runs in this process: its request
            // log (thousands of URLs by the end) is not the app's memory.
            session.server.resetRequestLog()
            dwellUntil = time + Self.dwellSeconds
            return
        }
        // Real time, but at most two screens a frame: every stretch of the feed is drawn.
        let step = min((time - max(lastTime, warmup)) * Self.speed, 2 * feed.bounds.height)
        feed.advance(by: step)
    }

    public func didPresent(_ frame: FrameObservation) {
        tracker.observe(feed, frame)
        frames += 1
        let top = topItem
        if rssAfterWarmup == nil, top >= Self.warmupItems { rssAfterWarmup = ProcessMeasurements.currentRSSMegabytes() }
        if frames % 100 == 0 || isFinished, let heap = ProcessMeasurements.heapMegabytes() {
            let mib = 1.0 / 1_048_576, r = { (x: Double) in (x * 100).rounded() / 100 }
            let bitmaps = ImageNode.decodedImageCache.statistics.bytes + ImageNode.modifiedImageCache.statistics.bytes
            heapTimeline.append([Double(top), r(heap.inUse), r(heap.free), r(heap.mapped),
                                 r(Double(GlyphCache.shared.statistics.bytes) * mib), r(Double(bitmaps) * mib),
                                 r(Double(feed.loader.cache.statistics.memoryBytes) * mib)])
        }
        if frames % 10 == 0 || isFinished, let rss = ProcessMeasurements.currentRSSMegabytes() {
            timeline.append([Double(top), (rss * 10).rounded() / 10, ((ProcessMeasurements.now() - startedAt) * 100).rounded() / 100])
        }
    }

    public func finish(into result: inout ModeResult, pass: NodePass?) {
        tracker.screen.report(into: &result)
        result.displayJobs = pass?.statistics.jobsStarted ?? 0
        result.pagesFetched = feed.fetchStatistics.pagesLoaded
        result.postsLoaded = feed.posts.count
        result.photosShown = tracker.photosShown.count
        result.rssAtStartMB = rssAtStart
        result.rssAfterWarmupMB = rssAfterWarmup
        result.rssEndMB = ProcessMeasurements.currentRSSMegabytes()
        result.warmupItems = Self.warmupItems
        result.rssTimeline = timeline
        result.heapTimeline = heapTimeline
        let after = timeline.filter { $0[0] >= Double(Self.warmupItems) }
        result.rssSlopeMBPer1000Items = Self.slope(after.map { ($0[0], $0[1]) }).map { ($0 * 1000 * 1000).rounded() / 1000 }
    }

    /// Least-squares slope of y over x (nil for fewer than two distinct x).
    static func slope(_ points: [(Double, Double)]) -> Double? {
        let n = Double(points.count)
        guard n >= 2 else { return nil }
        let mx = points.map(\.0).reduce(0, +) / n, my = points.map(\.1).reduce(0, +) / n
        let sxx = points.reduce(0) { $0 + ($1.0 - mx) * ($1.0 - mx) }
        guard sxx > 0 else { return nil }
        return points.reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) } / sxx
    }

    public var notes: [String] {
        var n = ["feed-10k: \(Self.length) posts, pages of 50 fetched 8 screens ahead; scrolled at \(Int(Self.speed)) pt/s (at most 2 screens a frame), still for \(Self.dwellSeconds) s every \(Self.dwellEvery) posts"]
        if !feed.isAtEnd { n.append("feed-10k: stopped at post \(topItem) of \(Self.length) (the 900 s cap)") }
        return n
    }
}
