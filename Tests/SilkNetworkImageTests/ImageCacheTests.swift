import Foundation
import SilkSystem
import Testing
import SilkTestSupport
@testable import SilkNetworkImage

/// The two-tier cache: LRU by bytes in memory, a bounded, private, atomic disk tier whose file
/// names cannot be steered by URLs, and a clear fallback when the disk is unusable.
@Suite struct ImageCacheTests {
    func url(_ s: String) -> URL { URL(string: "http://127.0.0.1:1/" + s)! }
    func bytes(_ n: Int, _ v: UInt8 = 7) -> Data { Data(repeating: v, count: n) }

    @Test func sha256MatchesTheFIPSVectors() {
        #expect(SHA256.hexDigest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hexDigest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hexDigest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hexDigest(String(repeating: "a", count: 1000)).count == 64)
    }

    /// The disk index keeps a file name as its 32 bytes: every key `key(for:)` makes comes back
    /// unchanged, and names that are not a key (length, case, other characters) are not indexed.
    @Test func diskKeysRoundTripAndRejectOtherNames() {
        for i in 0..<200 {
            let key = ImageCache.key(for: URL(string: "http://127.0.0.1/photo/\(i)?w=600")!)
            #expect(DiskKey(hex: key)?.hex == key)
        }
        let zeros = String(repeating: "0", count: 64)
        #expect(DiskKey(hex: zeros)?.hex == zeros)
        for bad in ["", String(zeros.dropLast()), zeros + "0", "A" + zeros.dropFirst(), "g" + zeros.dropFirst(),
                    ".tmp-1-2", "é" + zeros.dropFirst(2)] {
            #expect(DiskKey(hex: bad) == nil, "\(bad)")
        }
    }

    @Test func memoryTierEvictsLeastRecentlyUsedByBytes() {
        let cache = ImageCache(memoryLimit: 300, directory: nil)
        cache.store(bytes(100), for: url("a"))
        cache.store(bytes(100), for: url("b"))
        cache.store(bytes(100), for: url("c"))
        _ = cache.memoryData(for: url("a"))       // a is now the most recent
        cache.store(bytes(100), for: url("d"))    // evicts b
        #expect(cache.memoryData(for: url("b")) == nil)
        #expect(cache.memoryData(for: url("a")) != nil)
        #expect(cache.memoryData(for: url("c")) != nil)
        #expect(cache.memoryData(for: url("d")) != nil)
        let s = cache.statistics
        #expect(s.memoryBytes == 300 && s.memoryCount == 3 && s.memoryEvictions == 1)
        cache.store(bytes(400), for: url("big"))  // larger than the tier: not kept
        #expect(cache.memoryData(for: url("big")) == nil)
    }

    /// Small images are bounded by count, not only bytes (a long feed of small photos filled a
    /// bytes-only tier with thousands of them).
    @Test func memoryTierEvictsLeastRecentlyUsedByCount() {
        let cache = ImageCache(memoryLimit: 1 << 20, memoryCountLimit: 3, directory: nil)
        for name in ["a", "b", "c"] { cache.store(bytes(10), for: url(name)) }
        _ = cache.memoryData(for: url("a"))       // a is now the most recent
        cache.store(bytes(10), for: url("d"))     // evicts b
        #expect(cache.memoryData(for: url("b")) == nil)
        #expect(cache.memoryData(for: url("a")) != nil && cache.memoryData(for: url("c")) != nil && cache.memoryData(for: url("d")) != nil)
        #expect(cache.statistics.memoryCount == 3 && cache.statistics.memoryEvictions == 1)
        #expect(ImageCache(directory: nil).memoryCountLimit == 256)
        let none = ImageCache(memoryCountLimit: 0, directory: nil)
        none.store(bytes(10), for: url("a"))
        #expect(none.memoryData(for: url("a")) == nil)
    }

    @Test func diskTierIsPrivateAndAtomic() throws {
        let tmp = TempDirectory()
        defer { tmp.remove() }
        let dir = tmp.path + "/xdg/silk/images"
        let cache = ImageCache(directory: dir, log: { _ in })
        cache.store(bytes(1000), for: url("photo/1.jpg"))
        for level in [tmp.path + "/xdg", tmp.path + "/xdg/silk", dir] {
            var st = stat()
            #expect(stat(level, &st) == 0)
            #expect(st.st_mode & 0o777 == 0o700, "\(level)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(names == [ImageCache.key(for: url("photo/1.jpg"))])
        var st = stat()
        #expect(stat(dir + "/" + names[0], &st) == 0)
        #expect(st.st_mode & 0o777 == 0o644)
        #expect(st.st_size == 1000)
    }

    @Test func urlsCannotEscapeTheCacheDirectory() throws {
        let tmp = TempDirectory()
        defer { tmp.remove() }
        let dir = tmp.path + "/images"
        let cache = ImageCache(directory: dir, log: { _ in })
        let hostile = ["http://127.0.0.1:1/../../../../tmp/escaped", "http://127.0.0.1:1/%2e%2e/%2e%2e/x",
                       "http://127.0.0.1:1/a/..%2f..%2fb", "http://127.0.0.1:1/\u{0}/x".addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!]
        for (i, s) in hostile.enumerated() {
            let u = try #require(URL(string: s))
            cache.store(bytes(10 + i), for: u)
            let path = try #require(cache.filePath(for: u))
            #expect(path.hasPrefix(dir + "/") && !path.dropFirst(dir.count + 1).contains("/"))
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(names.count == hostile.count)
        #expect(names.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) })
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path) == ["images"])
    }

