
import SilkGeometry
import SilkSystem

/// The entries of a layout cache, as a plain value: a node that already guards its state with
/// a lock keeps one inside that state (one lock round-trip per lookup); `LayoutCache` wraps
/// one in its own lock.
public struct LayoutCacheEntries: Sendable {
    private struct Entry: Sendable { let range: SizeRange; let version: UInt64; let layout: Layout }
    private var entries: [Entry] = []
    /// How many layouts are kept (at least 1); storing more drops the oldest.
    public let capacity: Int

    /// An empty store keeping at most `capacity` layouts.
    public init(capacity: Int = 4) { self.capacity = max(1, capacity) }

    /// The layout stored for this range and version, if any. For an exact range, a layout
    /// computed for a wider range that chose exactly that size also answers (a parent measures
    /// a child, then lays it out at the measured size).
    public func layout(for range: SizeRange, version: UInt64) -> Layout? {
        let n = entries.count
        var i = 0
        while i < n {
            if entries[i].version == version && entries[i].range == range { return entries[i].layout }
            i += 1
        }
        guard range.isExact else { return nil }
        i = 0
        while i < n {
            if entries[i].version == version, reusable(entries[i].layout, from: entries[i].range, for: range) {
                return entries[i].layout
            }
            i += 1
        }
        return nil
    }

    /// Stores a layout; entries of older versions are dropped, the oldest entry makes room.
    public mutating func store(_ layout: Layout, for range: SizeRange, version: UInt64) {
        var i = entries.count - 1
        while i >= 0 {
            if entries[i].version != version || entries[i].range == range { entries.remove(at: i) }
            i -= 1
        }
        if entries.count >= capacity { entries.remove(at: 0) }
        if entries.capacity == 0 { entries.reserveCapacity(capacity) }
        entries.append(Entry(range: range, version: version, layout: layout))
    }

    /// Drops every stored layout.
    public mutating func removeAll() { entries.removeAll() }
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
