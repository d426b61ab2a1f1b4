import Foundation
import SilkNodes
import SilkSystem

/// Where an image's bytes came from.
public enum ImageSource: String, Sendable, Equatable {
    /// The memory tier: no I/O, only the decode.
    case memory
    /// The disk tier (`ImageCache.directory`).
    case disk
    /// Downloaded now.
    case network
}

/// The two-tier cache of downloaded image *bytes* (still encoded): a memory tier bounded by
/// bytes with least-recently-used eviction, and a disk tier under
/// `$XDG_CACHE_HOME/silk/images` (else `~/.cache/silk/images`), also bounded.
///
/// Encoded bytes, not decoded bitmaps: a photo's JPEG is typically 10–40× smaller than its
/// pixels, so the same memory holds that many more images, and nodes decode at their own pixel
/// size on a display queue anyway (scaled JPEG decode). A memory hit costs that decode, never I/O.
///
/// Disk tier, defensively:
/// - file names are the SHA-256 hex of the URL — nothing of the URL's text reaches a path, so
///   `../` or odd bytes in a URL cannot escape or collide;
/// - directories are created 0700 and must be real directories owned by this user (not
///   symlinks), files are written 0644 to a temporary name and renamed (readers never see a
///   half-written file; a crash leaves a `.tmp-` file, removed on the next start);
/// - the total size is kept under `diskLimit` by removing least-recently-used files (reads
///   touch the file's mtime, so the order survives restarts);
/// - a full disk, a read-only or unwritable cache logs **one** line and the cache carries on
///   with memory only.
///
/// Thread-safe: memory lookups are cheap and may run anywhere; disk calls block (call them off
/// the main thread — `NetworkImageLoader` uses its own queue).
public final class ImageCache: @unchecked Sendable {
    /// What the cache holds and how lookups went, since it was created.
    public struct Statistics: Sendable, Equatable, CustomStringConvertible {
        /// Lookups answered by the memory tier.
        public var memoryHits = 0
        /// Lookups answered by the disk tier.
        public var diskHits = 0
        /// Lookups neither tier could answer (the image was downloaded).
        public var misses = 0
        /// Encoded bytes in the memory tier now.
        public var memoryBytes = 0
        /// Images in the memory tier now.
        public var memoryCount = 0
        /// Images dropped from memory to stay under `memoryLimit` and `memoryCountLimit`.
        public var memoryEvictions = 0
        /// Bytes of the files in the disk tier now.
        public var diskBytes = 0
        /// Files in the disk tier now.
        public var diskCount = 0
        /// Files removed to stay under `diskLimit`.
        public var diskEvictions = 0
        /// One line: each tier's hits, contents and evictions, and the misses.
        public var description: String {
            "memory \(memoryHits) hits, \(memoryCount) images, \(memoryBytes) B (\(memoryEvictions) evicted); "
                + "disk \(diskHits) hits, \(diskCount) files, \(diskBytes) B (\(diskEvictions) evicted); \(misses) misses"
        }
    }

    /// Encoded bytes the memory tier keeps at most (default 8 MiB, about 300 feed photos of
    /// 25 KB: screens' worth, with the disk tier behind it); least recently used images go
    /// first. It was 32 MiB, which a long scroll filled to the end, the largest part of
    /// `silk bench --scene feed-10k`'s growth after its warm-up (docs/benchmark.md).
    public let memoryLimit: Int
    /// Images the memory tier keeps at most (default 256), whatever their size: the tier is
    /// for images near the screen — shown again when a released cell comes back or the user
    /// scrolls back a few screens — and a feed's cells hold two images each, so 256 is many
    /// screens' worth. Small images never reach `memoryLimit`: feed-10k's photos (≈ 1.5 KB
    /// each from the demo server) filled the 8 MiB tier with ≈ 4,000 images over the whole
    /// run, the largest part of the live heap's growth after the warm-up (docs/benchmark.md).
    public let memoryCountLimit: Int
    /// Bytes of files the disk tier keeps at most (default 128 MiB).
    public let diskLimit: Int
    /// The disk tier's directory (nil: memory only).
    public let directory: String?
    /// Images larger than this are never cached (nor downloaded: see `NetworkImageLoader`).
    public let maxEntryBytes: Int
    private let log: @Sendable (String) -> Void

    private let lock = Lock()
    private var memory = LRUList()
    private var stats = Statistics()
    private var diskState: DiskState = .unprepared
    /// Every file of the disk tier: up to `diskLimit` bytes of small images is tens of thousands
    /// of files, so an entry keeps its name as 32 bytes, not a 64-character string.
    private var diskIndex: [DiskKey: (size: Int, lastUse: Double)] = [:]
    private var tempCounter = 0

