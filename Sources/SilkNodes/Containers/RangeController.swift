import Foundation
import SilkGeometry
import SilkLayout
import SilkRender

// Ranges, as Texture defines them: around the visible rectangle of a scroll container, the
// display range (items draw) and the larger preload range (items fetch data) extend by a number
// of screenfuls, more in the direction the content is scrolling (leading) than behind it
// (trailing). Which numbers apply depends on the range mode.

/// Which tuning parameters apply (Texture's ASLayoutRangeMode).
public enum RangeMode: String, Hashable, Sendable, CaseIterable {
    /// The container is visible and has been scrolled or updated since it appeared.
    case full
    /// The container just appeared, or is not visible: small ranges.
    case minimum
    /// Only what is on screen displays and preloads.
    case visibleOnly
    /// Memory pressure: nothing outside the visible range keeps display contents, and a
    /// container that is not visible keeps none at all.
    case lowMemory
}

/// The two ranges a tuning parameter sizes (Texture's ASLayoutRangeType).
public enum RangeType: String, Hashable, Sendable, CaseIterable {
    /// Items here draw: display jobs run, and leaving it releases their bitmaps.
    case display
    /// Items here are attached and fetch their data (network images start loading); larger
    /// than the display range.
    case preload
}

/// How far a range extends beyond the visible rectangle, in screenfuls (multiples of the
/// container's length along the scrolling axis).
public struct RangeTuningParameters: Hashable, Sendable, CustomStringConvertible {
    /// Screenfuls added on the side the content last scrolled towards (where items come from).
    public var leadingBufferScreenfuls: Double
    /// Screenfuls added on the side the content scrolled away from.
    public var trailingBufferScreenfuls: Double
    /// Screenfuls on each side; negative and non-finite values become 0.
    public init(leading: Double, trailing: Double) {
        leadingBufferScreenfuls = max(0, leading.isFinite ? leading : 0)
        trailingBufferScreenfuls = max(0, trailing.isFinite ? trailing : 0)
    }
    /// No buffer: the range is the visible rectangle.
    public static let zero = RangeTuningParameters(leading: 0, trailing: 0)
    /// `"1.0 leading / 0.5 trailing"`, for logs and test failures.
    public var description: String { "\(leadingBufferScreenfuls) leading / \(trailingBufferScreenfuls) trailing" }
}

/// Tuning parameters for every mode and range type; `default` holds Texture's values.
public struct RangeTuning: Hashable, Sendable {
    private var table: [RangeMode: [RangeType: RangeTuningParameters]]

    /// Texture's defaults (ASAbstractLayoutController): full — display 1.0 / 0.5, preload
    /// 2.5 / 1.5; minimum — display 0.25 / 0.25, preload 0.5 / 0.25; visible-only and
    /// low-memory — 0 / 0.
    public static let `default` = RangeTuning(table: [
        .full: [.display: .init(leading: 1.0, trailing: 0.5), .preload: .init(leading: 2.5, trailing: 1.5)],
        .minimum: [.display: .init(leading: 0.25, trailing: 0.25), .preload: .init(leading: 0.5, trailing: 0.25)],
        .visibleOnly: [.display: .zero, .preload: .zero],
        .lowMemory: [.display: .zero, .preload: .zero],
    ])

    /// The parameters of `type`'s range in `mode` (`.zero` when none were set). Set one to tune a
    /// container: `rangeController.tuning[.full, .preload] = .init(leading: 4, trailing: 1)`.
    public subscript(mode: RangeMode, type: RangeType) -> RangeTuningParameters {
        get { table[mode]?[type] ?? .zero }
        set { table[mode, default: [:]][type] = newValue }
    }
}

/// The rectangles (content coordinates) a range update works with.
public struct RangeRects: Hashable, Sendable {
    /// The viewport: the content offset and the container's size.
    public var visible: Rect
    /// The visible rectangle grown by the mode's display tuning.
    public var display: Rect
    /// The visible rectangle grown by the mode's preload tuning (contains `display` with the
    /// default tuning).
    public var preload: Rect
}

