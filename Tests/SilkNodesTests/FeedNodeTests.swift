import Foundation
import Testing
import SilkDemoServer
import SilkGeometry
import SilkNetworkImage
import SilkRender
import SilkScenes
@testable import SilkNodes

/// The feed demo's table against the demo server. In `PipelineTests` (serialized): it runs node
/// passes, which share the global scheduler with the other pipeline suites.
extension PipelineTests {
    /// The feed demo's table (`FeedNode`) in a headless node pass on this thread: the first
    /// page arrives by batch fetching, the first screen shows its photos from the server, and
    /// scrolling to the end fetches every further page exactly once, in order, one at a time —
    /// and only while scrolling.
    @Test func feedBatchFetchesPagesAsItScrollsAndShowsPhotos() throws {
        let server = try DemoServer(content: DemoContent(feedLength: 40))
        let loader = NetworkImageLoader(cache: ImageCache(directory: nil))
        // A URLSession keeps its delegate until invalidated (LeakSanitizer in `make test-asan`).
        defer { loader.downloader.invalidate(); server.stop() }
        let feed = FeedNode(model: FeedModel(baseURL: server.baseURL, pageSize: 5), loader: loader)
        // The timeout only keeps a broken build from hanging.
        let harness = Harness(root: feed, size: Size(width: 400, height: 500), timeout: 30, pause: 2000)
        func iterate() { harness.iterate() }
        func iterate(until condition: () -> Bool) -> Bool { harness.iterate(until: condition) }
        func photosOnScreen() -> Bool {
            let visible = feed.visibleItemPaths
            return !visible.isEmpty && visible.allSatisfy { path in
                guard let cell = feed.cell(at: path.item) else { return false }
                return cell.photoIsShown && cell.content.photoNode.image != nil
            }
        }
        func feedRequests() -> [String] { server.requestLog.filter { $0.hasPrefix("/feed?") } }

        // The empty feed is shorter than the screen: the first page is fetched at once.
        #expect(iterate { !feed.posts.isEmpty })
        #expect(iterate(until: photosOnScreen))
        let firstPost = feed.posts[0]
        #expect(server.requestLog.contains(firstPost.photoURL.path + "?" + (firstPost.photoURL.query ?? "")))
        #expect(feed.cell(at: 0)?.content.avatarNode.image != nil)
        // Standing still, it fetches only what the first screens need (content 2 screens beyond).
        #expect(iterate { !feed.model.isLoading && feed.fetchStatistics.fetchesStarted == feed.fetchStatistics.pagesLoaded })
        for _ in 0..<20 { iterate(); usleep(1000) }
        let standing = feed.posts.count
        #expect(standing < 40)
        #expect(feed.fetchStatistics.pagesLoaded == standing / 5)

        // Scrolling down brings the rest, page by page.
        var countsSeen: Set<Int> = [standing]
        #expect(iterate {
            feed.advance(by: 250)
            countsSeen.insert(feed.posts.count)
            return feed.isAtEnd
        })
        #expect(feed.posts.map(\.id) == Array(0..<40))
        #expect(countsSeen.count >= 3)  // pages arrived during the scroll, not all at once
        let stats = feed.fetchStatistics
        #expect(stats.maximumConcurrentFetches == 1)
        #expect(stats.pagesLoaded == 8 && stats.failures == 0)
        #expect(feedRequests() == (0..<8).map { "/feed?page=\($0)&count=5" })
        // The last screen shows its photos too.
        #expect(iterate(until: photosOnScreen))
        // At the end of the feed nothing more is asked for.
        for _ in 0..<10 { iterate(); usleep(1000) }
        #expect(feedRequests().count == 8)
    }

    /// The model keeps a window of pages (2 here): scrolling to the end drops the first pages,
    /// and scrolling back fetches them again — the cells show the same posts, with their photos,
    /// and the feed node holds no copy of its own.
    @Test func feedScrolledBackFetchesDroppedPagesAgain() throws {
        let server = try DemoServer(content: DemoContent(feedLength: 40))
        let loader = NetworkImageLoader(cache: ImageCache(directory: nil))
        defer { loader.downloader.invalidate(); server.stop() }
        let model = FeedModel(baseURL: server.baseURL, pageSize: 5, residentPages: 2)
        let feed = FeedNode(model: model, loader: loader)
        // The timeout only keeps a broken build from hanging.
        let harness = Harness(root: feed, size: Size(width: 400, height: 500), timeout: 30, pause: 2000)
        func iterate() { harness.iterate() }
        func iterate(until condition: () -> Bool) -> Bool { harness.iterate(until: condition) }
        func visibleCellsShowTheirPosts() -> Bool {
            let visible = feed.visibleItemPaths
            return !visible.isEmpty && visible.allSatisfy { path in
                guard let cell = feed.cell(at: path.item) else { return false }
                return cell.content.post.id == path.item && cell.photoIsShown && cell.content.photoNode.image != nil
            }
        }
        func feedRequests() -> [String] { server.requestLog.filter { $0.hasPrefix("/feed?") } }

        #expect(iterate { feed.advance(by: 400); return feed.isAtEnd })
        #expect(model.count == 40 && model.residentPageCount == 2)
        #expect(model.post(at: 0) == nil)  // page 0 was dropped
        #expect(feedRequests() == (0..<8).map { "/feed?page=\($0)&count=5" })

        feed.setContentOffset(.zero)
        #expect(iterate(until: visibleCellsShowTheirPosts))
        #expect(feed.cell(at: 0)?.content.post.caption == model.post(at: 0)?.caption)
        // Page 0 came again, once, by the same cursor; no page was fetched beyond the feed.
        #expect(feedRequests().filter { $0 == "/feed?page=0&count=5" }.count == 2)
        #expect(model.residentPageCount <= 2)
        #expect(feed.posts.map(\.id) == Array(0..<40))  // reads dropped pages again
    }
}
