import Foundation
import SilkGeometry
import SilkLayout
import SilkNetworkImage
import SilkNodes
import SilkRaster

/// The feed demo (Texture's ASDKgram): a `TableNode` of photo posts — round avatar, name and
/// age, the photo at its aspect ratio, likes, comments and caption — loaded page by page from
/// a `FeedModel` through batch fetching. When the end of the loaded posts comes within
/// `leadingScreensForBatching` screens, the table asks `shouldBatchFetch`, the next page is
/// fetched on a background queue, and its posts are inserted on the pass thread; no second
/// page is fetched until that one is in. Photos and avatars are `NetworkImageNode`s: they load
/// while their cell is in the preload range and are cancelled (and their pixels dropped) when
/// it leaves.
///
/// The posts are centred in a column at most `maximumColumnWidth` wide on the feed's grey.
///
/// The node keeps no copy of the posts: an item is its index in the model, and its node block
/// reads the post from the model when the cell is made (again after the cell was released far
/// from the ranges). The model keeps only its `residentPages` most recent pages; a cell whose
/// page was dropped fetches it again in its node block (background), so scrolling back shows
/// the same posts.
public final class FeedNode: TableNode, CollectionDataSource, CollectionDelegate, @unchecked Sendable {
    public let model: FeedModel
    public let loader: NetworkImageLoader
    /// The reference time for the posts' ages (unix seconds).
    public let now: Int
    public static let backgroundColor = Color(rgb: 0xefeff4)
    public static let maximumColumnWidth = 600.0
    /// After a failed page, no fetch starts for this long (seconds).
    public var retryDelay = 1.0

    /// What the feed fetched, for tests and benchmarks (any thread).
    public struct FetchStatistics: Sendable, Equatable {
        /// Batch fetches begun (`willBeginBatchFetch`).
        public var fetchesStarted = 0
        /// Pages whose posts were inserted.
        public var pagesLoaded = 0
        public var failures = 0
        /// The most fetches that ran at the same time (the batch-fetching contract: 1).
        public var maximumConcurrentFetches = 0
        public var lastError: String?
    }
    private let fetchState = Locked<(stats: FetchStatistics, running: Int)>((FetchStatistics(), 0))
    public var fetchStatistics: FetchStatistics { fetchState.current.stats }

    /// The posts shown (main thread): a view of the model's, `shownCount` long. Reading a post
    /// whose page the model dropped fetches that page again (blocking; `model.post(at:)` reads
    /// only what is in memory); one that cannot be fetched reads as `FeedPost.unavailable`.
    public var posts: Posts { Posts(model: model, count: shownCount) }
    /// Posts inserted as items (main thread).
    public private(set) var shownCount = 0

    /// The feed's posts by index, read from the model (see `posts`).
    public struct Posts: RandomAccessCollection, Sendable {
        let model: FeedModel
        public let count: Int
        public var startIndex: Int { 0 }
        public var endIndex: Int { count }
        public subscript(index: Int) -> FeedPost {
            precondition(index >= 0 && index < count, "post index out of range")
            if let post = model.post(at: index) { return post }
            do { return try model.loadPost(at: index) } catch { return .unavailable(index: index, reason: "\(error)") }
        }
    }
    /// Called on the pass thread after a page's posts were inserted, with the number of posts.
    public var onPageLoaded: ((Int) -> Void)?
    private var retryAfter = 0.0

    /// - Parameters:
    ///   - model: where pages come from; its first page loads on the first layout.
    ///   - loader: where the cells' images come from.
    public init(model: FeedModel, loader: NetworkImageLoader, now: Int = FeedScene.referenceTime) {
        self.model = model
        self.loader = loader
        self.now = now
        super.init()
        name = "feed"
        backgroundColor = FeedNode.backgroundColor
        edgeBehavior = .clamped
        dataSource = self
        delegate = self
    }

    /// Main thread, before the first pass (benchmarks, snapshots): sizes the feed to `viewport`,
    /// loads `pages` pages now (blocking on the network) and waits until their cells are made
    /// and measured. Later pages come by batch fetching as usual.
    public func loadNow(pages: Int, viewport: Size) throws(FeedError) {
        frame = Rect(size: viewport)
        for _ in 0..<max(0, pages) {
            let page = try model.loadNextPageAndWait()
            shownCount += page.count
            fetchState.withLock { $0.stats.pagesLoaded += 1 }
        }
        reloadData()
        waitUntilAllUpdatesAreProcessed()
    }

    /// Main thread: scrolls by `delta` points towards the end, stopping at the end of what is
    /// loaded (the demo's and the benchmark's scripted scroll; more arrives by batch fetching).
    public func advance(by delta: Double) {
        let y = min(contentOffset.y + delta, max(0, contentSize.height - bounds.height))
        if y != contentOffset.y { setContentOffset(Point(x: 0, y: y)) }
    }

