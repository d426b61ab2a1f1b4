import Foundation
import SilkGeometry
import SilkLayout
import SilkSystem

/// An item's place in a container: section, then item within the section.
public struct ItemPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The section, from 0.
    public var section: Int
    /// The item within its section, from 0.
    public var item: Int
    /// The path of `item` in `section` (default the first: most containers have one).
    public init(item: Int, section: Int = 0) { self.section = section; self.item = item }
    /// Orders paths as they appear: by section, then by item.
    public static func < (a: ItemPath, b: ItemPath) -> Bool { (a.section, a.item) < (b.section, b.item) }
    /// "[section, item]".
    public var description: String { "[\(section), \(item)]" }
}

/// Makes an item's node. Runs on a background queue, concurrently with other blocks: capture
/// the item's data (values), not the data source.
public typealias CellNodeBlock = @Sendable () -> CellNode

/// What a `CollectionNode` shows (Texture's ASCollectionDataSource). Called on the main thread.
/// Answers must match the container's updates: after `insertItems(at:)` the counts include the
/// new items.
public protocol CollectionDataSource: AnyObject {
    /// The number of sections (default 1). Main thread.
    func numberOfSections(in collection: CollectionNode) -> Int
    /// The number of items in `section` now. Main thread.
    func collection(_ collection: CollectionNode, numberOfItemsInSection section: Int) -> Int
    /// A block that makes the node for the item at `path` (run on a background queue). Asked
    /// when the item is inserted, reloaded or loaded, and again — at the item's path then — when
    /// an item whose node was released (`nodeRetentionScreenfuls`) comes back into the preload
    /// range: the container keeps no block for items far from the screen. Main thread.
    func collection(_ collection: CollectionNode, nodeBlockForItemAt path: ItemPath) -> CellNodeBlock
    /// A stable identity for the item at `path` (default nil). `reloadData()` keeps the node of
    /// an item whose identity it already shows, so unchanged content does not flash; use
    /// `reloadItems(at:)` for an item whose content changed.
    func collection(_ collection: CollectionNode, identifierForItemAt path: ItemPath) -> AnyHashable?
    /// A block that makes the header of `section`, or nil for a section without one (the
    /// default): Texture's supplementary node of kind `UICollectionElementKindSectionHeader`.
    /// The block runs on a background queue, where its node is measured in the layout's
    /// `constrainedSize(forHeaderInSection:viewport:)` — with `FlowLayout`, as wide as the
    /// container. Asked when the section is loaded: by `reloadData()`, `insertSections`,
    /// `reloadSections`; a section that is kept or moved keeps its header node. A header is not
    /// selectable; touches on it go to its own subnodes or scroll the container. Main thread.
    func collection(_ collection: CollectionNode, nodeBlockForHeaderInSection section: Int) -> CellNodeBlock?
}

extension CollectionDataSource {
    /// One section.
    public func numberOfSections(in collection: CollectionNode) -> Int { 1 }
    /// No identity: `reloadData()` re-creates every item.
    public func collection(_ collection: CollectionNode, identifierForItemAt path: ItemPath) -> AnyHashable? { nil }
    /// No header: the section's items start at its top.
    public func collection(_ collection: CollectionNode, nodeBlockForHeaderInSection section: Int) -> CellNodeBlock? { nil }
}

/// Selection and batch fetching (Texture's ASCollectionDelegate).
public protocol CollectionDelegate: AnyObject {
    /// Main thread: an item was tapped (or selected by `selectItem(at:notifyingDelegate:)`).
    func collection(_ collection: CollectionNode, didSelectItemAt path: ItemPath)
    /// Main thread: whether to fetch more content now (the end is within
    /// `leadingScreensForBatching` screens). Default false.
    func shouldBatchFetch(for collection: CollectionNode) -> Bool
    /// A background queue: fetch, insert the new items (from the main thread), then call
    /// `context.completeBatchFetching(true)`. No other fetch starts until the context completes
    /// or is cancelled.
    func collection(_ collection: CollectionNode, willBeginBatchFetchWith context: BatchContext)
}

extension CollectionDelegate {
    /// Does nothing.
    public func collection(_ collection: CollectionNode, didSelectItemAt path: ItemPath) {}
    /// Never fetches.
    public func shouldBatchFetch(for collection: CollectionNode) -> Bool { false }
    /// Completes the fetch at once, having found nothing.
    public func collection(_ collection: CollectionNode, willBeginBatchFetchWith context: BatchContext) {
        context.completeBatchFetching(false)
    }
}

