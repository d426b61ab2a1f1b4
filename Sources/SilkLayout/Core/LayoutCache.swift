
import SilkGeometry
import SilkSystem

/// The entries of a layout cache, as a plain value: a node that already guards its state with
/// a lock keeps one inside that state (one lock round-trip per lookup); `LayoutCache` wraps
/// one in its own lock.
public struct LayoutCacheEntries: Sendable {
    /// A layout kept in parts, without its element: storing a layout costs no allocation (a
    /// detached copy cost one `Layout` per store), and a hit is given its element as it is
    /// made (`layout(for:version:attachedTo:)`), so the entry never names the element that owns
    /// the cache (see `Layout.detachedFromElement`).
    private struct Entry: Sendable {
        let range: SizeRange; let version: UInt64
        let size: Size; let position: Point; let sublayouts: [Layout]; let baselines: LayoutBaselines?
    }
    private var entries: [Entry] = []
    /// How many layouts are kept (at least 1); storing more drops the oldest.
    public let capacity: Int

    /// An empty store keeping at most `capacity` layouts.
    public init(capacity: Int = 4) { self.capacity = max(1, capacity) }

    /// The index of the entry for this range and version, if any. For an exact range, a layout
    /// computed for a wider range that chose exactly that size also answers (a parent measures
    /// a child, then lays it out at the measured size).
    private func index(for range: SizeRange, version: UInt64) -> Int? {
        let n = entries.count
        var i = 0
        while i < n {
            if entries[i].version == version && entries[i].range == range { return i }
            i += 1
        }
        guard range.isExact else { return nil }
        i = 0
        while i < n {
            if entries[i].version == version, reusable(size: entries[i].size, from: entries[i].range, for: range) {
                return i
            }
            i += 1
        }
        return nil
    }

    /// The layout stored for this range and version, if any, detached (its element is a
    /// placeholder; see `Layout.attached(to:)`). For an exact range, a layout computed for a
    /// wider range that chose exactly that size also answers.
    public func layout(for range: SizeRange, version: UInt64) -> Layout? {
        layout(for: range, version: version, attachedTo: DetachedLayoutRoot())
    }

    /// As `layout(for:version:)`, given back its element: what `attached(to:)` of the detached
    /// layout returns, made in one step.
    public func layout(for range: SizeRange, version: UInt64, attachedTo element: any LayoutElement) -> Layout? {
        guard let i = index(for: range, version: version) else { return nil }
        let e = entries[i]
        return Layout(element: element, size: e.size, position: e.position, sublayouts: e.sublayouts,
                      baselines: e.baselines)
    }

    /// Stores a layout; entries of older versions are dropped, the oldest entry makes room.
    /// Only the layout's size, position, sublayouts and baselines are kept, never its element
    /// (so a node may store its own layout without detaching it first).
    public mutating func store(_ layout: Layout, for range: SizeRange, version: UInt64) {
        var i = entries.count - 1
        while i >= 0 {
            if entries[i].version != version || entries[i].range == range { entries.remove(at: i) }
            i -= 1
        }
        if entries.count >= capacity { entries.remove(at: 0) }
        if entries.capacity == 0 { entries.reserveCapacity(capacity) }
        entries.append(Entry(range: range, version: version, size: layout.size, position: layout.position,
                             sublayouts: layout.sublayouts, baselines: layout.baselines))
    }

    /// Drops every stored layout. The storage is kept: an invalidated node is usually laid out
    /// again soon, and would allocate it again.
    public mutating func removeAll() { entries.removeAll(keepingCapacity: true) }
    /// How many layouts are stored.
    public var count: Int { entries.count }
}

/// A thread-safe store of one element's layouts, keyed by constrained size and the element's
/// layout version: a node keeps one, looks in it first in `calculateLayoutThatFits`, and bumps
/// its version (or calls `removeAll`) when something that affects layout changes.
/// Holds a few entries because a parent stack may measure a child at several sizes per pass.
public final class LayoutCache: Sendable {
    private let storage: Locked<LayoutCacheEntries>

    /// An empty cache keeping at most `capacity` layouts.
    public init(capacity: Int = 4) { storage = Locked(LayoutCacheEntries(capacity: capacity)) }

    /// The layout stored for `range` and `version`, if any (an exact range is also answered by a
    /// wider range's layout that chose that size). Any thread.
    public func layout(for range: SizeRange, version: UInt64) -> Layout? {
        storage.withLock { $0.layout(for: range, version: version) }
    }
    /// Stores `layout` for `range` and `version`; entries of older versions are dropped. Any thread.
    public func store(_ layout: Layout, for range: SizeRange, version: UInt64) {
        storage.withLock { $0.store(layout, for: range, version: version) }
    }
    /// Drops every stored layout. Any thread.
    public func removeAll() { storage.withLock { $0.removeAll() } }
    /// How many layouts are stored now.
    public var count: Int { storage.withLock { $0.count } }
}
