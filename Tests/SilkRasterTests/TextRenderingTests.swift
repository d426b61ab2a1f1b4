import Foundation
import SilkGeometry
import SilkScenes
import SilkSystem
import Testing
@testable import SilkRaster

// Drawing: ink where expected, clipping, opacity, the glyph cache, concurrency, and the
// `silk snapshot text` scene entry points.

private func inkBounds(_ b: Bitmap) -> Rect {
    var r = Rect.null
    for y in 0..<b.height {
        for x in 0..<b.width where b.argb32(x: x, y: y) >> 24 != 0 {
            r = r.union(Rect(x: Double(x), y: Double(y), width: 1, height: 1))
        }
    }
    return r
}

private func pixels(_ b: Bitmap) -> [UInt32] {
    var out: [UInt32] = []
    out.reserveCapacity(b.width * b.height)
    for y in 0..<b.height { for x in 0..<b.width { out.append(b.argb32(x: x, y: y)) } }
    return out
}

private let paragraph = AttributedText(
    "Silk lays out text on display queues: shaping with HarfBuzz, fallback through fontconfig (中文, العربية, עברית), and glyphs from a cache shared by every thread.",
    attributes: TextAttributes(fontSize: 15))

@Suite("Text rendering")
struct TextRenderingTests {
    @Test func drawsInkInsideTheLayoutBox() throws {
        let l = TextLayout(text: paragraph, constrainedTo: Size(width: 200, height: .infinity))
        let b = try Bitmap(width: 240, height: Int(l.size.height) + 20)
        l.draw(into: b, at: Point(x: 10, y: 5))
        let ink = inkBounds(b)
        #expect(!ink.isEmpty)
        #expect(ink.minX >= 8 && ink.maxX <= 212)
        #expect(ink.minY >= 4 && ink.maxY <= 5 + l.size.height + 2)
    }

    @Test(arguments: [PixelFormat.argb32, .xrgb32, .rgb565, .a8])
    func drawsIntoEveryPixelFormat(format: PixelFormat) throws {
        let l = TextLayout(text: AttributedText("Format", attributes: TextAttributes(fontSize: 20, color: .white)),
                           constrainedTo: Size(width: .infinity, height: .infinity))
        let b = try Bitmap(width: 100, height: 40, format: format)
        l.draw(into: b, at: Point(x: 4, y: 4))
        var changed = 0
        for y in 0..<b.height { for x in 0..<b.width where b.argb32(x: x, y: y) & 0x00ff_ffff != 0 || (format == .a8 && b.pixel(x: x, y: y) != 0) { changed += 1 } }
        #expect(changed > 50)
    }

    @Test func scaleTwoDoublesTheInk() throws {
        let t = AttributedText("Sharp", attributes: TextAttributes(fontSize: 20))
        let l = TextLayout(text: t, constrainedTo: Size(width: .infinity, height: .infinity))
        let b1 = try Bitmap(size: l.size, scale: 1), b2 = try Bitmap(size: l.size, scale: 2)
        l.draw(into: b1, scale: 1)
        l.draw(into: b2, scale: 2)
        let i1 = inkBounds(b1), i2 = inkBounds(b2)
        #expect(abs(i2.width - 2 * i1.width) <= 3)
        #expect(abs(i2.height - 2 * i1.height) <= 3)
    }

    @Test func clipAndOpacity() throws {
        let l = TextLayout(text: paragraph, constrainedTo: Size(width: 200, height: .infinity))
        let b = try Bitmap(width: 220, height: Int(l.size.height) + 10)
        l.draw(into: b, clip: Rect(x: 0, y: 0, width: 50, height: 20))
        let ink = inkBounds(b)
        #expect(!ink.isEmpty && ink.maxX <= 50 && ink.maxY <= 20)
        let none = try Bitmap(width: 220, height: 40)
        l.draw(into: none, opacity: 0)
        #expect(inkBounds(none).isEmpty)
        // One glyph, so no overlapping coverage adds up: full coverage becomes alpha ≈ 128.
        let bar = TextLayout(text: AttributedText("l", attributes: TextAttributes(fontSize: 40)),
                             constrainedTo: Size(width: .infinity, height: .infinity))
        let half = try Bitmap(width: 40, height: 60)
        bar.draw(into: half, opacity: 0.5)
        let maxAlpha = pixels(half).map { $0 >> 24 }.max() ?? 0
        #expect(maxAlpha > 100 && maxAlpha <= 129)
    }

