import Foundation
import SilkGeometry
import SilkLayout
import SilkSystem

/// Prepares a `CollectionNode`'s updates off the main thread and hands them back whole (Texture's
/// ASDataController).
///
/// Each update is a batch: the model after the update (`pendingSections`, what the data source
/// says now) and the jobs it needs — new items whose node block must run, live nodes to
/// re-measure in a new size range. The batch is prepared on the container's serial edit queue,
/// where the blocks run and the nodes are measured concurrently across the cores (layout is
/// thread-safe); the prepared batch then waits in `ready` until the next node pass, where
/// `commitPreparedWork()` hands it to the container on the pass thread (model, frames, ranges
/// at once). The scheduler counts the outstanding work, so a pass (and `NodeSnapshot`) knows that
/// more is coming. Batches commit in the order they were submitted.
///
/// Threads: everything here runs on the main (pass) thread except the closures on `editQueue`,
/// which touch only the jobs they carry and `ready`.
final class CollectionDataController {
    /// One unit of background work: a model update (with new items to create and measure) or
    /// the re-creation of released nodes coming back into range.
    enum PreparedWork: @unchecked Sendable {
        case update(sections: [[CollectionItem]], headers: [CollectionItem?], jobs: [MeasureJob], results: [MeasureResult],
                    animated: Bool, viewport: Size, completions: [(Bool) -> Void])
        case materialize(jobs: [MeasureJob], results: [MeasureResult])
    }

    struct MeasureJob: @unchecked Sendable {
        let item: CollectionItem
        let block: CellNodeBlock?
        let node: CellNode?
        let range: SizeRange
    }
    struct MeasureResult: @unchecked Sendable {
        let node: CellNode
        let layout: Layout?
        let version: UInt64
        let created: Bool
    }

    /// The container whose model the batches change; it owns this controller.
    unowned let collection: CollectionNode
    /// The model after every update submitted so far (what the data source says); the
    /// container's `sections` is what is committed (shown).
    var pendingSections: [[CollectionItem]] = []
    /// The section headers after every update submitted so far, one per pending section.
    var pendingHeaders: [CollectionItem?] = []
    /// Updates submitted but not yet committed.
    private(set) var pendingUpdateCount = 0
    /// Items whose released node is being re-created.
    private var materializing = Set<ObjectIdentifier>()

    // Background work.
    private let editQueue = DispatchQueue(label: "silk.collection.edits", qos: .userInitiated)
    private let ready = Locked<[PreparedWork]>([])

    init(collection: CollectionNode) { self.collection = collection }

    // MARK: Preparing (main thread submits, the edit queue prepares)

    /// Submits `newSections` as the next model: new items get their node block run and are
    /// measured in `layout`'s size range for `viewport`; with `remeasure`, live nodes whose range
    /// changed are measured again.
    func prepareUpdate(_ newSections: [[CollectionItem]], headers: [CollectionItem?], layout: any CollectionLayout, viewport: Size,
                       animated: Bool, completions: [(Bool) -> Void], remeasure: Bool) {
        pendingSections = newSections
        pendingHeaders = headers
        var jobs: [MeasureJob] = []
        // Headers are measured as items are, in the layout's header size range.
        for (s, header) in headers.enumerated() {
            guard let header else { continue }
            let range = layout.constrainedSize(forHeaderInSection: s, viewport: viewport)
            if !header.isMeasured {
                if header.pendingRange == nil {
                    header.pendingRange = range
                    jobs.append(MeasureJob(item: header, block: header.block, node: nil, range: range))
                }
            } else if remeasure && header.range != range, let node = header.node {
                header.pendingRange = range
                jobs.append(MeasureJob(item: header, block: nil, node: node, range: range))
            }
        }
        for (s, items) in newSections.enumerated() {
            for (i, item) in items.enumerated() {
                let range = layout.constrainedSize(forItemAt: ItemPath(item: i, section: s), viewport: viewport)
                if !item.isMeasured {
                    // New: run the block and measure (unless an earlier update already does).
                    if item.pendingRange == nil {
                        item.pendingRange = range
                        jobs.append(MeasureJob(item: item, block: item.block, node: nil, range: range))
                    }
                } else if remeasure, let node = item.node, item.range != range {
                    // A live node re-measures; a released one is measured in the layout's range
                    // of the moment when it comes back.
                    item.pendingRange = range
                    jobs.append(MeasureJob(item: item, block: nil, node: node, range: range))
                }
            }
        }
        pendingUpdateCount += 1
        let carried = UncheckedBox((newSections, headers, completions))
        let direction = collection.layoutDirection
        enqueue { [jobs] in
            .update(sections: carried.value.0, headers: carried.value.1, jobs: jobs,
                    results: CollectionDataController.measure(jobs, direction: direction), animated: animated,
                    viewport: viewport, completions: carried.value.2)
        }
    }

