import Foundation
import Glibc
import SilkSystem

/// A thread-safe, byte-bounded cache of immutable bitmaps (least recently used out first):
/// the decoded images and the modified (blurred, tinted) images that `ImageNode` would
/// otherwise recompute every time a cell enters the display range.
///
/// Entries are keyed by their source (a file path with its identity — device, inode, size and
/// modification time — so an edited file is decoded again), the pixel size asked for and a
/// variant string naming anything else the pixels depend on (content mode, crop, the
/// modification's identifier). A cached bitmap is never drawn into again: `bitmap(for:)` hands
/// out a fresh view (its own pixman image over the same pixels), so concurrent display jobs
/// can each set their own transform and filter on it.
///
/// Memory: at most `byteBudget` bytes of pixels are kept (a bitmap larger than a quarter of
/// the budget is not kept at all); `removeAll()` empties it, and while `isSuspended` nothing is
/// kept (low-memory mode: `RangeController.isInLowMemoryMode` suspends the node caches).
/// Any thread.
public final class BitmapCache: @unchecked Sendable {
    /// What a cached bitmap was made from.
    public struct Key: Hashable, Sendable {
        /// The source (a file path).
        public var source: String
        /// The source file's identity when it was read (nil for sources without one).
        public var stamp: FileStamp?
        /// The pixel width asked for (the decode's target size or the node's device pixels).
        public var width: Int
        /// The pixel height asked for.
        public var height: Int
        /// Everything else the pixels depend on (content mode, crop, modification identifier).
        public var variant: String

        /// A key; `variant` is empty for a plain decode.
        public init(source: String, stamp: FileStamp?, width: Int, height: Int, variant: String = "") {
            self.source = source; self.stamp = stamp; self.width = width; self.height = height; self.variant = variant
        }
    }

    /// A file's identity: a cached image of a file that changed since is not served.
    public struct FileStamp: Hashable, Sendable {
        /// `st_dev`.
        public var device: UInt64
        /// `st_ino`.
        public var inode: UInt64
        /// `st_size`, bytes.
        public var size: Int64
        /// `st_mtim.tv_sec`.
        public var modifiedSeconds: Int64
        /// `st_mtim.tv_nsec`.
        public var modifiedNanoseconds: Int64

        /// The identity of the file at `path` now (`stat`), nil when it cannot be read.
        public init?(path: String) {
            var st = stat()
            guard stat(path, &st) == 0 else { return nil }
            device = UInt64(st.st_dev); inode = UInt64(st.st_ino); size = Int64(st.st_size)
            modifiedSeconds = Int64(st.st_mtim.tv_sec); modifiedNanoseconds = Int64(st.st_mtim.tv_nsec)
        }
    }

    private struct Entry {
        let bitmap: Bitmap
        let bytes: Int
        var lastUse: UInt64
    }

    /// The most bytes of pixels kept. Any thread; lowering it evicts at once.
    public var byteBudget: Int {
        get { lock.withLock { _byteBudget } }
        set { lock.withLock { _byteBudget = max(0, newValue); _evictLocked() } }
    }
    /// While true nothing is kept (and setting it empties the cache). Any thread.
    public var isSuspended: Bool {
        get { lock.withLock { _suspended } }
        set { lock.withLock { _suspended = newValue; if newValue { _removeAllLocked() } } }
    }

    private let lock = Lock()
    private var _byteBudget: Int
    private var _suspended = false
    private var entries: [Key: Entry] = [:]
    private var bytes = 0
    private var clock: UInt64 = 0
    private var hits = 0, misses = 0, evictions = 0

    /// An empty cache that keeps at most `byteBudget` bytes of pixels.
    public init(byteBudget: Int) { _byteBudget = max(0, byteBudget) }

    /// A view of the cached bitmap for `key` (its own pixman image over the cached pixels), or
    /// nil (counted as a miss).
    public func bitmap(for key: Key) -> Bitmap? {
        let hit: Bitmap? = lock.withLock {
            guard var e = entries[key] else { misses += 1; return nil }
            clock &+= 1; e.lastUse = clock; entries[key] = e
            hits += 1
            return e.bitmap
        }
        guard let hit else { return nil }
        return try? Bitmap(wrapping: hit.data, width: hit.width, height: hit.height, stride: hit.stride,
                           format: hit.format, owner: hit)
    }

    /// Keeps `bitmap` for `key`, evicting the least recently used entries over the budget. The
    /// caller must not draw into `bitmap` afterwards. Not kept while suspended, or when larger
    /// than a quarter of the budget.
    public func insert(_ bitmap: Bitmap, for key: Key) {
        let size = bitmap.byteCount
        lock.withLock {
            guard !_suspended, size <= _byteBudget / 4 else { return }
            clock &+= 1
            if let old = entries.updateValue(Entry(bitmap: bitmap, bytes: size, lastUse: clock), forKey: key) {
                bytes -= old.bytes
            }
            bytes += size
            _evictLocked()
        }
    }

    /// Whether `insert` would keep a `width` × `height` ARGB32 bitmap now (not suspended, at most
    /// a quarter of the budget): a caller that keeps either a source or its result keeps the
    /// source only when the result will not be. Any thread.
    public func accepts(width: Int, height: Int) -> Bool {
        guard width > 0, height > 0 else { return false }
        let (pixels, o1) = width.multipliedReportingOverflow(by: height)
        let (size, o2) = pixels.multipliedReportingOverflow(by: 4)
        guard !o1, !o2 else { return false }
        return lock.withLock { !_suspended && size <= _byteBudget / 4 }
    }

    /// Drops every bitmap (memory warnings, cold measurements); counters restart.
    public func removeAll() { lock.withLock { _removeAllLocked() } }

    /// How many entries were made from `source` (any size or variant); counts as no use.
    public func entries(source: String) -> Int {
        lock.withLock { entries.keys.reduce(0) { $0 + ($1.source == source ? 1 : 0) } }
    }

    /// Hits, misses and evictions since creation or `removeAll()`, entries and bytes kept now.
    public var statistics: (hits: Int, misses: Int, evictions: Int, entries: Int, bytes: Int) {
        lock.withLock { (hits, misses, evictions, entries.count, bytes) }
    }

    private func _removeAllLocked() {
        entries = [:]; bytes = 0; hits = 0; misses = 0; evictions = 0
    }

    private func _evictLocked() {
        while bytes > _byteBudget, let victim = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            bytes -= victim.value.bytes
            entries[victim.key] = nil
            evictions += 1
        }
    }
}
