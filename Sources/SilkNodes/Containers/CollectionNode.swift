import Foundation
import SilkGeometry
import SilkLayout
import SilkRender
import SilkSystem

/// A scrolling container of items laid out by a pluggable `CollectionLayout` (Texture's
/// ASCollectionNode); `TableNode` is the one-column case and `PagerNode` the paging one.
///
/// **Data.** The `dataSource` answers counts and gives a node block per item. Blocks run
/// concurrently on background queues, where each new node is also measured (layout is
/// thread-safe); the main thread then commits a whole update at once — the model, the frames,
/// and the items in range (`CollectionDataController`). There is no cell reuse: an item keeps
/// its node while it is near.
///
/// **Updates** (main thread): `reloadData()`, or `insertItems`, `deleteItems`, `reloadItems`,
/// `moveItem`, and the section equivalents, alone or grouped in `performBatchUpdates`. Animated
/// updates fade inserted items in and move the others from where they were. `reloadData()`
/// keeps the nodes of items whose identity (`identifierForItemAt`) is unchanged, so they do
/// not flash. Updates keep the first visible item where it is on screen (inserting above it —
/// chat, feeds — does not move what you read), and so does an item whose size changes after
/// its content arrived (it calls `setNeedsLayout()`; the container re-measures and relays out).
///
/// **Ranges** (`rangeController`): after each scroll, in the next node pass, items get the
/// interface states their frames call for (found by binary search over the frames sorted along
/// the scroll axis, O(log n + k)). Items in the preload range are attached as subnodes;
/// leaving the display range releases an item's contents; leaving the preload range detaches
/// it, and beyond `nodeRetentionScreenfuls` more its node is released (its size is kept, and the
/// data source is asked for its node block again when it comes back).
///
/// **Section headers**: a data source that gives `nodeBlockForHeaderInSection` blocks gets a
/// header node per section (Texture's supplementary nodes), made and measured in the background
/// with the items. The layout places them (`FlowLayout`: above each section) and says where they
/// show while scrolling — `FlowLayout` pins the current section's header to the top, pushed up
/// by the next one. Headers enter the ranges as items do (attached while their section is in
/// the preload range, displayed, visible), are drawn above the items, and take touches there;
/// a header's node is kept while its section exists (there are few).
///
/// **Batch fetching**: when the end of the content is within `leadingScreensForBatching`
/// screens while scrolling towards it (or the content is shorter than the container), the
/// delegate's `shouldBatchFetch` is asked, and `willBeginBatchFetch(with:)` runs on a
/// background queue; no second fetch starts until the context completes.
open class CollectionNode: ScrollNode, @unchecked Sendable {
    /// Main thread.
    public weak var dataSource: (any CollectionDataSource)?
    /// Told about selection and asked about batch fetching (weak: the app owns it). Set on the
    /// main thread; its methods are called there, except `collection(_:willBeginBatchFetchWith:)`,
    /// which runs on a global queue.
    public weak var delegate: (any CollectionDelegate)?
    /// Where items go. Changing it re-measures every item. Main thread.
    public var collectionLayout: any CollectionLayout {
        didSet { scrollableDirections = collectionLayout.scrollableDirections; remeasureAll() }
    }
    /// The range policy: tuning per mode, a forced mode, low-memory mode (Texture's
    /// ASRangeController; see `docs/containers.md`). Main thread; changes apply at the next range
    /// update (after a scroll, or `setNeedsRangeUpdate()`).
    public let rangeController = RangeController()
    /// The state of batch fetching: handed to `collection(_:willBeginBatchFetchWith:)`, completed
    /// or cancelled by the app from any thread; while it is fetching no other fetch starts.
    public let batchContext = BatchContext()
    /// Screens before the end at which a batch fetch starts (Texture's default 2).
    public var leadingScreensForBatching = 2.0
    /// Whether a tap on a cell highlights and selects it (and tells the delegate). Main thread.
    public var allowsSelection = true
    /// Whether selecting an item keeps the others selected; false (the default) deselects them.
    /// Main thread.
    public var allowsMultipleSelection = false
    /// Keep the first visible item in place across updates and size changes.
    public var anchorsVisibleContentOnUpdates = true
    /// Nodes of items farther than this many screenfuls beyond the preload range are released
    /// (their sizes are kept). `.infinity` keeps every node, as Texture does.
    public var nodeRetentionScreenfuls = 1.0
    /// Seconds of the fade and move animations of animated updates.
    public var updateAnimationDuration = 0.25