/// Decides ranges and item interface states for a scroll container (main thread). The
/// container owns the items; this type owns the policy: the mode, the tuning, and which way is
/// leading.
public final class RangeController {
    /// Screenfuls per mode and range; Texture's values until changed. Main thread; applies from
    /// the next range update.
    public var tuning = RangeTuning.default
    /// Forces a mode; nil: Texture's rule (minimum for the first update and while the container
    /// is not visible, full afterwards), or `lowMemory` while `isInLowMemoryMode`.
    public var forcedMode: RangeMode?
    /// Releases display contents outside the visible range (and everything when not visible).
    /// While any controller is in low-memory mode the image nodes' shared caches
    /// (`ImageNode.decodedImageCache`, `ImageNode.modifiedImageCache`) are emptied and keep nothing.
    public var isInLowMemoryMode = false {
        didSet { if isInLowMemoryMode != oldValue { RangeController.noteLowMemory(isInLowMemoryMode ? 1 : -1) } }
    }
    deinit { if isInLowMemoryMode { RangeController.noteLowMemory(-1) } }

    /// Controllers in low-memory mode now; the node image caches are suspended while any is.
    private static let lowMemoryControllers = Locked(0)
    private static func noteLowMemory(_ delta: Int) {
        // Set under the count's lock: two controllers changing mode at once must not leave the
        // caches in the state of the earlier change.
        lowMemoryControllers.withLock { count in
            count += delta
            ImageNode.decodedImageCache.isSuspended = count > 0
            ImageNode.modifiedImageCache.isSuspended = count > 0
        }
    }
    /// The direction of the last scroll along each axis: +1 towards the end (down/right), −1
    /// towards the start. Leading buffers extend that way. Before any scroll: towards the end.
    public private(set) var leadingDirection = (x: 1.0, y: 1.0)
    /// The mode of the last range update; nil before the first (which is why that one is
    /// `minimum`). Main thread.
    public private(set) var currentMode: RangeMode?
    private var lastOffset: Point?

    /// A controller with Texture's tuning, no forced mode, leading towards the end. Every
    /// `CollectionNode` makes its own (`rangeController`); tests make one to check the policy
    /// alone.
    public init() {}

    /// Notes the scroll offset; a movement along an axis makes its direction leading.
    public func noteOffset(_ offset: Point) {
        if let last = lastOffset {
            if offset.x != last.x { leadingDirection.x = offset.x > last.x ? 1 : -1 }
            if offset.y != last.y { leadingDirection.y = offset.y > last.y ? 1 : -1 }
        }
        lastOffset = offset
    }

    /// The mode for this update.
    public func mode(containerIsVisible: Bool) -> RangeMode {
        if let forcedMode { return forcedMode }
        if isInLowMemoryMode { return .lowMemory }
        return (containerIsVisible && currentMode != nil) ? .full : .minimum
    }

    /// The ranges for a container showing `visible` (content coordinates) that scrolls along
    /// `directions`. Records the mode as current.
    public func rects(visible: Rect, directions: ScrollDirections, containerIsVisible: Bool) -> (RangeRects, RangeMode) {
        let mode = self.mode(containerIsVisible: containerIsVisible)
        currentMode = mode
        let display = expand(visible, tuning[mode, .display], directions)
        let preload = expand(visible, tuning[mode, .preload], directions)
        return (RangeRects(visible: visible, display: display, preload: preload), mode)
    }