/// The state of one batch fetch (Texture's ASBatchContext). Any thread.
public final class BatchContext: @unchecked Sendable {
    /// Where a batch fetch stands.
    public enum State: Sendable {
        /// No fetch under way: the container may begin one.
        case idle
        /// The delegate is fetching; no other fetch begins until it completes or cancels.
        case fetching
        /// The last fetch was abandoned (`cancelBatchFetching()`); another may begin.
        case cancelled
    }
    private let lock = Lock()
    private var _state = State.idle
    private var _fetches = 0
    /// Called when a fetch ends (the container checks again whether to fetch).
    var onEnd: (@Sendable () -> Void)?

    /// An idle context. The container makes its own; create one only to drive a delegate in a test.
    public init() {}
    /// Where the current (or last) fetch stands.
    public var state: State { lock.withLock { _state } }
    /// Whether a fetch is under way: the container starts no other until it ends.
    public var isFetching: Bool { state == .fetching }
    /// Whether the last fetch was cancelled.
    public var batchFetchingWasCancelled: Bool { state == .cancelled }
    /// How many fetches have begun (tests, diagnostics).
    public var fetchCount: Int { lock.withLock { _fetches } }

    /// The container begins a fetch (main thread).
    func beginBatchFetching() { lock.withLock { _state = .fetching; _fetches += 1 } }

    /// The fetch is done: the state returns to `.idle` and the container checks again at its next
    /// pass whether to fetch more. `didComplete` is false when the fetch found nothing
    /// (informational). Any thread.
    public func completeBatchFetching(_ didComplete: Bool) {
        let was = lock.withLock { () -> State in defer { _state = .idle }; return _state }
        if was == .fetching { onEnd?() }
    }
    /// The fetch was abandoned (the app gave up, or will retry later): the state becomes
    /// `.cancelled` and the container may begin another fetch at its next check. Any thread.
    public func cancelBatchFetching() {
        let was = lock.withLock { () -> State in defer { _state = .cancelled }; return _state }
        if was == .fetching { onEnd?() }
    }
}

/// Where a container's items go (Texture's collection layout delegate). Called on the main
/// thread, with the sizes of all items: keep it O(n) in the item count.
public protocol CollectionLayout: Sendable {
    /// The axis the container scrolls along with this layout.
    var scrollableDirections: ScrollDirections { get }
    /// The size range the item at `path` is measured in, for a container of `viewport` points.
    func constrainedSize(forItemAt path: ItemPath, viewport: Size) -> SizeRange
    /// The frames (content coordinates) of the measured items, `sizes[section][item]`, and the
    /// content size.
    func layout(itemSizes sizes: [[Size]], viewport: Size) -> CollectionLayoutResult
    /// The size range the header of `section` is measured in. The default: exactly the
    /// viewport's width, any height.
    func constrainedSize(forHeaderInSection section: Int, viewport: Size) -> SizeRange
    /// The frames of the measured items and section headers (`headerSizes[section]`, nil for a
    /// section without a header). The default calls `layout(itemSizes:viewport:)` and places no
    /// header: a layout shows headers only if it implements this.
    func layout(itemSizes sizes: [[Size]], headerSizes: [Size?], viewport: Size) -> CollectionLayoutResult
    /// Where the header of `section` is shown while `visible` (content coordinates) is on
    /// screen: its laid-out frame, or somewhere else for a header that sticks (`FlowLayout`'s
    /// `sectionHeadersPinToVisibleBounds`). It must stay within the section's frame
    /// (`result.sectionFrames`): the container finds headers in range through their sections.
    /// The default: where it was laid out. Main thread, after every scroll: keep it O(1).
    func displayedHeaderFrame(inSection section: Int, of result: CollectionLayoutResult, visible: Rect) -> Rect?
}

extension CollectionLayout {
    /// Exactly the viewport's width, any height: a header spans the container.
    public func constrainedSize(forHeaderInSection section: Int, viewport: Size) -> SizeRange {
        let w = viewport.width.isFinite ? max(0, viewport.width) : 0
        return SizeRange(min: Size(width: w, height: 0), max: Size(width: w, height: .infinity))
    }
    /// The items only (`layout(itemSizes:viewport:)`): no header is placed.
    public func layout(itemSizes sizes: [[Size]], headerSizes: [Size?], viewport: Size) -> CollectionLayoutResult {
        layout(itemSizes: sizes, viewport: viewport)
    }
    /// The laid-out frame (`result.headerFrames[section]`): headers scroll with their sections.
    public func displayedHeaderFrame(inSection section: Int, of result: CollectionLayoutResult, visible: Rect) -> Rect? {
        section >= 0 && section < result.headerFrames.count ? result.headerFrames[section] : nil
    }
}