    // MARK: Main-thread model
    /// The committed model (what is shown).
    var sections: [[CollectionItem]] = [] {
        // Exported beside the loaded cells (Texture exposes only those, plus the count).
        didSet { accessibilityItemCount = sections.reduce(0) { $0 + $1.count } }
    }
    var flat: [CollectionItem] = []
    var sectionStarts: [Int] = []
    var frames: [Rect] = []
    var frameIndex = ItemFrameIndex(frames: [], vertical: true)
    /// The committed headers, one per section (nil: none), and where the layout put them.
    var headers: [CollectionItem?] = []
    var layoutResult = CollectionLayoutResult(frames: [], contentSize: .zero)
    /// `layoutResult.sectionFrames` indexed along the scroll axis (headers are found through them).
    var sectionIndex = ItemFrameIndex(frames: [], vertical: true)
    var attachedHeaders: [ObjectIdentifier: CollectionItem] = [:]
    var attached: [ObjectIdentifier: CollectionItem] = [:]
    var itemsWithNodes: [ObjectIdentifier: CollectionItem] = [:]
    var selected = Set<ObjectIdentifier>()
    private var changes = ChangeSet()
    private var batchDepth = 0
    private var batchAnimated = true
    private var batchCompletions: [(Bool) -> Void] = []
    var measuredViewport: Size = .zero
    /// The first layout with a size loads the data (as Texture's first layout does).
    private var needsReloadWhenSized = true
    /// The data source was found not to count an item the container shows (logged once).
    private var reportedUnreportedUpdate = false
    private var hasLoaded = false
    var rangeUpdateQueued = false
    /// Counts range updates; the items an update wants carry its number (`updateRanges`).
    var rangeGeneration: UInt32 = 0
    /// Updates submitted but not yet committed.
    public var pendingUpdateCount: Int { dataController.pendingUpdateCount }
    var lastRects: RangeRects?
    var debugOverlay: RangeDebugOverlayNode?

    /// Prepares updates on the edit queue and commits them in node passes.
    private(set) lazy var dataController = CollectionDataController(collection: self)

    /// Counters since the container was created, for benchmarks, logs and tests (the memory
    /// tests check that released nodes really go).
    public struct Statistics: Sendable {
        /// Node blocks run (item nodes created).
        public var nodesCreated = 0
        /// Nodes released while far outside the ranges.
        public var nodesReleased = 0
        /// Prepared updates committed (shown): by a node pass, or by
        /// `waitUntilAllUpdatesAreProcessed()`.
        public var commits = 0
        /// Range updates run (after scrolls, commits and interface-state changes; coalesced to
        /// at most one per pass when scrolling).
        public var rangeUpdates = 0
    }
    let stats = Locked(Statistics())
    /// The counters now. Any thread.
    public var statistics: Statistics { stats.current }

    /// Creates an empty container that lays its items out with `layout` (a vertical
    /// `FlowLayout` by default) and scrolls along the layout's directions. Set `dataSource`;
    /// the first layout with a non-empty size loads the data. Any thread, like any node's
    /// creation; from then on its model is the main thread's.
    public init(layout: any CollectionLayout = FlowLayout()) {
        collectionLayout = layout
        super.init()
        scrollableDirections = layout.scrollableDirections
        name = "collection"
        lock.withLock { _accessibility.isElement = true; _accessibility.role = .list; _accessibility.itemCount = 0 }
        batchContext.onEnd = { [weak self] in
            guard let self else { return }
            NodeScheduler.shared.enqueueForNextPass(owner: self) { [weak self] in self?.checkBatchFetch() }
        }
        if SilkConfiguration.current.debugRanges {
            let overlay = RangeDebugOverlayNode()
            debugOverlay = overlay
        }
    }