    /// `rect` grown by the parameters' screenfuls along each scrollable axis: leading on the
    /// side the content last scrolled towards.
    public func expand(_ rect: Rect, _ p: RangeTuningParameters, _ directions: ScrollDirections) -> Rect {
        var r = rect
        if directions.contains(.horizontal) {
            let forward = leadingDirection.x > 0
            let after = (forward ? p.leadingBufferScreenfuls : p.trailingBufferScreenfuls) * rect.width
            let before = (forward ? p.trailingBufferScreenfuls : p.leadingBufferScreenfuls) * rect.width
            r = Rect(x: r.minX - before, y: r.minY, width: r.width + before + after, height: r.height)
        }
        if directions.contains(.vertical) {
            let forward = leadingDirection.y > 0
            let after = (forward ? p.leadingBufferScreenfuls : p.trailingBufferScreenfuls) * rect.height
            let before = (forward ? p.trailingBufferScreenfuls : p.leadingBufferScreenfuls) * rect.height
            r = Rect(x: r.minX, y: r.minY - before, width: r.width, height: r.height + before + after)
        }
        return r
    }

    /// The interface state of an item with `frame` for these ranges (before intersecting with
    /// the container's own state). Low-memory mode: nothing displays while the container is
    /// not visible.
    public static func state(for frame: Rect, in rects: RangeRects, mode: RangeMode, containerIsVisible: Bool) -> InterfaceState {
        var s: InterfaceState = [.measureLayout]
        if overlaps(frame, rects.preload) { s.insert(.preload) }
        if overlaps(frame, rects.display) && !(mode == .lowMemory && !containerIsVisible) { s.insert(.display) }
        if overlaps(frame, rects.visible) { s.insert(.visible) }
        // Ranges nest: whatever is visible also displays and preloads.
        if s.contains(.visible) && !(mode == .lowMemory && !containerIsVisible) { s.formUnion([.display, .preload]) }
        if s.contains(.display) { s.insert(.preload) }
        return s
    }

    /// Open-interval overlap. An item of zero length counts as half a point long, so an item
    /// that is empty until its content arrives still enters the ranges (and can load it).
    static func overlaps(_ a: Rect, _ b: Rect) -> Bool {
        max(a.maxX, a.minX + 0.5) > b.minX && a.minX < b.maxX && max(a.maxY, a.minY + 0.5) > b.minY && a.minY < b.maxY
    }
}

/// Item frames indexed for range queries along the scrolling axis: the frames sorted by their
/// leading edge with the running maximum of their trailing edges, so the items intersecting a
/// range are found by two binary searches (O(log n + k)), not a walk over every item.
struct ItemFrameIndex {
    let vertical: Bool
    /// Flat item indices by leading edge; nil when the frames already are in that order.
    private let order: [Int]?
    /// Leading edges and running maxima of trailing edges in `order`; empty when the frames are
    /// a column (or row) in order whose trailing edges never go back — a table, a pager — where
    /// the frames themselves are searched (two arrays less per item, remade at every update).
    private let starts: [Double]
    private let prefixMaxEnds: [Double]
    private var direct: Bool { starts.isEmpty }

    private static func start(_ r: Rect, _ vertical: Bool) -> Double { vertical ? r.minY : r.minX }
    private static func end(_ r: Rect, _ vertical: Bool) -> Double { vertical ? max(r.maxY, r.minY + 0.5) : max(r.maxX, r.minX + 0.5) }

    init(frames: [Rect], vertical: Bool) {
        self.vertical = vertical
        var sorted = true, monotonic = true
        for i in frames.indices.dropFirst() {
            if Self.start(frames[i], vertical) < Self.start(frames[i - 1], vertical) { sorted = false; break }
            if Self.end(frames[i], vertical) < Self.end(frames[i - 1], vertical) { monotonic = false }
        }
        guard !(sorted && monotonic) else { order = nil; starts = []; prefixMaxEnds = []; return }
        let order: [Int]? = sorted ? nil : frames.indices.sorted { Self.start(frames[$0], vertical) < Self.start(frames[$1], vertical) }
        self.order = order
        var starts: [Double] = [], ends: [Double] = []
        starts.reserveCapacity(frames.count); ends.reserveCapacity(frames.count)
        var running = -Double.infinity
        for k in frames.indices {
            let f = frames[order?[k] ?? k]
            starts.append(Self.start(f, vertical))
            running = max(running, Self.end(f, vertical))
            ends.append(running)
        }
        self.starts = starts
        prefixMaxEnds = ends
    }

