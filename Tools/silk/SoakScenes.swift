import Foundation
import SilkGeometry
import SilkLayout
import SilkNodes
import SilkRaster
import SilkScenes

/// A scene `silk soak` runs for minutes: it scrolls continuously (`scroll(time:)`, every 60 Hz
/// tick) and changes its node tree at random (`mutate(using:)`, several times a second), so
/// that every path that creates, displays, cancels and frees nodes runs thousands of times.
/// A new scene is one type conforming to this and one case in `SoakSceneName`.
@MainActor
protocol SoakScene: AnyObject {
    /// The node the window shows.
    var root: DisplayNode { get }
    /// Scrolls to where the scene is at `time` seconds.
    func scroll(time: Double)
    /// One random change; returns what it did (counted in the report).
    func mutate(using random: inout SplitMix64) -> SoakMutation
    /// Nodes the scene dropped more than `seconds` ago that are still alive, and all it
    /// dropped, per kind (a leak: removed nodes must be freed once their jobs end).
    func retainedAfterRemoval(olderThan seconds: Double) -> [(kind: String, alive: Int, dropped: Int)]
}

/// Weak references to nodes a scene dropped, with when: they should all be freed soon after.
struct DroppedNodes {
    private final class Weak {
        weak var node: DisplayNode?
        let time: Double
        init(_ n: DisplayNode, _ t: Double) { node = n; time = t }
    }
    private var entries: [Weak] = []
    mutating func add(_ node: DisplayNode) { entries.append(Weak(node, ProcessStatus.now())) }
    func alive(olderThan seconds: Double) -> Int {
        let cutoff = ProcessStatus.now() - seconds
        return entries.filter { $0.node != nil && $0.time < cutoff }.count
    }
    var count: Int { entries.count }
}

enum SoakMutation: String, CaseIterable {
    case insert, remove, reconfigure, rebuild
}

/// The scenes `silk soak` knows.
enum SoakSceneName: String, CaseIterable {
    case rainforest
    case feed

    @MainActor
    func make(viewport: Size, scale: Double) throws -> any SoakScene {
        switch self {
        case .rainforest: return try RainforestSoak(viewport: viewport, scale: scale)
        case .feed: return try FeedSoak(viewport: viewport, scale: scale)
        }
    }
}

/// The rainforest demo under churn: the 200-card grid scrolls down and up at 1,200 pt/s while
/// mutations insert and remove extra cards floating over the grid (new nodes: decode, blur, text,
/// then removal mid-display), re-configure grid cards (new title, description and photo: their
/// rasterized subtree redraws), and now and then rebuild the whole grid (200 nodes freed at once).
@MainActor
final class RainforestSoak: SoakScene {
    let root: DisplayNode
    private let container: SoakRootNode
    private let viewport: Size
    private let scale: Double
    private var list: RainforestListNode
    private var droppedGrids = DroppedNodes()
    private var droppedCards = DroppedNodes()
    func retainedAfterRemoval(olderThan seconds: Double) -> [(kind: String, alive: Int, dropped: Int)] {
        [("replaced grids", droppedGrids.alive(olderThan: seconds), droppedGrids.count),
         ("removed cards", droppedCards.alive(olderThan: seconds), droppedCards.count)]
    }

    init(viewport: Size, scale: Double) throws {
        guard RainforestCatalog.entries[0].photoPath != nil else {
            throw SceneError("soak rainforest: assets/photos not found (set SILK_ASSETS)")
        }
        self.viewport = viewport
        self.scale = scale
        list = RainforestScene.makeList(viewport: viewport, scale: scale)
        container = SoakRootNode(content: list)
        root = container
        list.scroll(to: 0)
    }

    func scroll(time: Double) {
        let range = max(1, list.contentHeight - list.viewport.height)
        let d = (time * 1200).truncatingRemainder(dividingBy: 2 * range)
        list.scroll(to: d < range ? d : 2 * range - d)
    }

    func mutate(using random: inout SplitMix64) -> SoakMutation {
        let entries = RainforestCatalog.entries
        // Mostly small changes; a rebuild about once a minute at the default rate.
        let roll = random.below(1000)
        if roll < 8 {
            let offset = list.contentOffset.y
            droppedGrids.add(list)
            list = RainforestScene.makeList(viewport: viewport, scale: scale)
            container.content = list
            list.scroll(to: offset)
            return .rebuild
        }
        if roll < 400 {
            if container.floating.count >= 6 || (roll < 200 && !container.floating.isEmpty) {
                droppedCards.add(container.removeFloating(at: random.below(container.floating.count)))
                return .remove
            }
            let card = CardNode(entry: entries[random.below(entries.count)], scale: scale)
            let w = list.cardSize.width * (0.5 + random.unit() * 0.5)
            let frame = Rect(x: random.unit() * max(0, viewport.width - w), y: random.unit() * max(0, viewport.height - w * 7 / 6),
                             width: w.rounded(), height: (w * 7 / 6).rounded())
            container.addFloating(card, frame: frame)
            return .insert
        }
        let visible = list.visibleCardIndices()
        guard !visible.isEmpty else { return .reconfigure }
        guard let card = list.card(at: visible[random.below(visible.count)]) else { return .reconfigure }
        let entry = entries[random.below(entries.count)]
        card.titleNode.attributedText = AttributedText("\(entry.title) #\(random.below(10_000))",
                                                       attributes: TextAttributes(fontSize: 26, fontWeight: .bold, color: .white))
        card.descriptionNode.attributedText = AttributedText(entry.description,
                                                             attributes: TextAttributes(fontSize: 14, color: .white, lineHeightMultiple: 1.15))
        card.animalImageNode.imagePath = entry.photoPath
        card.backgroundImageNode.imagePath = entry.photoPath
        card.setNeedsDisplay()
        return .reconfigure
    }
}