    // MARK: Reading the model (main thread; the committed state)

    /// Sections in the committed model (what is shown; updates still being prepared are not
    /// counted). Main thread.
    public var numberOfSections: Int { sections.count }
    /// Items of `section` in the committed model; 0 for a section that does not exist. Main
    /// thread.
    public func numberOfItems(inSection section: Int) -> Int {
        section >= 0 && section < sections.count ? sections[section].count : 0
    }
    /// The node of the item at `path`, if it has one now (items far outside the ranges do not).
    public func nodeForItem(at path: ItemPath) -> CellNode? { item(at: path)?.node }
    /// The item's frame in content coordinates.
    public func frameForItem(at path: ItemPath) -> Rect? { item(at: path).map { frames[$0.flatIndex] } }
    /// Where `node` is in the committed model, if the container holds it now (attached, or kept
    /// near the ranges); nil for a node it released or never had. Main thread.
    public func itemPath(for node: CellNode) -> ItemPath? {
        guard let item = attached.values.first(where: { $0.node === node }) ?? itemsWithNodes.values.first(where: { $0.node === node })
        else { return nil }
        return path(ofFlatIndex: item.flatIndex)
    }
    /// Items on screen now, in order.
    public var visibleItemPaths: [ItemPath] {
        let visible = Rect(origin: contentOffset, size: bounds.size)
        return frameIndex.indices(overlapping: visible, frames: frames).sorted().map(path(ofFlatIndex:))
    }
    /// The header node of `section`, if the section has one in the committed model. Main thread.
    public func nodeForHeader(inSection section: Int) -> CellNode? {
        section >= 0 && section < headers.count ? headers[section]?.node : nil
    }
    /// Where the header of `section` is shown now (content coordinates): where the layout put it,
    /// or pinned to the top of the viewport. Nil for a section without a header. Main thread.
    public func frameForHeader(inSection section: Int) -> Rect? {
        guard section >= 0, section < headers.count, headers[section] != nil else { return nil }
        return collectionLayout.displayedHeaderFrame(inSection: section, of: layoutResult, visible: Rect(origin: contentOffset, size: bounds.size))
    }
    /// Section headers attached as subnodes now (their sections are in the preload range).
    public var attachedHeaderCount: Int { attachedHeaders.count }
    /// Identities of the committed items (`identifierForItemAt`), for tests and diagnostics.
    public var itemIdentifiers: [[AnyHashable?]] { sections.map { $0.map(\.identity) } }
    /// Items attached as subnodes now (the preload range).
    public var attachedItemCount: Int { attached.count }
    /// Items that hold a node now.
    public var liveNodeCount: Int { itemsWithNodes.count }

    func item(at path: ItemPath) -> CollectionItem? {
        guard path.section >= 0, path.section < sections.count, path.item >= 0, path.item < sections[path.section].count else { return nil }
        return sections[path.section][path.item]
    }
    func path(ofFlatIndex i: Int) -> ItemPath {
        var a = 0, b = sectionStarts.count
        while a < b { let m = (a + b) / 2; if sectionStarts[m] <= i { a = m + 1 } else { b = m } }
        let s = max(0, a - 1)
        // Empty sections share a start with the next one: take the last section starting at or before i.
        return ItemPath(item: i - sectionStarts[s], section: s)
    }

    // MARK: Updates (main thread)

    /// Asks the data source for everything again. Items whose identity is unchanged keep their
    /// nodes (no flash); the rest get new ones. Applied once all new nodes are measured.
    public func reloadData(completion: (() -> Void)? = nil) {
        changes = ChangeSet()
        guard bounds.size.width > 0, bounds.size.height > 0 else {
            needsReloadWhenSized = true
            if let completion { batchCompletions.append { _ in completion() } }
            return
        }
        guard let ds = dataSource else { return }
        needsReloadWhenSized = false
        hasLoaded = true
        var byIdentity: [AnyHashable: CollectionItem] = [:]
        for s in dataController.pendingSections { for it in s { if let id = it.identity { byIdentity[id] = it } } }
        var newSections: [[CollectionItem]] = []
        let sectionCount = max(0, ds.numberOfSections(in: self))
        for s in 0..<sectionCount {
            let n = max(0, ds.collection(self, numberOfItemsInSection: s))
            newSections.append((0..<n).map { i in
                let path = ItemPath(item: i, section: s)
                let id = ds.collection(self, identifierForItemAt: path)
                if let id, let reused = byIdentity.removeValue(forKey: id) { return reused }
                return makeItem(path, dataSource: ds, identity: id)
            })
        }
        let newHeaders = (0..<sectionCount).map { makeHeader($0, dataSource: ds) }
        var completions = batchCompletions
        batchCompletions = []
        if let completion { completions.append { _ in completion() } }
        submit(newSections, headers: newHeaders, animated: false, completions: completions)
    }