    /// Flat indices of the frames that overlap `rect` (any order). `frames` are the ones the
    /// index was made from.
    func indices(overlapping rect: Rect, frames: [Rect]) -> [Int] {
        let lo = vertical ? rect.minY : rect.minX, hi = vertical ? rect.maxY : rect.maxX
        let count = direct ? frames.count : prefixMaxEnds.count
        let runningEnd = { (k: Int) in direct ? Self.end(frames[k], vertical) : prefixMaxEnds[k] }
        let startAt = { (k: Int) in direct ? Self.start(frames[k], vertical) : starts[k] }
        // First position whose running end passes `lo`: everything before ends at or above it.
        var a = 0, b = count
        while a < b { let m = (a + b) / 2; if runningEnd(m) > lo { b = m } else { a = m + 1 } }
        let first = a
        // First position starting at or after `hi`.
        a = first; b = count
        while a < b { let m = (a + b) / 2; if startAt(m) >= hi { b = m } else { a = m + 1 } }
        var out: [Int] = []
        for k in first..<max(first, a) {
            let i = order?[k] ?? k
            if RangeController.overlaps(frames[i], rect) { out.append(i) }
        }
        return out
    }
}

// Applying ranges to a collection's items (main thread), the part of Texture's ASRangeController
// that touches nodes: `RangeController` decides the rectangles and states, this gives each item
// in the preload range its interface state, attaches and detaches item nodes, and releases the
// nodes of items far outside the ranges (their sizes are kept; `CollectionDataController`
// re-creates them when they come back).
extension CollectionNode {
    /// Asks for a range update at the start of the next node pass (coalesced).
    public func setNeedsRangeUpdate() {
        guard !rangeUpdateQueued else { return }
        rangeUpdateQueued = true
        NodeScheduler.shared.enqueueForNextPass(owner: self) { [weak self] in
            guard let self else { return }
            self.rangeUpdateQueued = false
            self.updateRanges(animation: nil)
        }
    }

