import Testing
import SilkGeometry
@testable import SilkRaster

/// Convex shapes composite the pixels they cover entirely without a mask and rasterize only the
/// rest: the pixels must be exactly those of rasterizing the whole shape.
@Suite struct CoveredInteriorTests {
    @Test func aRoundedRectanglesCoveredRectIsItsBandBetweenTheCorners() throws {
        let contour = Shapes.roundedRect(Rect(x: 10, y: 10, width: 100, height: 80), radius: 12, segmentsPerCorner: 8)
        let bands = try #require(ConvexTrapezoids.decompose(contour))
        #expect(ConvexTrapezoids.coveredRect(bands) == Rect(x: 10, y: 22, width: 100, height: 56))
        // Sides between pixels: the covered columns stop inside them.
        let offset = Shapes.roundedRect(Rect(x: 10.5, y: 10.25, width: 100, height: 80), radius: 12, segmentsPerCorner: 8)
        let offsetBands = try #require(ConvexTrapezoids.decompose(offset))
        let inner = try #require(ConvexTrapezoids.coveredRect(offsetBands))
        #expect(inner.minX == 11 && inner.maxX == 110 && inner.minY <= 23 && inner.maxY >= 78, "\(inner)")
    }

    /// A shape far taller than the canvas: only the drawn rows are examined, and the pixels
    /// still match a whole rasterization.
    @Test func aTallShapeLooksOnlyAtTheDrawnRows() throws {
        let tall = Shapes.roundedRect(Rect(x: 5.5, y: -3000.25, width: 80, height: 6000), radius: 16, segmentsPerCorner: 8)
        let bands = try #require(ConvexTrapezoids.decompose(tall))
        #expect(ConvexTrapezoids.coveredRect(bands, rows: 10..<50) == Rect(x: 6, y: 10, width: 79, height: 40))
        let split = Canvas(bitmap: try Bitmap(width: 100, height: 60))
        let whole = Canvas(bitmap: try Bitmap(width: 100, height: 60))
        whole.compositesCoveredInteriorUnmasked = false
        for c in [split, whole] {
            c.clip(to: Rect(x: 0, y: 7, width: 100, height: 40))
            c.fillRoundedRect(Rect(x: 5.5, y: -3000.25, width: 80, height: 6000), cornerRadius: 16, with: .color(Color(rgb: 0x4c86a8, alpha: 0.5)))
        }
        for y in 0..<60 { for x in 0..<100 { #expect(split.bitmap.argb32(x: x, y: y) == whole.bitmap.argb32(x: x, y: y)) } }
    }

    @Test func aThinSliverCoversNoWholePixel() throws {
        let sliver = [Point(x: 0.2, y: 0), Point(x: 0.8, y: 0), Point(x: 0.8, y: 50), Point(x: 0.2, y: 50)]
        let bands = try #require(ConvexTrapezoids.decompose(sliver))
        #expect(ConvexTrapezoids.coveredRect(bands) == nil)
    }

    @Test(arguments: [1 as UInt64, 2, 3, 4, 5, 6])
    func splitAndWholeRasterizationGiveTheSamePixels(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let w = 160, h = 120
        let split = Canvas(bitmap: try Bitmap(width: w, height: h))
        let whole = Canvas(bitmap: try Bitmap(width: w, height: h))
        whole.compositesCoveredInteriorUnmasked = false
        let photo = try Bitmap(width: 37, height: 29)
        let pc = Canvas(bitmap: photo)
        pc.fill(Rect(x: 0, y: 0, width: 37, height: 29), with: .linearGradient(LinearGradient(
            start: Point(x: 0, y: 0), end: Point(x: 37, y: 29),
            stops: [GradientStop(0, Color(rgb: 0x1b998b)), GradientStop(1, Color(rgb: 0xed6a5a, alpha: 0.6))])))
        for c in [split, whole] { c.fill(Rect(x: 0, y: 0, width: Double(w), height: Double(h)), with: .color(Color(rgb: 0x2d3047))) }
        for _ in 0..<40 {
            let rect = Rect(x: rng.unit() * 120 - 20, y: rng.unit() * 90 - 20,
                            width: 8 + rng.unit() * 110, height: 8 + rng.unit() * 90)
            let radius = [0.0, 3, 12, 30, 200][rng.below(5)] * (0.5 + rng.unit())
            let opacity = [1.0, 0.35, 0.8][rng.below(3)]
            let rotation = rng.below(4) == 0 ? (rng.unit() - 0.5) : 0
            let clip: Rect? = rng.below(3) == 0 ? Rect(x: Double(rng.below(w)), y: Double(rng.below(h)), width: 30 + Double(rng.below(90)), height: 20 + Double(rng.below(70))) : nil
            let kind = rng.below(4)
            let color = Color(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: 0.3 + 0.7 * rng.unit())
            for c in [split, whole] {
                c.save()
                if let clip { c.clip(to: clip) }
                c.multiplyOpacity(opacity)
                if rotation != 0 {
                    c.concatenate(AffineTransform(translationX: rect.midX, y: rect.midY).rotated(by: rotation)
                        .concatenating(AffineTransform(translationX: -rect.midX, y: -rect.midY)))
                }
                switch kind {
                case 0: c.fillRoundedRect(rect, cornerRadius: radius, with: .color(color))
                case 1: c.fillEllipse(in: rect, with: .color(color))
                case 2: c.draw(photo, in: rect, contentMode: .aspectFill, cornerRadius: max(radius, 1))
                default: c.fillRoundedRect(rect, cornerRadius: radius, with: .radialGradient(RadialGradient(
                    center: Point(x: rect.midX, y: rect.midY), radius: rect.width / 2,
                    stops: [GradientStop(0, color), GradientStop(1, .clear)])))
                }
                c.restore()
            }
        }
        var differing = 0
        for y in 0..<h { for x in 0..<w where split.bitmap.argb32(x: x, y: y) != whole.bitmap.argb32(x: x, y: y) { differing += 1 } }
        #expect(differing == 0, "\(differing) pixels differ (seed \(seed))")
    }

    /// Shapes drawn again at whole-pixel offsets and under other clips through a mask cache
    /// give exactly the pixels of rasterizing each time, and the cache is really hit.
    @Test(arguments: [7 as UInt64, 8, 9])
    func cachedMasksGiveTheSamePixels(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let w = 160, h = 120
        let cached = Canvas(bitmap: try Bitmap(width: w, height: h))
        let fresh = Canvas(bitmap: try Bitmap(width: w, height: h))
        let cache = CoverageMaskCache()
        cached.coverageMasks = cache
        let shapes = (0..<6).map { _ in (Size(width: 10 + rng.unit() * 100, height: 10 + rng.unit() * 80),
                                         Point(x: rng.unit(), y: rng.unit()), [3.0, 12, 40][rng.below(3)]) }
        for _ in 0..<120 {
            let (size, frac, radius) = shapes[rng.below(shapes.count)]
            let rect = Rect(x: Double(rng.below(140)) - 20 + frac.x, y: Double(rng.below(100)) - 20 + frac.y, width: size.width, height: size.height)
            let clip: Rect? = rng.below(2) == 0 ? Rect(x: Double(rng.below(w)), y: Double(rng.below(h)), width: 20 + Double(rng.below(90)), height: 20 + Double(rng.below(70))) : nil
            let color = Color(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: 0.35)
            let ellipse = rng.below(4) == 0
            for c in [cached, fresh] {
                c.save()
                if let clip { c.clip(to: clip) }
                if ellipse { c.fillEllipse(in: rect, with: .color(color)) } else { c.fillRoundedRect(rect, cornerRadius: radius, with: .color(color)) }
                c.restore()
            }
        }
        var differing = 0
        for y in 0..<h { for x in 0..<w where cached.bitmap.argb32(x: x, y: y) != fresh.bitmap.argb32(x: x, y: y) { differing += 1 } }
        #expect(differing == 0, "\(differing) pixels differ (seed \(seed))")
        #expect(cache.statistics.hits > 20, "\(cache.statistics)")
        #expect(cache.statistics.masksRasterized > 0)
    }
}
