import Testing
import SilkGeometry
import SilkRaster
@testable import SilkRender

/// Banded compositing (`Compositor.compositeThreads`) must give exactly the bytes one thread
/// gives: random many-layers scenes (translucent rounded squares, fractional and whole-pixel
/// moves, contents drawn scaled, rotated and 1:1, borders, opaque layers) composited frame after
/// frame by a banded compositor and by a single-threaded one, compared byte for byte.
@Suite struct BandedCompositingTests {
    @Test(arguments: [(2, 31 as UInt64), (3, 32), (4, 33), (2, 34)])
    func bandedFramesEqualSingleThreaded(threads: Int, seed: UInt64) throws {
        let width = 320, height = 240
        var rng = SplitMix64(seed: seed)
        func rand(_ r: ClosedRange<Double>) -> Double { Double.random(in: r, using: &rng) }
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        root.backgroundColor = Color(rgb: 0xf7f7f2)
        let palette = try (0..<4).map { k -> Bitmap in
            let b = try Bitmap(width: 10 + k * 7, height: 8 + k * 5)
            b.fill(Color(red: Double(k) / 4, green: 1 - Double(k) / 4, blue: 0.5, alpha: k % 2 == 0 ? 1 : 0.6))
            b.fill(.white, rect: Rect(x: 1, y: 1, width: 3, height: 2))
            return b
        }
        var layers: [Layer] = []
        for i in 0..<120 {
            let l = Layer()
            let size = rand(12...90).rounded()
            l.frame = Rect(x: rand(-20...Double(width)), y: rand(-20...Double(height)), width: size, height: size * rand(0.6...1.4))
            l.backgroundColor = Color(red: rand(0...1), green: rand(0...1), blue: rand(0...1), alpha: i % 9 == 0 ? 1 : 0.35)
            l.cornerRadius = [0, 4, 12, 12, 12].randomElement(using: &rng)!
            if i % 7 == 0 { l.contents = palette.randomElement(using: &rng); l.contentsGravity = ContentMode.allCases.randomElement(using: &rng)! }
            if i % 11 == 0 { l.borderWidth = 1.5; l.borderColor = .black }
            if i % 13 == 0 { l.transform = AffineTransform(rotationAngle: rand(-0.4...0.4)) }
            if i % 17 == 0, l.cornerRadius == 0, (l.backgroundColor?.alpha ?? 0) >= 1 { l.isOpaque = true }
            root.addSublayer(l)
            layers.append(l)
        }
        let banded = try Compositor(pixelWidth: width, pixelHeight: height)
        banded.compositeThreads = threads
        banded.bandingMinimumPixels = 0
        let single = try Compositor(pixelWidth: width, pixelHeight: height)
        single.compositeThreads = 1
        var bandedFrames = 0
        for step in 0..<40 {
            for l in layers where Int.random(in: 0..<3, using: &rng) != 0 {
                // Mostly whole-pixel moves (the mask cache's hits), some fractional.
                let whole = Bool.random(using: &rng)
                let dx = whole ? Double(Int.random(in: -9...9, using: &rng)) : rand(-5...5)
                let dy = whole ? Double(Int.random(in: -9...9, using: &rng)) : rand(-5...5)
                l.position = Point(x: l.position.x + dx, y: l.position.y + dy)
            }
            if step % 10 == 9, let l = layers.randomElement(using: &rng) { l.opacity = rand(0.2...1) }
            let snap = root.snapshot()
            let time = Double(step) / 60
            banded.composite(snap, at: time)
            single.composite(snap, at: time)
            if banded.lastStatistics.bands > 1 { bandedFrames += 1 }
            #expect(banded.lastStatistics.bands == 0 || banded.lastStatistics.damagedPixels == single.lastStatistics.damagedPixels)
            let a = banded.backBuffer, b = single.backBuffer
            #expect(a.stride == b.stride)
            let same = memcmp(a.data, b.data, a.stride * a.height) == 0
            #expect(same, "threads \(threads) seed \(seed) step \(step): banded frame differs")
            if !same { return }
        }
        #expect(bandedFrames >= 35, "only \(bandedFrames) of 40 frames were banded")
    }

    @Test func smallDamageIsNotBanded() throws {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 400, height: 300)
        root.backgroundColor = .white
        let l = Layer()
        l.frame = Rect(x: 10, y: 10, width: 40, height: 40)
        l.backgroundColor = Color(red: 1, green: 0, blue: 0, alpha: 0.5)
        root.addSublayer(l)
        let c = try Compositor(pixelWidth: 400, pixelHeight: 300)
        c.compositeThreads = 2
        c.composite(root.snapshot(), at: 0)
        #expect(c.lastStatistics.bands > 1)  // the first frame repaints everything: 120,000 px
        l.position = Point(x: l.position.x + 3, y: l.position.y)
        c.composite(root.snapshot(), at: 1.0 / 60)
        #expect(c.lastStatistics.bands == 0)  // 43 × 40 px
        c.compositeThreads = 1
        c.invalidateAll()
        c.composite(root.snapshot(), at: 2.0 / 60)
        #expect(c.lastStatistics.bands == 0)
    }

    @Test func bandsTileTheDamagedRows() {
        let rects = [Rect(x: 0, y: 0, width: 100, height: 50), Rect(x: 0, y: 200, width: 300, height: 100)]
        let bands = BandLayout.bands(for: rects, count: 4)
        #expect(bands.first?.lowerBound == 0 && bands.last?.upperBound == 300)
        for k in 1..<bands.count { #expect(bands[k - 1].upperBound == bands[k].lowerBound) }
        #expect(bands.count == 4)
        // Equal damaged area per band: 35,000 px in all, ≈ 8,750 each.
        for b in bands {
            let area = rects.reduce(0.0) { acc, r in
                let lo = max(Double(b.lowerBound), r.minY), hi = min(Double(b.upperBound), r.maxY)
                return acc + max(0, hi - lo) * r.width
            }
            #expect(abs(area - 8_750) <= 300 + 1, "band \(b): \(area) px")
        }
        #expect(BandLayout.bands(for: [Rect(x: 0, y: 0, width: 10, height: 20)], count: 4) == [0..<20])
        #expect(BandLayout.bands(for: [], count: 4).isEmpty)
    }
}

#if canImport(Glibc)
import Glibc
#endif