    /// True while `item`'s released node is being re-created.
    func isPreparingNode(for item: CollectionItem) -> Bool { materializing.contains(ObjectIdentifier(item)) }

    /// Re-creates released nodes that came back into the preload range (background): each
    /// item's block (asked of the data source again) runs and its node is measured in `range`.
    func prepareNodes(for items: [(item: CollectionItem, block: CellNodeBlock, range: SizeRange)]) {
        let jobs = items.map { entry -> MeasureJob in
            materializing.insert(ObjectIdentifier(entry.item))
            return MeasureJob(item: entry.item, block: entry.block, node: nil, range: entry.range)
        }
        let direction = collection.layoutDirection
        enqueue { .materialize(jobs: jobs, results: CollectionDataController.measure(jobs, direction: direction)) }
    }

    private func enqueue(_ work: @escaping @Sendable () -> PreparedWork) {
        NodeScheduler.shared.beginBackgroundWork()
        let ready = self.ready
        // The container stays alive until its work is committed (a short while).
        let collection = self.collection
        editQueue.async {
            let w = work()
            ready.withLock { $0.append(w) }
            NodeScheduler.shared.endBackgroundWork(owner: collection, enqueueing: { collection.applyPreparedWork() })
        }
    }

    /// Creates (runs blocks) and measures, concurrently across the display queues' cores, in the
    /// container's layout `direction` (items inherit it as children of a spec would).
    static func measure(_ jobs: [MeasureJob], direction: LayoutDirection) -> [MeasureResult] {
        guard !jobs.isEmpty else { return [] }
        let results = Locked<[MeasureResult?]>(Array(repeating: nil, count: jobs.count))
        DispatchQueue.concurrentPerform(iterations: jobs.count) { i in
            let job = jobs[i]
            let node = job.node ?? job.block!()
            let version = node.layoutVersion
            let layout = try? node.layoutThatFits(job.range, context: LayoutContext(direction: direction))
            results.withLock { $0[i] = MeasureResult(node: node, layout: layout, version: version, created: job.node == nil) }
        }
        return results.current.map { $0! }
    }

    /// Blocks until every submitted batch is prepared (main thread; `commitPreparedWork` then
    /// commits them).
    func waitUntilPrepared() {
        editQueue.sync {}
    }

    // MARK: Committing (main thread, in a node pass)

    /// Hands every prepared batch to the container, in submission order, and runs the update
    /// completions once their batch is shown.
    func commitPreparedWork() {
        let works = ready.withLock { w -> [PreparedWork] in defer { w = [] }; return w }
        for w in works {
            switch w {
            case let .update(sections, headers, jobs, results, animated, viewport, completions):
                pendingUpdateCount -= 1
                collection.commit(sections: sections, headers: headers, jobs: jobs, results: results, animated: animated, viewport: viewport)
                for c in completions { c(true) }
            case let .materialize(jobs, results):
                for job in jobs { materializing.remove(ObjectIdentifier(job.item)) }
                collection.commitMaterialized(jobs: jobs, results: results)
            }
        }
    }
}

// MARK: Committing a prepared batch (the container's side, main thread, in a node pass)

extension CollectionNode {
    fileprivate func store(_ r: CollectionDataController.MeasureResult, for job: CollectionDataController.MeasureJob) {
        let item = job.item
        if item.node !== r.node, let old = item.node { release(item, node: old) }
        item.node = r.node
        // The block has made the item's node: let it go with what it captured (a released
        // item's block is asked of the data source again when it comes back).
        if r.created { item.block = nil }
        item.layout = r.layout
        item.layoutVersion = r.version
        item.size = r.layout?.size ?? .zero
        item.range = job.range
        item.isMeasured = true
        if item.pendingRange == job.range { item.pendingRange = nil }
        if item.isHeader {
            // Headers live as long as their section; they are not released by distance.
            if r.created { r.node.accessibilityRole = .heading; r.node.accessibilityStates.remove(.selectable) }
        } else {
            itemsWithNodes[ObjectIdentifier(item)] = item
        }
        if r.created { stats.withLock { $0.nodesCreated += 1 } }
    }

