import Foundation
import SilkGeometry
import SilkLayout
import SilkNodes
import SilkRaster

/// The rainforest demo's content: the Texture tutorial's app as a `CollectionNode` of animal
/// cards in a flow layout (as many 300-point columns as fit, 16-point spacing). The node block
/// of each card runs on a background queue, where the card is also measured; cards fade in over
/// their placeholder as their rasterized contents arrive. The range controller gives cards
/// their interface states as the list scrolls (Texture's full-mode tuning), and cards far
/// outside the ranges are released.
public final class RainforestListNode: CollectionNode, CollectionDataSource, @unchecked Sendable {
    public let count: Int
    public let viewport: Size
    public let cardSize: Size
    public let scale: Double
    public static let spacing = 16.0
    static let flow = FlowLayout(minimumColumnWidth: 300, itemSpacing: spacing, lineSpacing: spacing,
                                 sectionInsets: EdgeInsets(top: spacing, left: spacing, bottom: spacing, right: spacing))

    /// A list of `count` cards (cycling the catalogue) for a viewport of `viewport` points. The
    /// data loads on the first layout, or at once with `loadNow()`.
    public init(count: Int, viewport: Size, scale: Double) {
        self.count = max(0, count)
        self.viewport = viewport
        self.scale = scale
        let w = RainforestListNode.flow.itemWidth(viewport: viewport)
        cardSize = Size(width: w, height: (w * 7 / 6).rounded())
        super.init(layout: RainforestListNode.flow)
        name = "rainforest"
        backgroundColor = Color(rgb: 0x1f2a22)
        frame = Rect(size: viewport)
        edgeBehavior = .clamped
        dataSource = self
    }

    public var columns: Int { RainforestListNode.flow.columnCount(viewport: viewport) }

    /// Loads the data now and waits for the cards to be made and measured (call on the main
    /// thread, before the first pass, for a first frame with everything measured).
    public func loadNow() {
        reloadData()
        waitUntilAllUpdatesAreProcessed()
    }

    // MARK: Data source

    public func collection(_ collection: CollectionNode, numberOfItemsInSection section: Int) -> Int { count }

    public func collection(_ collection: CollectionNode, nodeBlockForItemAt path: ItemPath) -> CellNodeBlock {
        let entries = RainforestCatalog.entries
        let entry = entries[path.item % entries.count]
        let size = cardSize, scale = self.scale
        return {
            let card = CardNode(entry: entry, scale: scale)
            card.updateStyle { $0.width = .points(size.width); $0.height = .points(size.height) }
            return card
        }
    }

    public func collection(_ collection: CollectionNode, identifierForItemAt path: ItemPath) -> AnyHashable? { path.item }

    // MARK: The demo's and the benchmark's view of it

    public var contentHeight: Double { contentSize.height }

    /// The card at `index`, if it has a node now (cards far outside the ranges do not).
    public func card(at index: Int) -> CardNode? { nodeForItem(at: ItemPath(item: index)) as? CardNode }

    /// The frame of card `index` in content coordinates.
    public func frameOfCard(_ index: Int) -> Rect { frameForItem(at: ItemPath(item: index)) ?? .zero }

    /// Scrolls to `offset` points from the top (clamped, whole points). Main thread.
    public func scroll(to offset: Double) {
        setContentOffset(Point(x: 0, y: offset))
    }

    /// Cards on screen, by index.
    public func visibleCardIndices() -> [Int] { visibleItemPaths.map(\.item) }
}

/// `silk snapshot rainforest`: the first screen of the rainforest demo once displayed.
public enum RainforestScene {
    public static let defaultSize = Size(width: 1280, height: 720)

    /// Builds the list; its node blocks make and measure the cards on background queues (text
    /// shaping included), as Texture does, and the call waits for them: the main thread's first
    /// pass then finds every layout measured and only applies frames. `rightToLeft` sets the
    /// list's `style.direction` to `.rtl` before the cards are made: the grid starts at the right
    /// and each card mirrors (title at its right, text aligned right); the texts stay English.
    public static func makeList(count: Int = 200, viewport: Size, scale: Double, rightToLeft: Bool = false) -> RainforestListNode {
        let list = NodeSnapshot.buildInBackground { () -> RainforestListNode in
            let list = RainforestListNode(count: count, viewport: viewport, scale: scale)
            if rightToLeft { list.style.direction = .rtl }
            return list
        }
        list.loadNow()
        return list
    }

    public static func render(size: Size = defaultSize, scale: Double = 1, offset: Double = 0,
                              rightToLeft: Bool = false) throws -> Bitmap {
        guard RainforestCatalog.entries[0].photoPath != nil else { throw SceneError("rainforest: assets/photos not found") }
        let list = makeList(viewport: size, scale: scale, rightToLeft: rightToLeft)
        return try NodeSnapshot.render(list, size: size, scale: scale, background: Color(rgb: 0x1f2a22)) { list.scroll(to: offset) }
    }
}
