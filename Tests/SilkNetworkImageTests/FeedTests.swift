import Foundation
import Testing
import SilkDemoServer
import SilkGeometry
import SilkRaster
import SilkScenes
import SilkTestSupport

/// The feed's model and cells against the demo server.
@Suite struct FeedTests {
    @Test func pagesLoadInOrderUntilTheFeedEnds() throws {
        let server = try DemoServer(content: DemoContent(feedLength: 25))
        defer { server.stop() }
        let model = FeedModel(baseURL: server.baseURL, pageSize: 10)
        #expect(try model.loadNextPageAndWait().map(\.id) == Array(0..<10))
        #expect(try model.loadNextPageAndWait().map(\.id) == Array(10..<20))
        #expect(model.hasMore)
        #expect(try model.loadNextPageAndWait().map(\.id) == Array(20..<25))
        #expect(!model.hasMore)
        #expect(try model.loadNextPageAndWait().isEmpty)  // nothing more to ask for
        #expect(model.count == 25)
        #expect(server.requestCount(path: "/feed") == 3)
        let post = try #require(model.post(at: 3))
        #expect(post.photoURL.absoluteString.hasPrefix(server.baseURL.absoluteString + "/photo/3.jpg?w="))
        #expect(post.author.avatarURL.path.hasPrefix("/avatar/"))
    }

    /// Pages are fetched once and kept as posts: a response cache would only hold bodies never
    /// asked for again (4 MiB in Foundation's memory cache over a 10,000-post scroll).
    @Test func pageResponsesAreNotCached() {
        let model = FeedModel(baseURL: URL(string: "http://127.0.0.1:9")!, pageSize: 10)
        #expect(!model.cachesResponses)
    }

    @Test func theSameIDAlwaysGivesTheSamePost() throws {
        let a = try DemoServer(), b = try DemoServer()
        defer { a.stop(); b.stop() }
        let pa = try FeedModel(baseURL: a.baseURL, pageSize: 5).loadNextPageAndWait()
        let pb = try FeedModel(baseURL: b.baseURL, pageSize: 5).loadNextPageAndWait()
        #expect(pa.map(\.caption) == pb.map(\.caption))
        #expect(pa.map(\.author.name) == pb.map(\.author.name))
        #expect(pa.map(\.likes) == pb.map(\.likes))
    }

    @Test func aMissingFeedIsAClearError() throws {
        let model = FeedModel(baseURL: sharedServer.url("/no-such-api"))
        #expect(throws: FeedError.http(404)) { try model.loadNextPageAndWait() }
        #expect(model.hasMore)  // a failed page can be asked for again
    }

    @Test func agesReadLikeAFeed() throws {
        let post = try #require(try FeedModel(baseURL: sharedServer.baseURL, pageSize: 1).loadNextPageAndWait().first)
        #expect(post.age(relativeTo: post.time + 30) == "now")
        #expect(post.age(relativeTo: post.time + 5 * 60) == "5m")
        #expect(post.age(relativeTo: post.time + 3 * 3600) == "3h")
        #expect(post.age(relativeTo: post.time + 2 * 86_400) == "2d")
        #expect(post.age(relativeTo: post.time + 21 * 86_400) == "3w")
    }

    /// One cell and the top of the next, with avatar, photo (progressive, over HTTP) and text.
    @Test func feedColumnGolden() throws {
        try Golden.verify(try FeedScene.render(size: Size(width: 360, height: 560), scale: 1, posts: 2),
                          named: "feed@1x", in: Golden.directory(), tolerance: 8, maxDifferingFraction: 0.002)
    }
}