    /// Shows a prepared update: the new model, its frames and the items in range, keeping the
    /// first visible item in place.
    func commit(sections newSections: [[CollectionItem]], headers newHeaders: [CollectionItem?], jobs: [CollectionDataController.MeasureJob],
                results: [CollectionDataController.MeasureResult], animated: Bool, viewport: Size) {
        stats.withLock { $0.commits += 1 }
        let anchor = captureAnchor()
        var oldFrames: [ObjectIdentifier: Rect] = [:]
        if animated { for (id, item) in attached { oldFrames[id] = frames[item.flatIndex] } }
        for (job, r) in zip(jobs, results) { store(r, for: job) }
        sections = newSections
        rebuildFlat()
        // Items that left the model drop their nodes. (`rebuildFlat` gave every item of the model
        // its index, so one that left is not where its index says: no set of the whole model,
        // which was a 10,000-entry table made at every page of a feed.)
        let inModel = { (item: CollectionItem) in item.flatIndex < self.flat.count && self.flat[item.flatIndex] === item }
        for (_, item) in attached where !inModel(item) { detach(item) }
        for (_, item) in itemsWithNodes where !inModel(item) { if let n = item.node { release(item, node: n) } }
        if !selected.isEmpty { selected = Set(flat.lazy.map(ObjectIdentifier.init).filter(selected.contains)) }
        let liveHeaders = Set(newHeaders.compactMap { $0.map(ObjectIdentifier.init) })
        for header in headers.compactMap({ $0 }) where !liveHeaders.contains(ObjectIdentifier(header)) {
            detachHeader(header)
            header.node = nil; header.layout = nil
        }
        headers = newHeaders
        for (s, header) in headers.enumerated() { header?.flatIndex = s }
        recomputeFrames()
        restore(anchor)
        updateRanges(animation: animated ? UpdateAnimation(oldFrames: oldFrames) : nil)
    }

    /// Gives items that came back into range their re-created nodes.
    func commitMaterialized(jobs: [CollectionDataController.MeasureJob], results: [CollectionDataController.MeasureResult]) {
        var sizeChanged = false
        let anchor = captureAnchor()
        for (job, r) in zip(jobs, results) {
            let i = job.item.flatIndex
            // Still shown, still without a node (a reload may have replaced it meanwhile).
            guard i < flat.count, flat[i] === job.item, job.item.node == nil else { continue }
            let old = job.item.size
            store(r, for: job)
            if job.item.size != old { sizeChanged = true }
        }
        if sizeChanged { recomputeFrames(); restore(anchor) }
        updateRanges(animation: nil)
    }

    private func rebuildFlat() {
        if sections.count == 1 {
            // One section (a feed): its array is the flat list, shared, not copied (8 bytes an
            // item, remade at every page).
            flat = sections[0]
            sectionStarts = [0]
            for (i, item) in flat.enumerated() { item.flatIndex = i }
            return
        }
        flat = []
        sectionStarts = []
        flat.reserveCapacity(sections.reduce(0) { $0 + $1.count })
        for s in sections {
            sectionStarts.append(flat.count)
            for item in s { item.flatIndex = flat.count; flat.append(item) }
        }
    }

    func recomputeFrames() {
        let viewport = bounds.size.width > 0 ? bounds.size : measuredViewport
        let itemSizes = sections.map { section -> [Size] in
            var sizes: [Size] = []
            sizes.reserveCapacity(collectionCapacity(section.count))
            for item in section { sizes.append(item.size) }
            return sizes
        }
        var result = collectionLayout.layout(itemSizes: itemSizes, headerSizes: headers.map { $0?.size }, viewport: viewport)
        // One section (a feed): its array is the flat list, shared with the result, not copied
        // (32 bytes an item that a 10,000-post feed held twice).
        frames = result.frames.count == 1 ? result.frames[0] : result.frames.flatMap { $0 }
        if frames.count != flat.count {
            // A layout that returned the wrong number of frames: stack the rest at the origin.
            frames = Array(frames.prefix(flat.count)) + Array(repeating: .zero, count: max(0, flat.count - frames.count))
        }
        // Right to left, a vertically scrolling layout is mirrored: the first column is at the
        // right, as a browser's grid in `direction: rtl`.
        if layoutDirection == .rtl && !scrollableDirections.contains(.horizontal) {
            let width = max(result.contentSize.width, viewport.width)
            let mirror = { (r: Rect) in Rect(x: width - r.maxX, y: r.minY, width: r.width, height: r.height) }
            frames = frames.map(mirror)
            result.headerFrames = result.headerFrames.map { $0.map(mirror) }
            result.sectionFrames = result.sectionFrames.map(mirror)
        }
        // One header and section frame per section (a layout may place none).
        let n = sections.count
        if result.headerFrames.count != n { result.headerFrames = Array(result.headerFrames.prefix(n)) + Array(repeating: nil, count: max(0, n - result.headerFrames.count)) }
        if result.sectionFrames.count != n { result.sectionFrames = result.headerFrames.map { $0 ?? .zero } }
        layoutResult = result
        sectionIndex = ItemFrameIndex(frames: result.sectionFrames, vertical: scrollableDirections.contains(.vertical))
        frameIndex = ItemFrameIndex(frames: frames, vertical: scrollableDirections.contains(.vertical))
        contentSize = result.contentSize
    }
}