    /// Groups updates so they apply (and animate) together. Calls to the update methods inside
    /// `updates` are collected; the data source must already answer with the new counts.
    public func performBatchUpdates(animated: Bool = true, _ updates: () -> Void, completion: ((Bool) -> Void)? = nil) {
        batchDepth += 1
        updates()
        batchDepth -= 1
        if let completion { batchCompletions.append(completion) }
        batchAnimated = animated
        if batchDepth == 0 { flushChanges() }
    }

    /// Inserts items at `paths` (positions after the update); their node blocks run in the
    /// background. Main thread. Outside `performBatchUpdates` each call is an animated update of
    /// its own; the data source must already count the new items.
    public func insertItems(at paths: [ItemPath]) { changes.insertedItems += paths; flushIfOutsideBatch() }
    /// Deletes the items at `paths` (positions before the update); their nodes are released when
    /// the update commits. Main thread; the data source must already count without them.
    public func deleteItems(at paths: [ItemPath]) { changes.deletedItems += paths; flushIfOutsideBatch() }
    /// Replaces the items at `paths` (positions before the update) with new ones: their node
    /// blocks run again. Main thread.
    public func reloadItems(at paths: [ItemPath]) { changes.reloadedItems += paths; flushIfOutsideBatch() }
    /// Moves the item at `from` (a position before the update) to `to` (after); it keeps its node.
    /// Main thread.
    public func moveItem(at from: ItemPath, to: ItemPath) { changes.movedItems.append((from, to)); flushIfOutsideBatch() }
    /// Inserts whole sections at these indices (after the update), with the items the data source
    /// gives them. Main thread.
    public func insertSections(_ sections: [Int]) { changes.insertedSections += sections; flushIfOutsideBatch() }
    /// Deletes the sections at these indices (before the update) and their items. Main thread.
    public func deleteSections(_ sections: [Int]) { changes.deletedSections += sections; flushIfOutsideBatch() }
    /// Replaces every item of these sections (indices before the update) with new ones. Main
    /// thread.
    public func reloadSections(_ sections: [Int]) { changes.reloadedSections += sections; flushIfOutsideBatch() }
    /// Moves section `from` (an index before the update) to `to` (after), its items keeping their
    /// nodes. Main thread.
    public func moveSection(_ from: Int, toSection to: Int) { changes.movedSections.append((from, to)); flushIfOutsideBatch() }

    private func flushIfOutsideBatch() {
        if batchDepth == 0 { batchAnimated = true; flushChanges() }
    }

    private func flushChanges() {
        let set = changes
        changes = ChangeSet()
        let completions = batchCompletions
        batchCompletions = []
        guard !set.isEmpty else { for c in completions { c(true) }; return }
        guard let ds = dataSource, hasLoaded, !needsReloadWhenSized else {
            // Not loaded yet: the first load asks the data source for everything anyway.
            batchCompletions = completions
            return
        }
        do {
            let sectionCount = max(0, ds.numberOfSections(in: self))
            let newSections = try set.apply(to: dataController.pendingSections, sectionCount: sectionCount,
                                             count: { ds.collection(self, numberOfItemsInSection: $0) },
                                             makeItem: { makeItem($0, dataSource: ds, identity: ds.collection(self, identifierForItemAt: $0)) })
            let newHeaders = try set.sectionOrigins(sectionCount: dataController.pendingHeaders.count, newSectionCount: sectionCount)
                .enumerated().map { s, origin in origin.map { dataController.pendingHeaders[$0] } ?? makeHeader(s, dataSource: ds) }
            submit(newSections, headers: newHeaders, animated: batchAnimated, completions: completions)
        } catch {
            logger.error("\(debugName): invalid batch update (\(error)); reloading all data")
            batchCompletions = completions
            reloadData()
        }
    }

