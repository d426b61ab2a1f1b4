import Foundation
import Testing
import SilkGeometry
@testable import SilkRaster

@Suite struct BitmapCacheTests {
    func bitmap(_ w: Int, _ h: Int, _ color: Color) throws -> Bitmap {
        let b = try Bitmap(width: w, height: h)
        b.fill(color)
        return b
    }
    func key(_ i: Int) -> BitmapCache.Key { BitmapCache.Key(source: "s\(i)", stamp: nil, width: 100, height: 100) }

    @Test func keepsAtMostItsBudgetLeastRecentlyUsedOutFirst() throws {
        let cache = BitmapCache(byteBudget: 1 << 20)
        let one = try bitmap(100, 100, .white)  // 40,000 bytes (stride 400)
        for i in 0..<40 {
            cache.insert(try bitmap(100, 100, .white), for: key(i))
            _ = cache.bitmap(for: key(0))  // key 0 stays the most recently used
            #expect(cache.statistics.bytes <= 1 << 20)
        }
        #expect(cache.statistics.entries == (1 << 20) / one.byteCount)
        #expect(cache.statistics.evictions == 40 - (1 << 20) / one.byteCount)
        #expect(cache.bitmap(for: key(0)) != nil)
        #expect(cache.bitmap(for: key(1)) == nil)
        #expect(cache.bitmap(for: key(39)) != nil)
        // Larger than a quarter of the budget: not kept.
        cache.insert(try bitmap(300, 300, .white), for: key(100))
        #expect(cache.bitmap(for: key(100)) == nil)
        // Lowering the budget evicts at once; suspending empties and refuses.
        cache.byteBudget = 100_000
        #expect(cache.statistics.bytes <= 100_000)
        cache.isSuspended = true
        #expect(cache.statistics.entries == 0)
        cache.insert(try bitmap(10, 10, .white), for: key(1))
        #expect(cache.bitmap(for: key(1)) == nil)
        cache.isSuspended = false
        cache.insert(try bitmap(10, 10, .white), for: key(1))
        #expect(cache.bitmap(for: key(1)) != nil)
    }

    @Test func hitsAreViewsOfTheSamePixels() throws {
        let cache = BitmapCache(byteBudget: 1 << 20)
        let b = try bitmap(7, 5, Color(red: 0.2, green: 0.4, blue: 0.6))
        cache.insert(b, for: key(1))
        let v1 = try #require(cache.bitmap(for: key(1))), v2 = try #require(cache.bitmap(for: key(1)))
        #expect(v1.data == b.data && v2.data == b.data)
        #expect(v1.image != b.image && v1.image != v2.image)  // each its own pixman image
        #expect(v1.pixel(x: 3, y: 2) == b.pixel(x: 3, y: 2))
        #expect(cache.statistics.hits == 2)
    }

    @Test func fileStampChangesWithTheFile() throws {
        let path = NSTemporaryDirectory() + "bitmap-cache-stamp-\(getpid())"
        defer { unlink(path) }
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        let a = try #require(BitmapCache.FileStamp(path: path))
        try Data([1, 2, 3, 4]).write(to: URL(fileURLWithPath: path))
        let b = try #require(BitmapCache.FileStamp(path: path))
        #expect(a != b)
        #expect(BitmapCache.FileStamp(path: path + ".missing") == nil)
    }
}

/// Many display queues reading and filling one cache (run under ThreadSanitizer by make test-tsan).
@Suite struct BitmapCacheConcurrencyTests {
    @Test func concurrentLookupsAndInsertsStayConsistent() throws {
        let cache = BitmapCache(byteBudget: 200_000)
        let sources = try (0..<16).map { i -> Bitmap in
            let b = try Bitmap(width: 50, height: 50); b.fill(Color(white: Double(i) / 16)); return b
        }
        DispatchQueue.concurrentPerform(iterations: 8) { t in
            for n in 0..<500 {
                let i = (n * 7 + t) % 16
                let k = BitmapCache.Key(source: "s\(i)", stamp: nil, width: 50, height: 50)
                if let hit = cache.bitmap(for: k) {
                    precondition(hit.pixel(x: 10, y: 10) == sources[i].pixel(x: 10, y: 10))
                    // Drawing from a view sets its own transform and filter: no shared pixman state.
                    let dst = try! Bitmap(width: 20, height: 20)
                    Canvas(bitmap: dst).draw(hit, in: dst.bounds, contentMode: .aspectFill, filter: .highQuality)
                } else {
                    cache.insert(sources[i], for: k)
                }
                if n % 100 == 99 && t == 0 { cache.removeAll() }
            }
        }
        #expect(cache.statistics.bytes <= 200_000)
    }
}