/// One item of the model (main thread; background jobs only carry it through).
///
/// A table keeps one for every item, near the screen or not (feed-10k: 10,000), so what only an
/// item with a node (or a node on its way) needs lives in `live`, made when first set and dropped
/// when the node is released: the node block until it has made the item's first node, the node,
/// its layout and the size range it was measured in. An item far from the ranges is its identity,
/// its size and its place: a 112-byte heap block, where it was 160 plus its node block's context
/// (docs/benchmark.md). A released item's node block is asked of the data source again when it
/// comes back (`CollectionNode.nodeBlockForReturningItem`).
final class CollectionItem: @unchecked Sendable {
    /// The state of an item that has a node or is being given one.
    private final class Live {
        var block: CellNodeBlock?
        var node: CellNode?
        var layout: Layout?
        var layoutVersion: UInt64 = 0
        var range = SizeRange(exactly: .zero)
        var pendingRange: SizeRange?
        /// Nothing worth keeping (the range is the node's, meaningless without it).
        var isEmpty: Bool { block == nil && node == nil && layout == nil && pendingRange == nil }
    }
    let identity: AnyHashable?
    private var live: Live?
    var size: Size = .zero
    /// The item's index in `flat`; a header's: its section.
    var flatIndex = 0
    /// The last range update that wanted it (`CollectionNode.rangeGeneration`).
    var rangeGeneration: UInt32 = 0
    var isMeasured = false
    /// A section header (kept while its section exists; not in `flat`).
    var isHeader = false
    init(identity: AnyHashable?, block: @escaping CellNodeBlock) {
        self.identity = identity
        liveForWriting().block = block
    }

    /// `live`, made if needed, for a setter that stores something.
    private func liveForWriting() -> Live {
        if let live { return live }
        let l = Live()
        live = l
        return l
    }
    /// Drops `live` once it holds nothing.
    private func dropLiveIfEmpty() { if let l = live, l.isEmpty { live = nil } }

    /// The block that makes the item's first node: nil once it has (set to nil then, so the
    /// closure and what it captured go), and for an item whose node was released.
    var block: CellNodeBlock? {
        get { live?.block }
        set { if newValue == nil { live?.block = nil; dropLiveIfEmpty() } else { liveForWriting().block = newValue } }
    }
    var node: CellNode? {
        get { live?.node }
        set { if newValue == nil { live?.node = nil; dropLiveIfEmpty() } else { liveForWriting().node = newValue } }
    }
    var layout: Layout? {
        get { live?.layout }
        set { if newValue == nil { live?.layout = nil; dropLiveIfEmpty() } else { liveForWriting().layout = newValue } }
    }
    /// The node's `layoutVersion` when `layout` was made (meaningful only with a `layout`).
    var layoutVersion: UInt64 {
        get { live?.layoutVersion ?? 0 }
        set { if live != nil || newValue != 0 { liveForWriting().layoutVersion = newValue } }
    }
    /// The size range the item's node was measured in (meaningful only with a node; a released
    /// item is measured in the layout's range of the moment when it comes back).
    var range: SizeRange {
        get { live?.range ?? SizeRange(exactly: .zero) }
        set { liveForWriting().range = newValue }
    }
    /// The size range a job is measuring it in now.
    var pendingRange: SizeRange? {
        get { live?.pendingRange }
        set { if newValue == nil { live?.pendingRange = nil; dropLiveIfEmpty() } else { liveForWriting().pendingRange = newValue } }
    }
}

struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ v: T) { value = v }
}
