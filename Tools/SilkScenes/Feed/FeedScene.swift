import Foundation
import SilkDemoServer
import SilkGeometry
import SilkLayout
import SilkNetworkImage
import SilkNodes
import SilkRaster

/// A column of feed cells loaded from a local demo server it starts itself (`silk snapshot
/// feed`): the JSON page, avatars and photos all travel over HTTP through `FeedModel` and
/// `NetworkImageNode`, with a memory-only cache so nothing is written to the user's cache. No
/// scrolling container: the column is a plain vertical stack (the containers issue hosts these
/// cells in a TableNode).
public enum FeedScene {
    public static let defaultSize = Size(width: 420, height: 1500)
    /// The reference time for the posts' ages (the feed's newest post is 6 minutes old).
    public static let referenceTime = 1_735_682_400

    /// Everything a headless feed needs: a server, a model over it, a loader for its images.
    public struct Session: Sendable {
        public let server: DemoServer
        public let model: FeedModel
        public let loader: NetworkImageLoader
        public init(feedLength: Int = 10_000, pageSize: Int = 20, diskCacheDirectory: String? = nil) throws {
            server = try DemoServer(content: DemoContent(feedLength: feedLength))
            model = FeedModel(baseURL: server.baseURL, pageSize: pageSize)
            loader = NetworkImageLoader(cache: ImageCache(directory: diskCacheDirectory))
        }
    }

    /// The cells stacked with 8-point gaps on the feed's grey.
    public final class ColumnNode: DisplayNode, @unchecked Sendable {
        public let cells: [FeedCellContentNode]
        public init(posts: [FeedPost], loader: NetworkImageLoader, now: Int = FeedScene.referenceTime) {
            cells = posts.map { FeedCellContentNode(post: $0, now: now, loader: loader) }
            super.init()
            name = "feed column"
            backgroundColor = Color(rgb: 0xefeff4)
            clipsToBounds = true
            for c in cells { addSubnode(c) }
        }
        public override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
            StackLayoutSpec.vertical(spacing: 8, children: cells)
        }
        /// Every network image node in the column.
        public var imageNodes: [NetworkImageNode] { cells.flatMap { [$0.avatarNode, $0.photoNode] } }
    }

    public static func render(size: Size, scale: Double, posts count: Int = 4) throws -> Bitmap {
        let session = try Session(pageSize: count)
        // Stop the downloads (an endless body would run on) and the server with the render.
        defer { session.loader.downloader.invalidate(); session.server.stop() }
        let posts: [FeedPost]
        do { posts = try session.model.loadNextPageAndWait() } catch { throw SceneError(error.description) }
        let column = ColumnNode(posts: posts, loader: session.loader)
        var failures: [String] = []
        let bitmap = try NodeSnapshot.render(column, size: size, scale: scale, background: Color(rgb: 0xefeff4)) {
            // The pass put every node in the preload range: wait for the images to arrive.
            let deadline = Date(timeIntervalSinceNow: 30)
            while Date() < deadline, column.imageNodes.contains(where: { !isSettled($0.loadState) }) { usleep(5000) }
            for n in column.imageNodes {
                if case let .failed(e) = n.loadState { failures.append("\(n.url?.absoluteString ?? "?"): \(e)") }
                else if !isSettled(n.loadState) { failures.append("\(n.url?.absoluteString ?? "?"): still loading after 30 s") }
            }
        }
        if !failures.isEmpty { throw SceneError("feed: " + failures.joined(separator: "; ")) }
        return bitmap
    }

    static func isSettled(_ s: NetworkImageNode.LoadState) -> Bool {
        switch s {
        case .loaded, .failed: true
        case .idle, .loading, .partial: false
        }
    }
}
