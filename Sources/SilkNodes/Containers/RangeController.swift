import Foundation
import SilkGeometry

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
    case display, preload
}

/// How far a range extends beyond the visible rectangle, in screenfuls (multiples of the
/// container's length along the scrolling axis).
public struct RangeTuningParameters: Hashable, Sendable, CustomStringConvertible {
    public var leadingBufferScreenfuls: Double
    public var trailingBufferScreenfuls: Double
    public init(leading: Double, trailing: Double) {
        leadingBufferScreenfuls = max(0, leading.isFinite ? leading : 0)
        trailingBufferScreenfuls = max(0, trailing.isFinite ? trailing : 0)
    }
    public static let zero = RangeTuningParameters(leading: 0, trailing: 0)
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

    public subscript(mode: RangeMode, type: RangeType) -> RangeTuningParameters {
        get { table[mode]?[type] ?? .zero }
        set { table[mode, default: [:]][type] = newValue }
    }
}

/// The rectangles (content coordinates) a range update works with.
public struct RangeRects: Hashable, Sendable {
    public var visible: Rect
    public var display: Rect
    public var preload: Rect
}

/// Decides ranges and item interface states for a scroll container (main thread). The
/// container owns the items; this type owns the policy: the mode, the tuning, and which way is
/// leading.
public final class RangeController {
    public var tuning = RangeTuning.default
    /// Forces a mode; nil: Texture's rule (minimum for the first update and while the container
    /// is not visible, full afterwards), or `lowMemory` while `isInLowMemoryMode`.
    public var forcedMode: RangeMode?
    /// Releases display contents outside the visible range (and everything when not visible).
    public var isInLowMemoryMode = false
    /// The direction of the last scroll along each axis: +1 towards the end (down/right), −1
    /// towards the start. Leading buffers extend that way. Before any scroll: towards the end.
    public private(set) var leadingDirection = (x: 1.0, y: 1.0)
    public private(set) var currentMode: RangeMode?
    private var lastOffset: Point?

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
    private let starts: [Double]
    private let prefixMaxEnds: [Double]

    init(frames: [Rect], vertical: Bool) {
        self.vertical = vertical
        let start: (Rect) -> Double = vertical ? { $0.minY } : { $0.minX }
        let end: (Rect) -> Double = vertical ? { max($0.maxY, $0.minY + 0.5) } : { max($0.maxX, $0.minX + 0.5) }
        var sorted = true
        for i in frames.indices.dropFirst() where start(frames[i]) < start(frames[i - 1]) { sorted = false; break }
        let order: [Int]? = sorted ? nil : frames.indices.sorted { start(frames[$0]) < start(frames[$1]) }
        self.order = order
        var starts: [Double] = [], ends: [Double] = []
        starts.reserveCapacity(frames.count); ends.reserveCapacity(frames.count)
        var running = -Double.infinity
        for k in frames.indices {
            let f = frames[order?[k] ?? k]
            starts.append(start(f))
            running = max(running, end(f))
            ends.append(running)
        }
        self.starts = starts
        prefixMaxEnds = ends
    }

    /// Flat indices of the frames that overlap `rect` (any order).
    func indices(overlapping rect: Rect, frames: [Rect]) -> [Int] {
        let lo = vertical ? rect.minY : rect.minX, hi = vertical ? rect.maxY : rect.maxX
        // First position whose running end passes `lo`: everything before ends at or above it.
        var a = 0, b = prefixMaxEnds.count
        while a < b { let m = (a + b) / 2; if prefixMaxEnds[m] > lo { b = m } else { a = m + 1 } }
        let first = a
        // First position starting at or after `hi`.
        a = first; b = starts.count
        while a < b { let m = (a + b) / 2; if starts[m] >= hi { b = m } else { a = m + 1 } }
        var out: [Int] = []
        for k in first..<max(first, a) {
            let i = order?[k] ?? k
            if RangeController.overlaps(frames[i], rect) { out.append(i) }
        }
        return out
    }
}