    private enum DiskState { case unprepared, ready, disabled }

    /// A two-tier cache. The disk tier is prepared (directory checked, leftovers removed) on
    /// first use, not here. Any thread.
    ///
    /// - Parameters:
    ///   - memoryLimit: encoded bytes kept in memory at most (default 8 MiB).
    ///   - memoryCountLimit: images kept in memory at most (default 256).
    ///   - diskLimit: bytes of files kept on disk at most (default 128 MiB).
    ///   - maxEntryBytes: images larger than this are not cached (default 16 MiB).
    ///   - directory: the disk tier's folder; `ImageCache.defaultDirectory()` by default, nil
    ///     for memory only.
    ///   - log: where the one-line "disk cache disabled" message goes (stderr by default).
    public init(memoryLimit: Int = 8 << 20, memoryCountLimit: Int = 256, diskLimit: Int = 128 << 20,
                maxEntryBytes: Int = 16 << 20, directory: String? = ImageCache.defaultDirectory(),
                log: @escaping @Sendable (String) -> Void = ImageCache.defaultLog) {
        self.memoryLimit = max(0, memoryLimit)
        self.memoryCountLimit = max(0, memoryCountLimit)
        self.diskLimit = max(0, diskLimit)
        self.maxEntryBytes = maxEntryBytes
        self.directory = directory
        self.log = log
    }

    /// `$XDG_CACHE_HOME/silk/images` when that variable is an absolute path (the XDG rule),
    /// else `$HOME/.cache/silk/images`; nil when neither is usable.
    public static func defaultDirectory(configuration: SilkConfiguration = .current) -> String? {
        configuration.imageCacheDirectory
    }

    /// The default `log`: the module's swift-log logger, at warning level.
    public static let defaultLog: @Sendable (String) -> Void = { line in
        logger.warning("\(line)")
    }

    /// The cache key of `url`: SHA-256 hex of its absolute string (64 characters of [0-9a-f]).
    public static func key(for url: URL) -> String { SHA256.hexDigest(url.absoluteString) }

    /// A snapshot of the counters. Any thread.
    public var statistics: Statistics { lock.withLock { stats } }
    /// Whether the disk tier is in use: a directory was given and it has not been disabled by
    /// a failure (unwritable, full, not ours). Any thread.
    public var isDiskEnabled: Bool {
        lock.withLock { if directory == nil { return false }; return diskState != .disabled }
    }

    // MARK: Memory

    /// The bytes from the memory tier (marks them recently used). Cheap; any thread.
    public func memoryData(for url: URL) -> Data? {
        let key = Self.key(for: url)
        return lock.withLock {
            guard let data = memory.get(key) else { return nil }
            stats.memoryHits += 1
            return data
        }
    }

    /// Counts a lookup that found nothing in either tier (the loader calls it).
    func recordMiss() { lock.withLock { stats.misses += 1 } }

    private func _lockedStoreInMemory(_ data: Data, key: String) {
        guard data.count <= memoryLimit, memoryCountLimit > 0 else { return }
        memory.set(key, data)
        while memory.bytes > memoryLimit || memory.count > memoryCountLimit, memory.removeLeastRecentlyUsed() {
            stats.memoryEvictions += 1
        }
        stats.memoryBytes = memory.bytes
        stats.memoryCount = memory.count
    }

    // MARK: Disk

    /// The file the disk tier uses for `url` (whether or not it exists); nil without a disk tier.
    /// Any thread.
    public func filePath(for url: URL) -> String? {
        directory.map { $0 + "/" + Self.key(for: url) }
    }

    /// Reads `url`'s bytes from disk (blocking), promoting them into memory. Marks the file used.
    /// Any thread but the main one.
    public func diskData(for url: URL) -> Data? {
        guard let directory, prepareDisk() else { return nil }
        let key = Self.key(for: url)
        let path = directory + "/" + key
        guard let diskKey = DiskKey(hex: key), lock.withLock({ diskIndex[diskKey] != nil }) else { return nil }
        guard let data = readFile(path, limit: maxEntryBytes) else {
            lock.withLock { if let e = diskIndex.removeValue(forKey: diskKey) { stats.diskBytes -= e.size; stats.diskCount -= 1 } }
            return nil
        }
        utimensat(AT_FDCWD, path, nil, 0)  // now: the LRU order survives restarts
        lock.withLock {
            diskIndex[diskKey]?.lastUse = Date().timeIntervalSince1970
            stats.diskHits += 1
            _lockedStoreInMemory(data, key: key)
        }
        return data
    }