    /// Gives every item in the preload range its interface state, attaching and detaching
    /// nodes, and starts a batch fetch when due.
    func updateRanges(animation: UpdateAnimation?) {
        let size = bounds.size
        guard size.width > 0, size.height > 0 else { return }
        stats.withLock { $0.rangeUpdates += 1 }
        let offset = contentOffset
        rangeController.noteOffset(offset)
        let own = interfaceState
        let containerVisible = own.contains(.visible)
        let dirs = scrollableDirections
        let (rects, mode) = rangeController.rects(visible: Rect(origin: offset, size: size), directions: dirs,
                                                  containerIsVisible: containerVisible)
        lastRects = rects

        // The items the ranges want, in item order (the frame index yields a column's in order;
        // a grid's are sorted below), each stamped with this update's generation so the attached
        // items not wanted are found without a table of the wanted ones.
        var wanted: [(item: CollectionItem, state: InterfaceState)] = []
        rangeGeneration &+= 1
        let generation = rangeGeneration
        var toMaterialize: [(item: CollectionItem, block: CellNodeBlock, range: SizeRange)] = []
        if own.contains(.preload) {
            for i in frameIndex.indices(overlapping: rects.preload, frames: frames) {
                let item = flat[i]
                let state = RangeController.state(for: frames[i], in: rects, mode: mode, containerIsVisible: containerVisible)
                    .intersection(own.union(.measureLayout))
                guard state.contains(.preload) else { continue }
                if item.node == nil {
                    if !dataController.isPreparingNode(for: item) {
                        let path = path(ofFlatIndex: i)
                        if let block = nodeBlockForReturningItem(item, committedPath: path) {
                            toMaterialize.append((item, block, collectionLayout.constrainedSize(forItemAt: path, viewport: measuredViewport)))
                        }
                    }
                    continue
                }
                item.rangeGeneration = generation
                wanted.append((item, state))
            }
        }
        for (_, item) in attached where item.rangeGeneration != generation { detach(item) }
        var inOrder = true
        for k in wanted.indices.dropFirst() where wanted[k].item.flatIndex < wanted[k - 1].item.flatIndex { inOrder = false; break }
        if !inOrder { wanted.sort { $0.item.flatIndex < $1.item.flatIndex } }
        var attachedNew = false
        // In item order, so the display jobs of a fresh screen start from its top.
        for (item, state) in wanted {
            guard let node = item.node else { continue }
            let id = ObjectIdentifier(item)
            let frame = frames[item.flatIndex]
            if attached[id] == nil {
                node.frame = frame
                if let layout = item.layout, node.layoutVersion == item.layoutVersion { NodePass.apply(layout, to: node) }
                else { remeasureOnMain(item) }
                node.setContainer(self)
                node.isSelected = selected.contains(id)
                attachItem(node, state: state)
                attached[id] = item
                attachedNew = true
                if let animation, animation.oldFrames[id] == nil, updateAnimationDuration > 0 {
                    node.loadLayer().add(LayerAnimation(property: .opacity(from: 0, to: nil), duration: updateAnimationDuration))
                }
            } else {
                let old = node.frame
                if old != frame {
                    node.frame = frame
                    if let animation, let from = animation.oldFrames[id], updateAnimationDuration > 0, let layer = node.layer {
                        layer.add(LayerAnimation(property: .position(from: Point(x: from.midX, y: from.midY), to: nil),
                                                 duration: updateAnimationDuration, timing: .easeInOut,
                                                 beginsFromCurrentState: true))  // a quick second update continues the move
                    }
                }
                if node.interfaceState != state { node.setInterfaceState(state) }
            }
        }
        if !toMaterialize.isEmpty { dataController.prepareNodes(for: toMaterialize) }
        let headersChanged = updateHeaderRanges(rects: rects, mode: mode, own: own)
        // Headers draw (and take touches) above the items, the scroll indicator above both.
        if attachedNew || headersChanged {
            for header in attachedHeaders.values.sorted(by: { $0.flatIndex < $1.flatIndex }) {
                if let node = header.node { moveSubnode(node, to: Int.max) }
            }
            bringScrollIndicatorToFront()
        }
        releaseFarNodes(rects: rects, directions: dirs)
        if let overlay = debugOverlay {
            if overlay.supernode !== self { attachItem(overlay, state: own) }
            if attachedNew { moveSubnode(overlay, to: Int.max) }
            overlay.show(rects: rects, mode: mode, items: wanted.map { (frames[$0.item.flatIndex], $0.state) }, offset: offset, size: size)
        }
        checkBatchFetch()
    }

    /// Gives each header whose section overlaps the preload range the state of the frame it is
    /// shown at (pinned or not), attaching and detaching header nodes. Returns whether any was
    /// attached.
    func updateHeaderRanges(rects: RangeRects, mode: RangeMode, own: InterfaceState) -> Bool {
        guard !headers.isEmpty || !attachedHeaders.isEmpty else { return false }
        let containerVisible = own.contains(.visible)
        var wanted: [ObjectIdentifier: (CollectionItem, InterfaceState, Rect)] = [:]
        if own.contains(.preload) {
            for s in sectionIndex.indices(overlapping: rects.preload, frames: layoutResult.sectionFrames) {
                guard s < headers.count, let header = headers[s], header.node != nil,
                      let frame = collectionLayout.displayedHeaderFrame(inSection: s, of: layoutResult, visible: rects.visible) else { continue }
                let state = RangeController.state(for: frame, in: rects, mode: mode, containerIsVisible: containerVisible)
                    .intersection(own.union(.measureLayout))
                guard state.contains(.preload) else { continue }
                wanted[ObjectIdentifier(header)] = (header, state, frame)
            }
        }
        for (id, header) in attachedHeaders where wanted[id] == nil { detachHeader(header) }
        var attachedNew = false
        for (id, entry) in wanted.sorted(by: { $0.value.0.flatIndex < $1.value.0.flatIndex }) {
            let (header, state, frame) = entry
            guard let node = header.node else { continue }
            if node.frame != frame { node.frame = frame }
            if attachedHeaders[id] == nil {
                if let layout = header.layout, node.layoutVersion == header.layoutVersion { NodePass.apply(layout, to: node) }
                else { remeasureOnMain(header) }
                attachItem(node, state: state)
                attachedHeaders[id] = header
                attachedNew = true
            } else if node.interfaceState != state {
                node.setInterfaceState(state)
            }
        }
        return attachedNew
    }