/// The soak's root: the scene's content filling the window (`DemoRootNode`), with cards
/// floating over it at absolute positions. Main thread for changes; the spec reads them under
/// the node lock.
final class SoakRootNode: DemoRootNode, @unchecked Sendable {
    private var _floating: [DisplayNode] = []

    init(content: DisplayNode) { super.init(content: content, name: "soak-root") }

    var floating: [DisplayNode] { lock.withLock { _floating } }

    func addFloating(_ node: DisplayNode, frame: Rect) {
        node.updateStyle {
            $0.width = .points(frame.width); $0.height = .points(frame.height); $0.layoutPosition = frame.origin
        }
        lock.withLock { _floating.append(node) }
        addSubnode(node)
        setNeedsLayout()
    }

    @discardableResult
    func removeFloating(at index: Int) -> DisplayNode {
        let node = lock.withLock { _floating.remove(at: index) }
        node.removeFromSupernode()
        setNeedsLayout()
        return node
    }

    override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        let over = AbsoluteLayoutSpec(sizing: .default, children: floating)
        return OverlayLayoutSpec(child: InsetLayoutSpec(insets: EdgeInsets(), child: content), overlay: over)
    }
}

/// The photo feed under churn: a `FeedNode` over its own demo server scrolls down at 1,200 pt/s
/// (pages arrive by batch fetching; network images load and cancel with the preload range),
/// jumps back to the top when it reaches the end of the 10,000 posts, and mutations reload cells
/// on screen (new nodes, new downloads from the memory cache), float extra post cells over the
/// feed and remove them, and now and then replace the whole feed by a new one over the same
/// server (every cell, image node and download of the old one must be freed).
@MainActor
final class FeedSoak: SoakScene {
    let root: DisplayNode
    private let container: SoakRootNode
    private let session: FeedScene.Session
    private var feed: FeedNode
    private let viewport: Size
    private var lastTime = 0.0
    private var droppedFeeds = DroppedNodes()
    private var droppedCells = DroppedNodes()

    init(viewport: Size, scale: Double) throws {
        self.viewport = viewport
        session = try FeedScene.Session()
        feed = FeedSoak.makeFeed(session, viewport: viewport)
        container = SoakRootNode(content: feed)
        root = container
    }

    private static func makeFeed(_ session: FeedScene.Session, viewport: Size) -> FeedNode {
        // A new model each time: a rebuilt feed starts again from the first page.
        let model = FeedModel(baseURL: session.server.baseURL, pageSize: session.model.pageSize)
        return FeedNode(model: model, loader: session.loader)
    }

    func retainedAfterRemoval(olderThan seconds: Double) -> [(kind: String, alive: Int, dropped: Int)] {
        [("replaced feeds", droppedFeeds.alive(olderThan: seconds), droppedFeeds.count),
         ("removed cells", droppedCells.alive(olderThan: seconds), droppedCells.count)]
    }

    func scroll(time: Double) {
        let delta = max(0, time - lastTime) * 1200
        lastTime = time
        if feed.isAtEnd { feed.setContentOffset(.zero); return }
        feed.advance(by: delta)
    }

    func mutate(using random: inout SplitMix64) -> SoakMutation {
        let roll = random.below(1000)
        if roll < 8 {
            droppedFeeds.add(feed)
            feed = FeedSoak.makeFeed(session, viewport: viewport)
            container.content = feed
            return .rebuild
        }
        if roll < 400 {
            if container.floating.count >= 4 || (roll < 200 && !container.floating.isEmpty) {
                droppedCells.add(container.removeFloating(at: random.below(container.floating.count)))
                return .remove
            }
            // A post in memory (the model keeps a window of pages; this runs on the main loop).
            guard feed.shownCount > 0, let post = feed.model.post(at: random.below(feed.shownCount)) else { return .insert }
            let cell = FeedCellContentNode(post: post, now: feed.now, loader: session.loader)
            let w = min(viewport.width, 420) * (0.6 + random.unit() * 0.4)
            let frame = Rect(x: random.unit() * max(0, viewport.width - w), y: random.unit() * max(0, viewport.height - w),
                             width: w.rounded(), height: w.rounded())
            container.addFloating(cell, frame: frame)
            return .insert
        }
        let visible = feed.visibleItemPaths
        guard !visible.isEmpty else { return .reconfigure }
        feed.reloadItems(at: [visible[random.below(visible.count)]])
        return .reconfigure
    }
}