    private func makeItem(_ path: ItemPath, dataSource ds: any CollectionDataSource, identity: AnyHashable?) -> CollectionItem {
        CollectionItem(identity: identity, block: ds.collection(self, nodeBlockForItemAt: path))
    }

    /// The block for an item of the committed model whose node was released and that is back in
    /// the preload range: asked of the data source again, at the path the data source knows the
    /// item by now (its committed one, or, while updates are being prepared — the data source
    /// already answers with them — its place in the model they make). Nil without a data source,
    /// for an item a prepared update deletes (it goes when that commits), or when the data source
    /// no longer counts the path (a broken update contract: logged, the item stays blank rather
    /// than the data source being asked out of its bounds). Main thread, in a pass.
    /// `committedPath`: the item's path in the committed model, when the caller has it.
    func nodeBlockForReturningItem(_ item: CollectionItem, committedPath: ItemPath? = nil) -> CellNodeBlock? {
        if let block = item.block { return block }
        guard let ds = dataSource else { return nil }
        var path = committedPath ?? path(ofFlatIndex: item.flatIndex)
        if dataController.pendingUpdateCount > 0 {
            let pending = dataController.pendingSections
            if !(path.section < pending.count && path.item < pending[path.section].count && pending[path.section][path.item] === item) {
                guard let found = pending.enumerated().lazy.compactMap({ s, items in items.firstIndex { $0 === item }.map { ItemPath(item: $0, section: s) } }).first
                else { return nil }
                path = found
            }
        }
        guard path.section < ds.numberOfSections(in: self), path.item < ds.collection(self, numberOfItemsInSection: path.section) else {
            if !reportedUnreportedUpdate {
                reportedUnreportedUpdate = true
                logger.error("\(debugName): the data source no longer has item \(path) that the container shows: an update was not reported (said once)")
            }
            return nil
        }
        return ds.collection(self, nodeBlockForItemAt: path)
    }

    private func makeHeader(_ section: Int, dataSource ds: any CollectionDataSource) -> CollectionItem? {
        guard let block = ds.collection(self, nodeBlockForHeaderInSection: section) else { return nil }
        let header = CollectionItem(identity: nil, block: block)
        header.isHeader = true
        return header
    }

    /// Re-measures every item (the viewport or the layout changed).
    public func remeasureAll() {
        guard measuredViewport.width > 0 else { return }
        submit(dataController.pendingSections, headers: dataController.pendingHeaders, animated: false, completions: [], remeasure: true)
    }

    // MARK: Preparing and committing updates (CollectionDataController)

    /// Hands `newSections` to the data controller, which runs the new items' node blocks and
    /// measures them on the edit queue; the batch comes back through `commit` in a node pass.
    private func submit(_ newSections: [[CollectionItem]], headers: [CollectionItem?], animated: Bool, completions: [(Bool) -> Void],
                        remeasure: Bool = false) {
        let viewport = bounds.size
        measuredViewport = viewport
        dataController.prepareUpdate(newSections, headers: headers, layout: collectionLayout, viewport: viewport, animated: animated,
                                     completions: completions, remeasure: remeasure)
    }

    /// Blocks until every submitted update is prepared, then commits them (main thread). For
    /// tests, snapshots and scripted benches.
    public func waitUntilAllUpdatesAreProcessed() {
        dataController.waitUntilPrepared()
        applyPreparedWork()
    }

    // Committing runs on the main thread, in a node pass.

    /// Commits every prepared batch (the data controller calls back `commit` for each).
    func applyPreparedWork() {
        dataController.commitPreparedWork()
    }

    // MARK: Anchoring

    struct Anchor { let item: CollectionItem; let screenOrigin: Point }