    /// Stores `data` in memory and (blocking) on disk. Data over `maxEntryBytes` is not cached. Any
    /// thread but the main one when `toDisk`.
    public func store(_ data: Data, for url: URL, toDisk: Bool = true) {
        guard data.count <= maxEntryBytes else { return }
        let key = Self.key(for: url)
        lock.withLock { _lockedStoreInMemory(data, key: key) }
        guard toDisk, let directory, let diskKey = DiskKey(hex: key), prepareDisk() else { return }
        let temp = lock.withLock { () -> String in tempCounter += 1; return "\(directory)/.tmp-\(getpid())-\(tempCounter)" }
        if let failure = writeAtomically(data, temp: temp, final: directory + "/" + key) {
            disableDisk("cannot write to the image cache \(directory) (\(failure)); continuing without a disk cache")
            return
        }
        lock.withLock {
            if let old = diskIndex[diskKey] { stats.diskBytes -= old.size; stats.diskCount -= 1 }
            diskIndex[diskKey] = (data.count, Date().timeIntervalSince1970)
            stats.diskBytes += data.count
            stats.diskCount += 1
        }
        evictFromDisk(directory: directory)
    }

    /// Empties the memory tier (and the disk tier's files, when `includingDisk`). Any thread.
    public func removeAll(includingDisk: Bool = false) {
        let keys = lock.withLock { () -> [String] in
            memory = LRUList()
            stats.memoryBytes = 0; stats.memoryCount = 0
            guard includingDisk else { return [] }
            let k = diskIndex.keys.map(\.hex)
            diskIndex.removeAll(); stats.diskBytes = 0; stats.diskCount = 0
            return k
        }
        if let directory { for k in keys { unlink(directory + "/" + k) } }
    }

    /// Removes least-recently-used files until the tier is under 90 % of its limit (some
    /// headroom, so each new image does not remove exactly one old one).
    private func evictFromDisk(directory: String) {
        let victims = lock.withLock { () -> [String] in
            guard stats.diskBytes > diskLimit else { return [] }
            var out: [String] = []
            let target = diskLimit / 10 * 9
            for (key, entry) in diskIndex.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
                if stats.diskBytes <= target { break }
                diskIndex.removeValue(forKey: key)
                stats.diskBytes -= entry.size
                stats.diskCount -= 1
                stats.diskEvictions += 1
                out.append(key.hex)
            }
            return out
        }
        for key in victims { unlink(directory + "/" + key) }
    }

    /// Creates the directory (0700 at each level this cache creates), checks it is a real
    /// directory owned by this user, removes leftover temporary files and indexes the rest.
    private func prepareDisk() -> Bool {
        guard let directory else { return false }
        switch lock.withLock({ diskState }) {
        case .ready: return true
        case .disabled: return false
        case .unprepared: break
        }
        var path = ""
        for component in directory.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o700) != 0, errno != EEXIST {
                disableDisk("cannot create the image cache directory \(path) (\(String(cString: strerror(errno)))); continuing without a disk cache")
                return false
            }
        }
        var st = stat()
        guard lstat(directory, &st) == 0, st.st_mode & S_IFMT == S_IFDIR, st.st_uid == geteuid() else {
            disableDisk("the image cache \(directory) is not a directory owned by this user; continuing without a disk cache")
            return false
        }
        if st.st_mode & 0o077 != 0 { chmod(directory, 0o700) }
        var index: [DiskKey: (size: Int, lastUse: Double)] = [:]
        var total = 0
        if let names = try? FileManager.default.contentsOfDirectory(atPath: directory) {
            for name in names {
                let p = directory + "/" + name
                if name.hasPrefix(".tmp-") { unlink(p); continue }
                guard let key = DiskKey(hex: name) else { continue }
                var fs = stat()
                guard lstat(p, &fs) == 0, fs.st_mode & S_IFMT == S_IFREG else { continue }
                index[key] = (Int(fs.st_size), Double(fs.st_mtim.tv_sec) + Double(fs.st_mtim.tv_nsec) / 1e9)
                total += Int(fs.st_size)
            }
        }
        lock.withLock {
            if diskState == .unprepared {
                diskIndex = index
                stats.diskBytes = total
                stats.diskCount = index.count
                diskState = .ready
            }
        }
        evictFromDisk(directory: directory)
        return lock.withLock { diskState == .ready }
    }

    /// Logs `message` once and turns the disk tier off.
    private func disableDisk(_ message: String) {
        let first = lock.withLock { () -> Bool in
            let was = diskState
            diskState = .disabled
            return was != .disabled
        }
        if first { log(message) }
    }

    /// Writes `data` to `temp` (0644, exclusive create) and renames it to `final`. Returns the
    /// reason on failure (the temporary file is removed).
    private func writeAtomically(_ data: Data, temp: String, final: String) -> String? {
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        fchmod(fd, 0o644)  // whatever the umask says
        var failure: String?
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n: Int
                do throws(SystemCallError) {
                    n = try systemCall("write") { write(fd, raw.baseAddress! + offset, raw.count - offset) }
                } catch { failure = String(cString: strerror(error.errno)); return }
                offset += n
            }
        }
        if close(fd) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if failure == nil, rename(temp, final) != 0 { failure = String(cString: strerror(errno)) }
        if failure != nil { unlink(temp) }
        return failure
    }

    private func readFile(_ path: String, limit: Int) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_size <= limit else { return nil }
        var data = Data(count: Int(st.st_size))
        let ok = data.withUnsafeMutableBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                guard let n = try? systemCall("read", { read(fd, raw.baseAddress! + offset, raw.count - offset) }), n > 0 else {
                    return false
                }
                offset += n
            }
            return true
        }
        return ok ? data : nil
    }
}