    @Test func decorationsAndBackground() throws {
        var a = TextAttributes(fontSize: 20)
        a.backgroundColor = Color(rgb: 0xFFE066)
        a.underline = .dotted
        a.strikethrough = true
        let l = TextLayout(text: AttributedText("marked", attributes: a), constrainedTo: Size(width: .infinity, height: .infinity))
        let b = try Bitmap(size: l.size)
        l.draw(into: b)
        // The background covers the whole line box, so a corner pixel is yellow.
        #expect(b.argb32(x: 1, y: 1) == Color(rgb: 0xFFE066).premultipliedARGB32)
    }

    @Test func colorOverrideDrawsOneColourWithoutBackgrounds() throws {
        var a = TextAttributes(fontSize: 20, color: .blue, underline: .single, backgroundColor: .green)
        var t = AttributedText("Shadow 😀 ", attributes: a)
        a.color = .black
        t.append(AttributedText("text", attributes: a))
        let l = TextLayout(text: t, constrainedTo: Size(width: .infinity, height: .infinity), maximumLines: 1)
        let b = try Bitmap(width: Int(l.size.width) + 8, height: Int(l.size.height) + 8)
        l.draw(into: b, at: Point(x: 4, y: 4), colorOverride: .red)
        var ink = 0, other = 0
        for y in 0..<b.height {
            for x in 0..<b.width {
                let p = b.argb32(x: x, y: y)
                guard p >> 24 != 0 else { continue }
                ink += 1
                if p & 0xffff != 0 { other += 1 }  // any green or blue: not the override colour
            }
        }
        #expect(ink > 100)
        #expect(other == 0)
    }

    @Test func glyphCacheHitsOnSecondDraw() throws {
        let cache = GlyphCache(byteBudget: 1 << 20)
        let l = TextLayout(text: paragraph, constrainedTo: Size(width: 300, height: .infinity))
        let b = try Bitmap(width: 320, height: Int(l.size.height) + 4)
        l.draw(into: b, glyphCache: cache)
        let cold = cache.statistics
        #expect(cold.misses > 20)
        let first = pixels(b)
        b.fill(.clear)
        l.draw(into: b, glyphCache: cache)
        let warm = cache.statistics
        #expect(warm.misses == cold.misses)
        #expect(warm.hits > cold.hits)
        #expect(pixels(b) == first)
        cache.removeAll()
        #expect(cache.statistics.misses == 0)
    }

    @Test func glyphCacheEmptiedKeepingCapacityIsColdAgain() throws {
        // The idle pixman caches are emptied key by key rather than destroyed: the next draw
        // must miss every glyph again (none served from a kept pixman cache) and draw the
        // same pixels.
        let cache = GlyphCache(byteBudget: 1 << 20)
        let l = TextLayout(text: paragraph, constrainedTo: Size(width: 300, height: .infinity))
        let b = try Bitmap(width: 320, height: Int(l.size.height) + 4)
        l.draw(into: b, glyphCache: cache)
        let cold = cache.statistics
        let first = pixels(b)
        for _ in 0..<3 {
            cache.removeAll(keepingCapacity: true)
            b.fill(.clear)
            l.draw(into: b, glyphCache: cache)
            let again = cache.statistics
            #expect(again.misses == cold.misses)
            #expect(again.hits == cold.hits)
            #expect(pixels(b) == first)
        }
        b.fill(.clear)
        l.draw(into: b, glyphCache: cache)
        #expect(cache.statistics.misses == cold.misses)  // warm again
        #expect(pixels(b) == first)
    }

    @Test func batchedAndPerGlyphPathsDrawTheSamePixels() throws {
        // Far from the edges a line goes through pixman_composite_glyphs_no_mask; near them each
        // glyph is composited and clipped on its own. Both must give the same pixels.
        let l = TextLayout(text: AttributedText("Hello, Wörld — 123", attributes: TextAttributes(fontSize: 18)),
                           constrainedTo: Size(width: .infinity, height: .infinity))
        let w = Int(l.size.width.rounded(.up)) + 4, h = Int(l.size.height.rounded(.up)) + 4
        let big = try Bitmap(width: w + 200, height: h + 200)
        l.draw(into: big, at: Point(x: 100, y: 100))
        let tight = try Bitmap(width: w, height: h)
        l.draw(into: tight, at: Point(x: 2, y: 2))
        var same = true
        for y in 0..<h { for x in 0..<w where tight.argb32(x: x, y: y) != big.argb32(x: x + 98, y: y + 98) { same = false } }
        #expect(same)
        #expect(!inkBounds(tight).isEmpty)
    }