    /// The first visible item and where it is on screen.
    func captureAnchor() -> Anchor? {
        guard anchorsVisibleContentOnUpdates, !frames.isEmpty else { return nil }
        let o = contentOffset
        let visible = Rect(origin: o, size: bounds.size)
        let vertical = scrollableDirections.contains(.vertical)
        let candidates = frameIndex.indices(overlapping: visible, frames: frames)
        guard let first = candidates.min(by: { a, b in
            let fa = frames[a], fb = frames[b]
            return vertical ? (fa.minY, fa.minX) < (fb.minY, fb.minX) : (fa.minX, fa.minY) < (fb.minX, fb.minY)
        }) else { return nil }
        let f = frames[first]
        return Anchor(item: flat[first], screenOrigin: Point(x: f.minX - o.x, y: f.minY - o.y))
    }

    func restore(_ anchor: Anchor?) {
        guard let anchor else { clampOffsetToContent(); return }
        let i = anchor.item.flatIndex
        guard i < flat.count, flat[i] === anchor.item else { clampOffsetToContent(); return }
        let f = frames[i]
        let dirs = scrollableDirections
        let o = contentOffset
        let wanted = Point(x: dirs.contains(.horizontal) ? f.minX - anchor.screenOrigin.x : o.x,
                           y: dirs.contains(.vertical) ? f.minY - anchor.screenOrigin.y : o.y)
        adjustOffsetForContentChange(to: wanted)
    }

    // MARK: Ranges (main thread)

    struct UpdateAnimation { let oldFrames: [ObjectIdentifier: Rect] }

    /// Asks for a range update in the next node pass, after `ScrollNode`'s own handling. Main
    /// thread (scrolling runs there). Subclasses call `super`, or items stop following the offset.
    open override func didScroll(from old: Point, to new: Point) {
        super.didScroll(from: old, to: new)
        // Sticky headers follow the offset at once (the range update comes in the next pass).
        placeAttachedHeaders()
        setNeedsRangeUpdate()
    }

    /// The container's own interface state changes apply to itself only; its items get theirs
    /// from the ranges (intersected with the container's).
    override public func setInterfaceState(_ new: InterfaceState, recursively: Bool = true) {
        let old = interfaceState
        super.setInterfaceState(new, recursively: false)
        if let debugOverlay { debugOverlay.setInterfaceState(new) }
        if old != new { performOnPassThread { [weak self] in self?.updateRanges(animation: nil) } }
    }

    // MARK: Layout

    /// Takes all the room offered: a container has no size of its own (its content scrolls), so
    /// it fills the constrained size, and is 0 long along an unbounded axis — give it a bounded
    /// size (a stack child with `flexGrow`, the window's root). Any thread, like any layout.
    open override func calculateSizeThatFits(_ constrainedSize: Size) -> Size {
        Size(width: constrainedSize.width.isFinite ? constrainedSize.width : 0,
             height: constrainedSize.height.isFinite ? constrainedSize.height : 0)
    }

    override func layoutDidApply(_ layout: Layout) {
        let size = bounds.size
        if size.width > 0, size.height > 0 {
            if needsReloadWhenSized {
                reloadData()
            } else if measuredViewport != size && measuredViewport.width > 0 {
                let vp = measuredViewport
                let layout = collectionLayout
                let changes = sections.isEmpty ? false : layout.constrainedSize(forItemAt: ItemPath(item: 0), viewport: vp)
                    != layout.constrainedSize(forItemAt: ItemPath(item: 0), viewport: size)
                    || (headers.contains { $0 != nil } && layout.constrainedSize(forHeaderInSection: 0, viewport: vp)
                        != layout.constrainedSize(forHeaderInSection: 0, viewport: size))
                measuredViewport = size
                if changes { remeasureAll() } else { recomputeFrames(); setNeedsRangeUpdate() }
            }
        }
        // Items whose layout was invalidated (new content, a different size) are re-measured;
        // the first visible item stays in place when sizes change.
        var changed = false
        let anchor = captureAnchor()
        for item in attached.values {
            if let node = item.node, node.layoutVersion != item.layoutVersion {
                if remeasureOnMain(item) { changed = true }
            }
        }
        for item in attachedHeaders.values {
            if let node = item.node, node.layoutVersion != item.layoutVersion {
                if remeasureOnMain(item) { changed = true }
            }
        }
        if changed {
            recomputeFrames()
            restore(anchor)
            updateRanges(animation: nil)
        }
        super.layoutDidApply(layout)
    }

