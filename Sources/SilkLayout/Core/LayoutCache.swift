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

    /// The layout stored for exactly this range and version, if any.
    public func layout(for range: SizeRange, version: UInt64) -> Layout? {
        storage.withLock { s in
            for e in s.entries where e.version == version && e.range == range { return e.layout }
            return nil
        }
    }

    /// Stores a layout; entries of older versions are dropped, the oldest entry makes room.
    public func store(_ layout: Layout, for range: SizeRange, version: UInt64) {
        storage.withLock { s in
            s.entries.removeAll { $0.version != version || $0.range == range }
            if s.entries.count >= capacity { s.entries.removeFirst() }
            s.entries.append(Entry(range: range, version: version, layout: layout))
        }
    }

    public func removeAll() { storage.withLock { $0.entries.removeAll() } }

    public var count: Int { storage.withLock { $0.entries.count } }
}
