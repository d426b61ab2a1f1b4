import Foundation
import Testing
import SilkGeometry
import SilkLayout
import SilkRaster
@testable import SilkNodes

/// A cell that is `height` points tall, fills itself with a colour derived from its value, and
/// is named after its value.
final class ValueCell: CellNode, @unchecked Sendable {
    let value: Int
    init(value: Int, height: Double) {
        self.value = value
        super.init()
        name = "\(value)"
        style.height = .points(height)
    }
    /// Changes the height after "content arrived" (self-sizing).
    func resize(to height: Double) { updateStyle { $0.height = .points(height) } }
    override class var drawsContent: Bool { true }
    override func drawParameters() -> (any Sendable)? { value }
    override class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {
        let v = parameters as? Int ?? 0
        context.canvas.fill(context.bounds, with: .color(Color(red: Double(v % 7) / 7, green: Double(v % 5) / 5, blue: 0.5)))
    }
}

/// A data source over a model of sections of distinct values (main thread), with a batch
/// fetching delegate that records what it was asked.
final class ModelDataSource: CollectionDataSource, CollectionDelegate, @unchecked Sendable {
    var model: [[Int]]
    var height: (Int) -> Double
    let blocksRun = Locked(0)
    /// Every path a node block was asked for, in order.
    var blockRequests: [ItemPath] = []
    // Batch fetching.
    var fetches = true
    var shouldFetchCalls: [Point] = []
    let contexts = Locked<[BatchContext]>([])
    let willBeginOffMain = Locked<[Bool]>([])
    var selectedPaths: [ItemPath] = []

    init(_ model: [[Int]], height: @escaping (Int) -> Double = { _ in 20 }) {
        self.model = model
        self.height = height
    }

    func numberOfSections(in collection: CollectionNode) -> Int { model.count }
    func collection(_ collection: CollectionNode, numberOfItemsInSection section: Int) -> Int { model[section].count }
    func collection(_ collection: CollectionNode, nodeBlockForItemAt path: ItemPath) -> CellNodeBlock {
        blockRequests.append(path)
        let v = model[path.section][path.item], h = height(v), counter = blocksRun
        return { counter.withLock { $0 += 1 }; return ValueCell(value: v, height: h) }
    }
    func collection(_ collection: CollectionNode, identifierForItemAt path: ItemPath) -> AnyHashable? {
        model[path.section][path.item]
    }
    func collection(_ collection: CollectionNode, didSelectItemAt path: ItemPath) { selectedPaths.append(path) }
    func shouldBatchFetch(for collection: CollectionNode) -> Bool {
        shouldFetchCalls.append(collection.contentOffset)
        return fetches
    }
    func collection(_ collection: CollectionNode, willBeginBatchFetchWith context: BatchContext) {
        willBeginOffMain.withLock { $0.append(!NodeScheduler.shared.isOnPassThread) }
        contexts.withLock { $0.append(context) }
    }
}

/// A collection in a pass of its own, loaded.
struct CollectionHarness {
    let collection: CollectionNode
    let source: ModelDataSource
    let harness: Harness

    init(_ collection: CollectionNode, source: ModelDataSource, size: Size = Size(width: 100, height: 100)) {
        self.collection = collection
        self.source = source
        collection.dataSource = source
        collection.delegate = source
        harness = Harness(root: collection, size: size)
        harness.iterate()                              // first layout: the load starts
        collection.waitUntilAllUpdatesAreProcessed()   // ... and is committed
        harness.iterate()
    }

    /// A pass, the background work it started, and another pass (what a few frames do).
    func settle() {
        // Committing may move the content (anchoring) and bring released items back, whose
        // nodes are made in the background again: repeat until nothing is pending.
        for _ in 0..<20 {
            harness.iterate()
            collection.waitUntilAllUpdatesAreProcessed()
            harness.iterate()
            if NodeScheduler.shared.pendingBackgroundWork == 0 && collection.pendingUpdateCount == 0
                && !NodeScheduler.shared.hasWork(for: collection) { return }
        }
    }

    func scroll(to y: Double) {
        collection.setContentOffset(Point(x: 0, y: y))
        settle()
    }

    /// The values the collection shows, by section (committed model).
    var shownValues: [[Int]] { collection.itemIdentifiers.map { $0.map { $0 as! Int } } }
}
