import Synchronization
import SilkGeometry

/// A thread-safe store of one element's layouts, keyed by constrained size and the element's
/// layout version: a node keeps one, looks in it first in `calculateLayoutThatFits`, and bumps
/// its version (or calls `removeAll`) when something that affects layout changes.
/// Holds a few entries because a parent stack may measure a child at several sizes per pass.
public final class LayoutCache: Sendable {
    private struct Entry: Sendable { let range: SizeRange; let version: UInt64; let layout: Layout }
    private struct Storage: Sendable { var entries: [Entry] = []; var next = 0 }
    private let storage = Mutex(Storage())
    public let capacity: Int

    public init(capacity: Int = 4) { self.capacity = max(1, capacity) }

    /// The layout stored for this range and version, if any. For an exact range, a layout
    /// computed for a wider range that chose exactly that size also answers (a parent measures
    /// a child, then lays it out at the measured size).
    public func layout(for range: SizeRange, version: UInt64) -> Layout? {
        storage.withLock { s in
            let n = s.entries.count
            var i = 0
            while i < n {
                if s.entries[i].version == version && s.entries[i].range == range { return s.entries[i].layout }
                i += 1
            }
            guard range.isExact else { return nil }
            i = 0
            while i < n {
                if s.entries[i].version == version,
                   reusable(s.entries[i].layout, from: s.entries[i].range, for: range) {
                    return s.entries[i].layout
                }
                i += 1
            }
            return nil
        }
    }

    /// Stores a layout; entries of older versions are dropped, the oldest entry makes room.
    public func store(_ layout: Layout, for range: SizeRange, version: UInt64) {
        storage.withLock { s in
            var i = s.entries.count - 1
            while i >= 0 {
                if s.entries[i].version != version || s.entries[i].range == range { s.entries.remove(at: i) }
                i -= 1
            }
            if s.entries.count >= capacity { s.entries.remove(at: 0) }
            if s.entries.capacity == 0 { s.entries.reserveCapacity(capacity) }
            s.entries.append(Entry(range: range, version: version, layout: layout))
        }
    }

    public func removeAll() { storage.withLock { $0.entries.removeAll() } }

    public var count: Int { storage.withLock { $0.entries.count } }
}