/// A least-recently-used map from key to bytes: a dictionary into a doubly linked list of
/// entries (most recent at the head), so get, set and evict are O(1).
struct LRUList {
    private final class Entry {
        let key: String
        var data: Data
        weak var prev: Entry?  // weak: no retain cycles along the list
        var next: Entry?
        init(key: String, data: Data) { self.key = key; self.data = data }
    }
    private var entries: [String: Entry] = [:]
    private var head: Entry?
    private var tail: Entry?
    private(set) var bytes = 0
    var count: Int { entries.count }

    mutating func get(_ key: String) -> Data? {
        guard let e = entries[key] else { return nil }
        moveToFront(e)
        return e.data
    }

    mutating func set(_ key: String, _ data: Data) {
        if let e = entries[key] {
            bytes += data.count - e.data.count
            e.data = data
            moveToFront(e)
            return
        }
        let e = Entry(key: key, data: data)
        entries[key] = e
        bytes += data.count
        e.next = head
        head?.prev = e
        head = e
        if tail == nil { tail = e }
    }

    /// Removes the least recently used entry; false when empty.
    mutating func removeLeastRecentlyUsed() -> Bool {
        guard let t = tail else { return false }
        unlink(t)
        entries.removeValue(forKey: t.key)
        bytes -= t.data.count
        return true
    }

    private mutating func unlink(_ e: Entry) {
        if let p = e.prev { p.next = e.next } else { head = e.next }
        if let n = e.next { n.prev = e.prev } else { tail = e.prev }
        e.prev = nil; e.next = nil
    }

    private mutating func moveToFront(_ e: Entry) {
        guard head !== e else { return }
        unlink(e)
        e.next = head
        head?.prev = e
        head = e
        if tail == nil { tail = e }
    }
}

/// A disk-tier file name — the 64 lowercase hex digits of a SHA-256 — as its 32 bytes.
struct DiskKey: Hashable, Sendable {
    private let a: UInt64, b: UInt64, c: UInt64, d: UInt64

    /// Nil unless `hex` is exactly 64 characters of [0-9a-f] (what `ImageCache.key(for:)` makes;
    /// any other name in the directory is not the cache's).
    init?(hex: String) {
        let utf8 = hex.utf8
        guard utf8.count == 64 else { return nil }
        /// The 16 hex digits starting at `start`, nil at any other character.
        func word(_ start: Int) -> UInt64? {
            var w: UInt64 = 0
            for byte in utf8.dropFirst(start).prefix(16) {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): w = w << 4 | UInt64(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): w = w << 4 | UInt64(byte - UInt8(ascii: "a") + 10)
                default: return nil
                }
            }
            return w
        }
        guard let a = word(0), let b = word(16), let c = word(32), let d = word(48) else { return nil }
        (self.a, self.b, self.c, self.d) = (a, b, c, d)
    }

    /// The file name again.
    var hex: String {
        [a, b, c, d].map { w in
            let s = String(w, radix: 16)
            return String(repeating: "0", count: 16 - s.count) + s
        }.joined()
    }
}