    @Test func glyphCacheStaysWithinBudget() throws {
        let cache = GlyphCache(byteBudget: 1 << 16)
        for size in stride(from: 10.0, through: 60, by: 5) {
            let l = TextLayout(text: AttributedText(paragraph.string, attributes: TextAttributes(fontSize: size)),
                               constrainedTo: Size(width: 600, height: .infinity))
            let b = try Bitmap(width: 620, height: Int(l.size.height) + 4)
            l.draw(into: b, glyphCache: cache)
        }
        #expect(cache.statistics.bytes <= cache.byteBudget)
    }

    @Test func concurrentLayoutAndDrawingMatch() throws {
        let reference: [UInt32] = try {
            let l = TextLayout(text: paragraph, constrainedTo: Size(width: 220, height: .infinity))
            let b = try Bitmap(width: 240, height: 160)
            l.draw(into: b, at: Point(x: 4, y: 4), scale: 1)
            return pixels(b)
        }()
        // Eight threads at once; half lay out their own copy, half draw one measured elsewhere.
        let shared = TextLayout(text: paragraph, constrainedTo: Size(width: 220, height: .infinity))
        let results = ResultBox(count: 8)
        let group = DispatchGroup()
        GlyphCache.shared.removeAll()  // so the threads also race on cache misses
        for i in 0..<8 {
            group.enter()
            let thread = Thread {
                let l = i % 2 == 0 ? TextLayout(text: paragraph, constrainedTo: Size(width: 220, height: .infinity)) : shared
                if let b = try? Bitmap(width: 240, height: 160) {
                    l.draw(into: b, at: Point(x: 4, y: 4), scale: 1)
                    results.set(i, pixels(b))
                }
                group.leave()
            }
            thread.start()
        }
        group.wait()
        for i in 0..<8 { #expect(results.get(i) == reference, "thread result \(i) differs") }
    }

    @Test func sceneRenders() throws {
        let bitmap = try TextScene.render(size: Size(width: 560, height: 1000), scale: 1)
        if let out = ProcessInfo.processInfo.environment["SILK_TEXT_PNG"] { try bitmap.writePNG(to: out) }
        let ink = pixels(bitmap).filter { $0 & 0xff < 0x80 }.count
        #expect(ink > 5000)
    }

    @Test func textFileScene() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("silk-text-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // Arbitrary bytes, including invalid UTF-8 and NULs.
        var bytes = Array("Hello\n".utf8)
        var seed: UInt32 = 12345
        for _ in 0..<4000 {
            seed = seed &* 1_103_515_245 &+ 12345
            bytes.append(UInt8(truncatingIfNeeded: seed >> 16))
        }
        let garbage = dir.appendingPathComponent("garbage.bin")
        try Data(bytes).write(to: garbage)
        let b = try TextScene.renderFile(path: garbage.path, size: Size(width: 400, height: 300), scale: 1)
        #expect(b.width == 400)
        // Larger than the limit: drawn from the first MiB.
        let huge = dir.appendingPathComponent("huge.txt")
        try Data(String(repeating: "lorem ipsum dolor sit amet ", count: 50_000).utf8).write(to: huge)
        _ = try TextScene.renderFile(path: huge.path, size: Size(width: 300, height: 200), scale: 1)
        #expect(throws: RasterError.self) {
            try TextScene.renderFile(path: dir.appendingPathComponent("missing.txt").path, size: Size(width: 100, height: 100), scale: 1)
        }
        #expect(throws: RasterError.self) {
            try TextScene.renderFile(path: dir.path, size: Size(width: 100, height: 100), scale: 1)
        }
    }
}

/// Per-index results written from concurrent iterations.
private final class ResultBox: @unchecked Sendable {
    private let lock = Lock()
    private var values: [[UInt32]?]
    init(count: Int) { values = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ v: [UInt32]) { lock.lock(); values[i] = v; lock.unlock() }
    func get(_ i: Int) -> [UInt32]? { lock.lock(); defer { lock.unlock() }; return values[i] }
}