/// A layout's answer: every item's frame, every section header's, and the size of the content
/// they span.
public struct CollectionLayoutResult: Sendable {
    /// Frames in content coordinates (points), `frames[section][item]`; they need not be sorted.
    public var frames: [[Rect]]
    /// The scrollable content's size in points.
    public var contentSize: Size
    /// Each section header's frame where it is laid out (content coordinates), nil for a
    /// section without one; empty when the layout places no headers.
    public var headerFrames: [Rect?]
    /// The rectangle each section spans, its header included (content coordinates): a header
    /// that sticks stays inside it, and is pushed out by the next section. Empty when the layout
    /// places no headers.
    public var sectionFrames: [Rect]
    /// A result with `frames` and `contentSize`, and the headers' and sections' frames when the
    /// layout places headers.
    public init(frames: [[Rect]], contentSize: Size, headerFrames: [Rect?] = [], sectionFrames: [Rect] = []) {
        self.frames = frames; self.contentSize = contentSize
        self.headerFrames = headerFrames; self.sectionFrames = sectionFrames
    }
}

/// A vertical flow layout: rows of equally wide columns, each item as tall as it measures, rows
/// as tall as their tallest item; each section starts a new row. The columns are as many as fit
/// `minimumColumnWidth` (or exactly `columns`); leftover width centres the grid.
///
/// A section's header (the data source's `nodeBlockForHeaderInSection`) spans the container
/// above the section's insets; with `sectionHeadersPinToVisibleBounds` (the default, as in a
/// table of grouped settings) the header of the section at the top of the viewport sticks there
/// while its section scrolls under it, and the next section's header pushes it up.
public struct FlowLayout: CollectionLayout {
    /// Narrowest column in points (default 300): as many columns as fit this wide. At least 1.
    public var minimumColumnWidth: Double
    /// A fixed column count (overrides `minimumColumnWidth`).
    public var columns: Int?
    /// Space between columns, in points (default 16).
    public var itemSpacing: Double
    /// Space between rows, in points (default 16).
    public var lineSpacing: Double
    /// Space around each section's grid, in points (default 16 on every side); a header is
    /// above the top inset.
    public var sectionInsets: EdgeInsets
    /// Whether the header of the section at the top of the viewport sticks to the top while its
    /// section scrolls under it (UICollectionViewFlowLayout's property of this name). Default
    /// true; false: headers scroll with their sections.
    public var sectionHeadersPinToVisibleBounds = true

    /// A grid of columns at least `minimumColumnWidth` wide (or exactly `columns`), with the given
    /// spacing and section insets in points. Negative spacings become 0.
    public init(minimumColumnWidth: Double = 300, columns: Int? = nil, itemSpacing: Double = 16, lineSpacing: Double = 16,
                sectionInsets: EdgeInsets = EdgeInsets(top: 16, left: 16, bottom: 16, right: 16)) {
        self.minimumColumnWidth = max(1, minimumColumnWidth)
        self.columns = columns.map { max(1, $0) }
        self.itemSpacing = max(0, itemSpacing); self.lineSpacing = max(0, lineSpacing)
        self.sectionInsets = sectionInsets
    }

    /// One full-width column without spacing: a table.
    public static let list = FlowLayout(columns: 1, itemSpacing: 0, lineSpacing: 0, sectionInsets: EdgeInsets())

    /// Always `.vertical`: rows follow each other downwards.
    public var scrollableDirections: ScrollDirections { .vertical }

    /// The number of columns for a viewport: `columns`, or as many as fit `minimumColumnWidth` (at
    /// least one).
    public func columnCount(viewport: Size) -> Int {
        if let columns { return columns }
        let available = viewport.width - sectionInsets.left - sectionInsets.right
        return max(1, Int((available + itemSpacing) / (minimumColumnWidth + itemSpacing)))
    }

    /// Each column's width in whole points for a viewport, after insets and spacing.
    public func itemWidth(viewport: Size) -> Double {
        let n = Double(columnCount(viewport: viewport))
        let available = viewport.width - sectionInsets.left - sectionInsets.right - (n - 1) * itemSpacing
        return max(0, (available / n).rounded(.down))
    }

    /// The column's width exactly, any height: items measure their own height.
    public func constrainedSize(forItemAt path: ItemPath, viewport: Size) -> SizeRange {
        let w = itemWidth(viewport: viewport)
        return SizeRange(min: Size(width: w, height: 0), max: Size(width: w, height: .infinity))
    }