    /// Whether every post of the feed is loaded, shown, and the last one is on screen (main
    /// thread).
    public var isAtEnd: Bool {
        !model.hasMore && !batchContext.isFetching && shownCount == model.count && pendingUpdateCount == 0
            && shownCount > 0 && contentOffset.y >= contentSize.height - bounds.height - 0.5
    }

    /// The post cell at `index`, if it has a node now (cells far outside the ranges do not).
    public func cell(at index: Int) -> FeedCellNode? { nodeForItem(at: ItemPath(item: index)) as? FeedCellNode }

    // MARK: Data source (main thread)

    public func collection(_ collection: CollectionNode, numberOfItemsInSection section: Int) -> Int { shownCount }

    /// The block captures the index, not the post (a feed of 10,000 items kept a copy of every
    /// post in its blocks): it reads the post from the model when it runs, fetching a dropped
    /// page again (it runs in the background). A page that cannot be fetched gives a cell that
    /// says so (`FeedPost.unavailable`), until the item is reloaded.
    public func collection(_ collection: CollectionNode, nodeBlockForItemAt path: ItemPath) -> CellNodeBlock {
        let index = path.item, model = self.model, now = self.now, loader = self.loader
        return {
            do { return FeedCellNode(post: try model.loadPost(at: index), now: now, loader: loader) } catch {
                return FeedCellNode(post: .unavailable(index: index, reason: "\(error)"), now: now, loader: loader)
            }
        }
    }

    /// The item's index: the feed only appends, so an index names one post for good.
    public func collection(_ collection: CollectionNode, identifierForItemAt path: ItemPath) -> AnyHashable? { path.item }

    // MARK: Batch fetching

    public func shouldBatchFetch(for collection: CollectionNode) -> Bool {
        model.hasMore && ProcessInfo.processInfo.systemUptime >= retryAfter
    }

    /// A background queue: fetches the next page, inserts it on the pass thread, then completes
    /// the context.
    public func collection(_ collection: CollectionNode, willBeginBatchFetchWith context: BatchContext) {
        fetchState.withLock { s in
            s.running += 1
            s.stats.fetchesStarted += 1
            s.stats.maximumConcurrentFetches = max(s.stats.maximumConcurrentFetches, s.running)
        }
        let started = model.loadNextPage { [weak self] result in
            guard let node = self else { context.completeBatchFetching(false); return }
            node.performOnPassThread { [weak self] in
                guard let self else { context.completeBatchFetching(false); return }
                self.finishFetch(result, context: context)
            }
        }
        if !started {
            fetchState.withLock { $0.running -= 1 }
            context.completeBatchFetching(false)
        }
    }

    /// Pass thread: inserts the page's posts and ends the fetch.
    private func finishFetch(_ result: Result<[FeedPost], FeedError>, context: BatchContext) {
        switch result {
        case let .success(page):
            if !page.isEmpty {
                let start = shownCount
                shownCount += page.count
                performBatchUpdates(animated: false) {
                    insertItems(at: (start..<shownCount).map { ItemPath(item: $0) })
                }
            }
            fetchState.withLock { $0.running -= 1; $0.stats.pagesLoaded += 1 }
            context.completeBatchFetching(true)
            onPageLoaded?(shownCount)
        case let .failure(error):
            FileHandle.standardError.write(Data("silk: \(error); retrying in \(retryDelay) s\n".utf8))
            retryAfter = ProcessInfo.processInfo.systemUptime + retryDelay
            fetchState.withLock { $0.running -= 1; $0.stats.failures += 1; $0.stats.lastError = error.description }
            context.completeBatchFetching(false)
        }
    }
}

/// One row of the feed: the post's content (`FeedCellContentNode`) centred in a column at most
/// `FeedNode.maximumColumnWidth` wide, with an 8-point gap below.
public final class FeedCellNode: CellNode, @unchecked Sendable {
    public let content: FeedCellContentNode
    public static let gap = 8.0

    public init(post: FeedPost, now: Int, loader: NetworkImageLoader) {
        content = FeedCellContentNode(post: post, now: now, loader: loader)
        super.init()
        name = "feed cell \(post.id)"
        backgroundColor = FeedNode.backgroundColor
        isOpaque = true
        addSubnode(content)
    }

    public override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        let available = constrainedSize.max.width.isFinite ? constrainedSize.max.width : FeedNode.maximumColumnWidth
        let width = min(FeedNode.maximumColumnWidth, available)
        let side = max(0, ((available - width) / 2).rounded(.down))
        // The table gives an exact width: the insets leave the content exactly `width`.
        return InsetLayoutSpec(insets: EdgeInsets(top: 0, left: side, bottom: Self.gap, right: available - width - side), child: content)
    }

    /// The photo has arrived (a final or progressive image is shown).
    public var photoIsShown: Bool {
        switch content.photoNode.loadState {
        case .loaded, .partial: true
        case .idle, .loading, .failed: false
        }
    }
}