    // MARK: Selection (main thread)

    /// Paths of the selected items in the committed model, in order. Main thread.
    public var selectedItemPaths: [ItemPath] {
        flat.indices.filter { selected.contains(ObjectIdentifier(flat[$0])) }.map(path(ofFlatIndex:))
    }

    /// Selects the item at `path` (deselecting the others unless `allowsMultipleSelection`) and
    /// sets its cell's `isSelected`; with `notifyingDelegate`, tells the delegate as a tap would.
    /// A path outside the model is ignored. Main thread.
    public func selectItem(at path: ItemPath, notifyingDelegate: Bool = false) {
        guard let item = item(at: path) else { return }
        if !allowsMultipleSelection {
            for id in selected where id != ObjectIdentifier(item) { attached[id]?.node?.isSelected = false }
            selected = []
        }
        selected.insert(ObjectIdentifier(item))
        item.node?.isSelected = true
        if notifyingDelegate { delegate?.collection(self, didSelectItemAt: path) }
    }

    /// Deselects the item at `path`, if selected, and clears its cell's `isSelected`. The
    /// delegate is not told. Main thread.
    public func deselectItem(at path: ItemPath) {
        guard let item = item(at: path) else { return }
        selected.remove(ObjectIdentifier(item))
        item.node?.isSelected = false
    }

    // MARK: Scrolling to items

    /// Where `scrollToItem(at:position:animated:)` puts the item, along the scrolling axis.
    public enum ScrollPosition: Sendable {
        /// The item's leading edge at the viewport's leading edge (top, or left).
        case start
        /// The item's centre at the viewport's centre.
        case center
        /// The item's trailing edge at the viewport's trailing edge (bottom, or right).
        case end
    }

    /// Scrolls so the item at `path` is at `position` of the viewport.
    public func scrollToItem(at path: ItemPath, position: ScrollPosition = .start, animated: Bool = false) {
        guard let f = frameForItem(at: path) else { return }
        let size = bounds.size
        let vertical = scrollableDirections.contains(.vertical)
        let (start, length, view) = vertical ? (f.minY, f.height, size.height) : (f.minX, f.width, size.width)
        let target: Double
        switch position {
        case .start: target = start
        case .center: target = start + length / 2 - view / 2
        case .end: target = start + length - view
        }
        setContentOffset(vertical ? Point(x: contentOffset.x, y: target) : Point(x: target, y: contentOffset.y), animated: animated)
    }

    // MARK: Batch fetching (main thread)

    /// Starts a batch fetch if one is due (ASBatchFetching's rule).
    func checkBatchFetch() {
        guard let delegate, !batchContext.isFetching, leadingScreensForBatching > 0, pendingUpdateCount == 0,
              !needsReloadWhenSized, measuredViewport.width > 0 else { return }
        let size = bounds.size
        guard size.width > 0, size.height > 0 else { return }
        let vertical = scrollableDirections.contains(.vertical)
        let viewLength = vertical ? size.height : size.width
        let offset = vertical ? contentOffset.y : contentOffset.x
        let content = vertical ? contentSize.height : contentSize.width
        if content >= viewLength {
            guard interfaceState.contains(.visible) else { return }
            // Not while scrolling towards the start.
            guard (vertical ? rangeController.leadingDirection.y : rangeController.leadingDirection.x) > 0 else { return }
            let remaining = content - viewLength - offset
            guard remaining <= leadingScreensForBatching * viewLength else { return }
        }
        guard delegate.shouldBatchFetch(for: self) else { return }
        batchContext.beginBatchFetching()
        let box = UncheckedBox((delegate, self, batchContext))
        DispatchQueue.global(qos: .userInitiated).async {
            let (d, c, context) = box.value
            d.collection(c, willBeginBatchFetchWith: context)
        }
    }
}