    /// Fills rows left to right, each as tall as its tallest item, sections one below the other;
    /// the grid is centred when columns leave width over. No headers.
    public func layout(itemSizes sizes: [[Size]], viewport: Size) -> CollectionLayoutResult {
        layout(itemSizes: sizes, headerSizes: [], viewport: viewport)
    }

    /// As `layout(itemSizes:viewport:)`, each section preceded by its header (as tall as it
    /// measured, at x = 0, as wide as it measured — the viewport's width by default).
    public func layout(itemSizes sizes: [[Size]], headerSizes: [Size?], viewport: Size) -> CollectionLayoutResult {
        let n = columnCount(viewport: viewport), w = itemWidth(viewport: viewport)
        let gridWidth = Double(n) * w + Double(n - 1) * itemSpacing
        let left = sectionInsets.left + max(0, (viewport.width - sectionInsets.left - sectionInsets.right - gridWidth) / 2).rounded(.down)
        var y = 0.0
        var frames: [[Rect]] = []
        frames.reserveCapacity(sizes.count)
        var headers: [Rect?] = [], sectionFrames: [Rect] = []
        let placesHeaders = headerSizes.contains { $0 != nil }
        for (s, section) in sizes.enumerated() {
            let sectionTop = y
            if placesHeaders {
                let header = s < headerSizes.count ? headerSizes[s] : nil
                headers.append(header.map { Rect(x: 0, y: y, width: $0.width, height: $0.height) })
                y += header?.height ?? 0
            }
            y += sectionInsets.top
            var out: [Rect] = []
            out.reserveCapacity(collectionCapacity(section.count))
            var rowHeight = 0.0
            for (i, s) in section.enumerated() {
                let col = i % n
                if col == 0 && i > 0 { y += rowHeight + lineSpacing; rowHeight = 0 }
                out.append(Rect(x: left + Double(col) * (w + itemSpacing), y: y, width: s.width, height: s.height))
                rowHeight = max(rowHeight, s.height)
            }
            y += rowHeight + sectionInsets.bottom
            frames.append(out)
            if placesHeaders { sectionFrames.append(Rect(x: 0, y: sectionTop, width: viewport.width, height: y - sectionTop)) }
        }
        return CollectionLayoutResult(frames: frames, contentSize: Size(width: viewport.width, height: y),
                                      headerFrames: headers, sectionFrames: sectionFrames)
    }

    /// With `sectionHeadersPinToVisibleBounds`, the header pinned by
    /// `pinnedHeaderFrame(_:sectionMaxY:visibleMinY:)`; otherwise where it was laid out.
    public func displayedHeaderFrame(inSection section: Int, of result: CollectionLayoutResult, visible: Rect) -> Rect? {
        guard section >= 0, section < result.headerFrames.count, let header = result.headerFrames[section] else { return nil }
        guard sectionHeadersPinToVisibleBounds, section < result.sectionFrames.count else { return header }
        return Self.pinnedHeaderFrame(header, sectionMaxY: result.sectionFrames[section].maxY, visibleMinY: visible.minY)
    }

    /// Where a sticky header shows: at the top of the viewport (`visibleMinY`) once its section
    /// scrolled under it, never above where it was laid out, and never below `sectionMaxY` minus
    /// its height — there the next section's header pushes it up. A non-finite `visibleMinY`
    /// leaves it where it was laid out.
    public static func pinnedHeaderFrame(_ header: Rect, sectionMaxY: Double, visibleMinY: Double) -> Rect {
        guard visibleMinY.isFinite, sectionMaxY.isFinite else { return header }
        let lowest = max(header.minY, sectionMaxY - header.height)
        let y = max(header.minY, min(visibleMinY, lowest))
        return Rect(x: header.minX, y: y, width: header.width, height: header.height)
    }
}

/// Pages side by side, each the size of the viewport (`PagerNode`).
public struct PagerLayout: CollectionLayout {
    /// The pager layout (it has no options).
    public init() {}
    /// Always `.horizontal`: pages follow each other to the right.
    public var scrollableDirections: ScrollDirections { .horizontal }
    /// Exactly the viewport: a page fills the container.
    public func constrainedSize(forItemAt path: ItemPath, viewport: Size) -> SizeRange { SizeRange(exactly: viewport) }
    /// Pages side by side from x = 0 in item order, sections continuing each other.
    public func layout(itemSizes sizes: [[Size]], viewport: Size) -> CollectionLayoutResult {
        var x = 0.0
        let frames = sizes.map { section in
            section.map { _ -> Rect in defer { x += viewport.width }; return Rect(x: x, y: 0, width: viewport.width, height: viewport.height) }
        }
        return CollectionLayoutResult(frames: frames, contentSize: Size(width: x, height: viewport.height))
    }
}
