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
    /// A block that makes the node for the item at `path` (run on a background queue).
    func collection(_ collection: CollectionNode, nodeBlockForItemAt path: ItemPath) -> CellNodeBlock
    /// A stable identity for the item at `path` (default nil). `reloadData()` keeps the node of
    /// an item whose identity it already shows, so unchanged content does not flash; use
    /// `reloadItems(at:)` for an item whose content changed.
    func collection(_ collection: CollectionNode, identifierForItemAt path: ItemPath) -> AnyHashable?
}

extension CollectionDataSource {
    /// One section.
    public func numberOfSections(in collection: CollectionNode) -> Int { 1 }
    /// No identity: `reloadData()` re-creates every item.
    public func collection(_ collection: CollectionNode, identifierForItemAt path: ItemPath) -> AnyHashable? { nil }
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
}

/// A layout's answer: every item's frame and the size of the content they span.
public struct CollectionLayoutResult: Sendable {
    /// Frames in content coordinates (points), `frames[section][item]`; they need not be sorted.
    public var frames: [[Rect]]
    /// The scrollable content's size in points.
    public var contentSize: Size
    /// A result with `frames` and `contentSize`.
    public init(frames: [[Rect]], contentSize: Size) { self.frames = frames; self.contentSize = contentSize }
}

/// A vertical flow layout: rows of equally wide columns, each item as tall as it measures, rows
/// as tall as their tallest item; each section starts a new row. The columns are as many as fit
/// `minimumColumnWidth` (or exactly `columns`); leftover width centres the grid.
public struct FlowLayout: CollectionLayout {
    /// Narrowest column in points (default 300): as many columns as fit this wide. At least 1.
    public var minimumColumnWidth: Double
    /// A fixed column count (overrides `minimumColumnWidth`).
    public var columns: Int?
    /// Space between columns, in points (default 16).
    public var itemSpacing: Double
    /// Space between rows, in points (default 16).
    public var lineSpacing: Double
    /// Space around each section's grid, in points (default 16 on every side).
    public var sectionInsets: EdgeInsets

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
    /// the grid is centred when columns leave width over.
    public func layout(itemSizes sizes: [[Size]], viewport: Size) -> CollectionLayoutResult {
        let n = columnCount(viewport: viewport), w = itemWidth(viewport: viewport)
        let gridWidth = Double(n) * w + Double(n - 1) * itemSpacing
        let left = sectionInsets.left + max(0, (viewport.width - sectionInsets.left - sectionInsets.right - gridWidth) / 2).rounded(.down)
        var y = 0.0
        var frames: [[Rect]] = []
        frames.reserveCapacity(sizes.count)
        for section in sizes {
            y += sectionInsets.top
            var out: [Rect] = []
            out.reserveCapacity(section.count)
            var rowHeight = 0.0
            for (i, s) in section.enumerated() {
                let col = i % n
                if col == 0 && i > 0 { y += rowHeight + lineSpacing; rowHeight = 0 }
                out.append(Rect(x: left + Double(col) * (w + itemSpacing), y: y, width: s.width, height: s.height))
                rowHeight = max(rowHeight, s.height)
            }
            y += rowHeight + sectionInsets.bottom
            frames.append(out)
        }
        return CollectionLayoutResult(frames: frames, contentSize: Size(width: viewport.width, height: y))
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
