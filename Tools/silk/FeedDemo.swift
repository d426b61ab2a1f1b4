import Foundation
import Silk
import SilkGeometry
import SilkNodes
import SilkRender
import SilkScenes

/// `silk demo feed`: the ASDKgram-style photo feed (`FeedNode`) over a demo HTTP server this
/// process starts on 127.0.0.1 with 10,000 generated posts. The window's root is the feed, so
/// the wheel, a drag or a touch, and ↑/↓, Page Up/Down, Home/End scroll it; without
/// `--no-scroll` a scripted scroll runs down at 1,200 pt/s (more pages arrive by batch
/// fetching as it goes). Prints "feed: N posts" after each page, and "feed: photos shown (…
/// from #K)" when every cell on screen shows its photo and that frame was presented — again
/// each time the screen settles on other posts (end-to-end tests wait for it).
@MainActor
func startFeedDemo(window: Window, app: Application) -> (Double) -> Void {
    let session: FeedScene.Session
    do { session = try FeedScene.Session() } catch { fail("demo feed: \(error)") }
    print("feed: serving \(session.server.content.feedLength) posts at \(session.server.baseURL)")
    let feed = FeedNode(model: session.model, loader: session.loader)
    feed.onPageLoaded = { print("feed: \($0) posts"); fflush(nil) }
    window.setRootNode(feed)
    var announcedFirst: Int?
    var settledTicks = 0
    var lastOffset = Point(x: -1, y: -1)
    app.loop.addTimer(after: .milliseconds(100), repeating: .milliseconds(100)) {
        _ = session  // the server lives as long as the demo
        // Settled: the same scroll offset for three ticks, on posts not announced yet.
        let offset = feed.contentOffset
        defer { lastOffset = offset }
        guard offset == lastOffset else { settledTicks = 0; return }
        let visible = feed.visibleItemPaths
        guard let first = visible.map(\.item).min(), first != announcedFirst else { settledTicks = 0; return }
        let shown = visible.allSatisfy { feed.cell(at: $0.item)?.photoIsShown == true }
        let idle = shown && window.nodePass?.committer.hasPendingCommits == false && window.presentedFrames > 0
            && window.renderThread.waitUntilPresented(timeout: 0, includingAnimations: true)
        settledTicks = idle ? settledTicks + 1 : 0
        if settledTicks >= 3 {
            announcedFirst = first
            settledTicks = 0
            print("feed: photos shown (\(visible.count) posts on screen from #\(first))"); fflush(nil)
        }
    }
    var last = 0.0
    return { t in
        feed.advance(by: max(0, t - last) * 1200)
        last = t
    }
}