    /// Moves the attached headers to where the layout shows them for the current offset (a
    /// sticky header follows the top of the viewport). O(attached headers). Main thread.
    func placeAttachedHeaders() {
        guard !attachedHeaders.isEmpty else { return }
        let visible = Rect(origin: contentOffset, size: bounds.size)
        for header in attachedHeaders.values {
            guard let node = header.node, header.flatIndex < headers.count,
                  let frame = collectionLayout.displayedHeaderFrame(inSection: header.flatIndex, of: layoutResult, visible: visible),
                  node.frame != frame else { continue }
            node.frame = frame
        }
    }

    func detachHeader(_ header: CollectionItem) {
        attachedHeaders.removeValue(forKey: ObjectIdentifier(header))
        if let node = header.node { detachItem(node) }
    }

    func detach(_ item: CollectionItem) {
        attached.removeValue(forKey: ObjectIdentifier(item))
        guard let node = item.node else { return }
        detachItem(node)
        node.setContainer(nil)
    }

    func release(_ item: CollectionItem, node: CellNode) {
        if node.supernode === self { detachItem(node); node.setContainer(nil) }
        attached.removeValue(forKey: ObjectIdentifier(item))
        itemsWithNodes.removeValue(forKey: ObjectIdentifier(item))
        if item.node === node { item.node = nil; item.layout = nil }
        stats.withLock { $0.nodesReleased += 1 }
    }

    func releaseFarNodes(rects: RangeRects, directions: ScrollDirections) {
        // Cheap when nothing is held outside the attached items.
        guard nodeRetentionScreenfuls.isFinite, itemsWithNodes.count > attached.count else { return }
        // The preload range grown by the retention margin (screenfuls of the viewport).
        let v = rects.visible, m = nodeRetentionScreenfuls
        let dx = directions.contains(.horizontal) ? m * v.width : 0, dy = directions.contains(.vertical) ? m * v.height : 0
        let p = rects.preload
        let retain = Rect(x: p.minX - dx, y: p.minY - dy, width: p.width + 2 * dx, height: p.height + 2 * dy)
        var released = false
        for (id, item) in itemsWithNodes where attached[id] == nil {
            // `frames` can be shorter than `flat` between a data change and the next frame
            // recomputation (CollectionThrashTests trapped here under ASan's timing).
            guard item.flatIndex < flat.count, item.flatIndex < frames.count, flat[item.flatIndex] === item else { continue }
            if !RangeController.overlaps(frames[item.flatIndex], retain), let node = item.node, item.pendingRange == nil {
                release(item, node: node)
                released = true
            }
        }
        // What the released nodes held is free in the heap now: hand its pages back (throttled).
        if released { HeapTrimmer.noteRelease() }
    }

    /// Measures an item's node on the main thread (its layout was invalidated).
    @discardableResult
    func remeasureOnMain(_ item: CollectionItem) -> Bool {
        guard let node = item.node else { return false }
        let version = node.layoutVersion
        let layout = try? node.layoutThatFits(item.range, context: LayoutContext(direction: layoutDirection))
        let old = item.size
        item.layout = layout
        item.layoutVersion = version
        item.size = layout?.size ?? .zero
        if let layout {
            // The node's own frame follows the new size; the container places it.
            NodePass.apply(layout, to: node)
        }
        return item.size != old
    }
}