    @Test func diskTierStaysUnderItsLimitDroppingTheLeastRecentlyUsed() throws {
        let tmp = TempDirectory()
        defer { tmp.remove() }
        let cache = ImageCache(memoryLimit: 0, diskLimit: 10_000, directory: tmp.path, log: { _ in })
        for i in 0..<5 { cache.store(bytes(2000), for: url("\(i)")) }
        _ = cache.diskData(for: url("0"))            // 0 is used again: 1 is now the oldest
        cache.store(bytes(2000), for: url("5"))     // over the limit → down to ≤ 9,000
        let s = cache.statistics
        #expect(s.diskBytes <= 10_000)
        #expect(s.diskEvictions >= 1)
        #expect(cache.diskData(for: url("1")) == nil)
        #expect(cache.diskData(for: url("0")) != nil)
        #expect(cache.diskData(for: url("5")) != nil)
        let total = try FileManager.default.contentsOfDirectory(atPath: tmp.path).reduce(0) { sum, name in
            sum + ((try? FileManager.default.attributesOfItem(atPath: tmp.path + "/" + name)[.size] as? Int) ?? 0)
        }
        #expect(total == s.diskBytes)
    }

    @Test func aNewCacheFindsFilesAndRemovesLeftoverTemporaries() throws {
        let tmp = TempDirectory()
        defer { tmp.remove() }
        ImageCache(directory: tmp.path, log: { _ in }).store(bytes(123), for: url("kept"))
        _ = FileManager.default.createFile(atPath: tmp.path + "/.tmp-1-1", contents: bytes(50))
        let again = ImageCache(directory: tmp.path, log: { _ in })
        #expect(again.memoryData(for: url("kept")) == nil)
        #expect(again.diskData(for: url("kept")) == bytes(123))
        #expect(again.memoryData(for: url("kept")) == bytes(123))  // promoted
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/.tmp-1-1"))
    }

    @Test func anUnusableDiskLogsOneLineAndCarriesOnInMemory() throws {
        let tmp = TempDirectory()
        defer { tmp.remove() }
        // A regular file where a directory should be: mkdir fails with ENOTDIR even for root.
        _ = FileManager.default.createFile(atPath: tmp.path + "/file", contents: Data())
        let lines = LinesLog()
        let cache = ImageCache(directory: tmp.path + "/file/silk/images", log: { lines.add($0) })
        for i in 0..<3 { cache.store(bytes(10), for: url("\(i)")) }
        #expect(lines.all.count == 1)
        #expect(lines.all.first?.contains("continuing without a disk cache") == true)
        #expect(!cache.isDiskEnabled)
        #expect(cache.memoryData(for: url("2")) == bytes(10))
        #expect(cache.diskData(for: url("2")) == nil)
    }

    @Test func aSymlinkedCacheDirectoryIsRefused() throws {
        let tmp = TempDirectory()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path + "/elsewhere", withIntermediateDirectories: false)
        symlink(tmp.path + "/elsewhere", tmp.path + "/images")
        let lines = LinesLog()
        let cache = ImageCache(directory: tmp.path + "/images", log: { lines.add($0) })
        cache.store(bytes(10), for: url("x"))
        #expect(lines.all.count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path + "/elsewhere").isEmpty)
    }

    @Test func defaultDirectoryFollowsXDG() {
        #expect(ImageCache.defaultDirectory(configuration: SilkConfiguration(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"])) == "/x/cache/silk/images")
        #expect(ImageCache.defaultDirectory(configuration: SilkConfiguration(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/u"])) == "/home/u/.cache/silk/images")
        #expect(ImageCache.defaultDirectory(configuration: SilkConfiguration(environment: [:])) == nil)
    }

    /// A full disk (a real 64 KiB tmpfs): the write that hits ENOSPC leaves no partial file, the
    /// disk tier turns itself off with one log line, and the memory tier keeps working.
    @Test(.enabled(if: TinyDisk.isAvailable, "mounting a tmpfs needs root"))
    func fullDiskTurnsTheDiskTierOffCleanly() throws {
        let disk = try #require(TinyDisk(kilobytes: 64))
        let lines = LinesLog()
        let cache = ImageCache(directory: disk.path + "/silk/images", log: { lines.add($0) })
        cache.store(bytes(20_000, 1), for: url("fits"))
        #expect(cache.diskData(for: url("fits")) != nil)
        cache.store(bytes(200_000, 2), for: url("too-big-for-the-disk"))
        cache.store(bytes(200_000, 3), for: url("another"))
        #expect(!cache.isDiskEnabled)
        #expect(lines.all.count == 1)
        #expect(lines.all.first?.contains("No space left on device") == true, "\(lines.all)")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: disk.path + "/silk/images")) ?? []
        #expect(!files.contains { $0.hasPrefix(".tmp") }, "partial file left: \(files)")
        #expect(cache.memoryData(for: url("another")) != nil)
    }
}

final class LinesLog: @unchecked Sendable {
    private let lock = Lock()
    private var lines: [String] = []
    func add(_ s: String) { lock.lock(); lines.append(s); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}
