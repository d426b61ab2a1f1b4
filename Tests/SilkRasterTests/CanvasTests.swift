import Testing
import SilkGeometry
@testable import SilkRaster

@Suite struct BitmapTests {
    @Test func rejectsAbsurdSizes() {
        for (w, h) in [(0, 0), (-1, 10), (10, 0), (RasterLimits.maxBitmapDimension + 1, 1), (30_000, 30_000)] {
            #expect(throws: RasterError.self) { try Bitmap(width: w, height: h) }
        }
        #expect(throws: RasterError.self) { try Bitmap(size: Size(width: .nan, height: 10)) }
        #expect(throws: RasterError.self) { try Bitmap(size: Size(width: 10, height: 10), scale: .infinity) }
    }

    @Test func newBitmapIsTransparentAndFillReplaces() throws {
        let b = try Bitmap(width: 8, height: 4)
        #expect(b.argb32(x: 7, y: 3) == 0)
        b.fill(Color(red: 1, green: 0, blue: 0, alpha: 0.5), rect: Rect(x: 2, y: 0, width: 2, height: 4))
        #expect(b.argb32(x: 2, y: 1) == 0x8080_0000)
        #expect(b.argb32(x: 4, y: 1) == 0)
    }

    @Test func convertsFormatsForOutput() throws {
        let b = try Bitmap(width: 2, height: 1)
        b.fill(Color(rgb: 0xff8040))
        let rgb565 = try b.copy(format: .rgb565)
        let p = rgb565.argb32(x: 0, y: 0)
        #expect(p >> 16 & 0xff >= 0xf8 && (p >> 8 & 0xff) >= 0x7c && (p >> 8 & 0xff) <= 0x84)
        let x = try b.copy(format: .xrgb32)
        #expect(x.argb32(x: 1, y: 0) == 0xffff_8040)
    }

    @Test func wrapsExternalMemory() throws {
        let words = UnsafeMutablePointer<UInt32>.allocate(capacity: 16)
        defer { words.deallocate() }
        words.initialize(repeating: 0, count: 16)
        let b = try Bitmap(wrapping: UnsafeMutableRawPointer(words), width: 4, height: 4, stride: 16, format: .xrgb32)
        b.fill(.white, rect: Rect(x: 1, y: 1, width: 1, height: 1))
        #expect(words[5] & 0x00ff_ffff == 0x00ff_ffff)
        #expect(words[0] == 0)
        #expect(throws: RasterError.self) {
            try Bitmap(wrapping: UnsafeMutableRawPointer(words), width: 4, height: 4, stride: 6, format: .argb32)
        }
    }
}

@Suite struct CanvasTests {
    func canvas(_ w: Int = 40, _ h: Int = 40, scale: Double = 1) throws -> Canvas {
        Canvas(bitmap: try Bitmap(width: w, height: h), scale: scale)
    }

    @Test func pixelAlignedRectIsExact() throws {
        let c = try canvas()
        c.fill(Rect(x: 10, y: 10, width: 10, height: 5), with: .color(.blue))
        #expect(c.bitmap.argb32(x: 10, y: 10) == 0xff00_00ff)
        #expect(c.bitmap.argb32(x: 19, y: 14) == 0xff00_00ff)
        #expect(c.bitmap.argb32(x: 20, y: 10) == 0)
        #expect(c.bitmap.argb32(x: 10, y: 15) == 0)
    }

    @Test func fractionalEdgesAreAntiAliased() throws {
        let c = try canvas()
        c.fill(Rect(x: 10.5, y: 10, width: 10, height: 10), with: .color(.black))
        let edge = c.bitmap.argb32(x: 10, y: 15) >> 24
        #expect(edge > 100 && edge < 156, "half-covered pixel alpha \(edge)")
        #expect(c.bitmap.argb32(x: 15, y: 15) >> 24 == 255)
    }

    @Test func roundedRectCornersAreCut() throws {
        let c = try canvas()
        c.fillRoundedRect(Rect(x: 0, y: 0, width: 40, height: 40), cornerRadius: 12, with: .color(.white))
        #expect(c.bitmap.argb32(x: 0, y: 0) == 0)
        #expect(c.bitmap.argb32(x: 20, y: 20) == 0xffff_ffff)
        #expect(c.bitmap.argb32(x: 20, y: 0) == 0xffff_ffff)
        let diag = c.bitmap.argb32(x: 3, y: 3) >> 24
        #expect(diag < 255)
    }

    /// Convex shapes are rasterized as horizontal trapezoid bands: the coverage must add up to
    /// the shape's area, and drawing piece by piece under clips (as the compositor repaints
    /// damage) must give exactly the pixels of one unclipped draw.
    @Test func convexShapesAreClipIndependentAndCoverTheirArea() throws {
        let whole = try canvas(64, 64)
        let shape = Rect(x: -25.25, y: -20.875, width: 50.5, height: 41.75)
        let t = AffineTransform(translationX: 32.3, y: 31.6).rotated(by: 0.3)
        whole.concatenate(t)
        whole.fillRoundedRect(shape, cornerRadius: 9, with: .color(.black))
        var coverage = 0.0
        for y in 0..<64 { for x in 0..<64 { coverage += Double(whole.bitmap.argb32(x: x, y: y) >> 24) / 255 } }
        let area = shape.width * shape.height - (4 - Double.pi) * 81
        #expect(abs(coverage - area) < area * 0.01, "coverage \(coverage) vs area \(area)")

        let pieces = try canvas(64, 64)
        for (x, y) in [(0, 0), (23, 0), (0, 17), (23, 17), (41, 40), (0, 40), (41, 0), (23, 40), (41, 17)] {
            pieces.save()
            pieces.clip(to: Rect(x: Double(x), y: Double(y), width: x == 23 ? 18 : (x == 0 ? 23 : 23),
                                 height: y == 17 ? 23 : (y == 0 ? 17 : 24)))
            pieces.concatenate(t)
            pieces.fillRoundedRect(shape, cornerRadius: 9, with: .color(.black))
            pieces.restore()
        }
        for y in 0..<64 { for x in 0..<64 {
            #expect(pieces.bitmap.argb32(x: x, y: y) == whole.bitmap.argb32(x: x, y: y), "pixel (\(x), \(y))")
        } }
    }

    @Test func ellipseCoverageIsSymmetric() throws {
        let c = try canvas()
        c.fillEllipse(in: Rect(x: 5, y: 5, width: 30, height: 30), with: .color(.black))
        for (x, y) in [(6, 20), (20, 6), (7, 12)] {
            let a = c.bitmap.argb32(x: x, y: y) >> 24, b = c.bitmap.argb32(x: 39 - x, y: 39 - y) >> 24
            #expect(abs(Int(a) - Int(b)) <= 2, "(\(x),\(y)) \(a) vs \(b)")
        }
    }

    @Test func clipStackRestores() throws {
        let c = try canvas()
        c.save()
        c.clip(to: Rect(x: 0, y: 0, width: 20, height: 40))
        c.clip(to: Rect(x: 10, y: 0, width: 30, height: 40))
        c.fill(Rect(x: 0, y: 0, width: 40, height: 40), with: .color(.red))
        #expect(c.bitmap.argb32(x: 5, y: 5) == 0)
        #expect(c.bitmap.argb32(x: 15, y: 5) == 0xffff_0000)
        #expect(c.bitmap.argb32(x: 25, y: 5) == 0)
        c.restore()
        c.fillEllipse(in: Rect(x: 20, y: 20, width: 20, height: 20), with: .color(.green))
        #expect(c.bitmap.argb32(x: 30, y: 30) == 0xff00_ff00)
    }

    @Test func opacityMultiplies() throws {
        let c = try canvas()
        c.fill(Rect(x: 0, y: 0, width: 40, height: 40), with: .color(.black))
        c.save()
        c.multiplyOpacity(0.5)
        c.multiplyOpacity(0.5)
        c.fillRoundedRect(Rect(x: 0, y: 0, width: 40, height: 40), cornerRadius: 4, with: .color(.white))
        c.restore()
        let v = c.bitmap.argb32(x: 20, y: 20) & 0xff
        #expect(abs(Int(v) - 64) <= 2, "25 % white over black gave \(v)")
    }

    @Test func linearGradientRunsBetweenItsEnds() throws {
        let c = try canvas(101, 4)
        c.fill(Rect(x: 0, y: 0, width: 101, height: 4), with: .linearGradient(LinearGradient(
            start: Point(x: 0.5, y: 0), end: Point(x: 100.5, y: 0), stops: [GradientStop(0, .black), GradientStop(1, .white)])))
        #expect(c.bitmap.argb32(x: 0, y: 1) & 0xff <= 3)
        #expect(c.bitmap.argb32(x: 100, y: 1) & 0xff >= 252)
        #expect(abs(Int(c.bitmap.argb32(x: 50, y: 1) & 0xff) - 128) <= 3)
    }

    @Test func scaleTwoDoublesDevicePixels() throws {
        let c = try canvas(40, 40, scale: 2)
        c.fill(Rect(x: 5, y: 5, width: 5, height: 5), with: .color(.blue))
        #expect(c.bitmap.argb32(x: 10, y: 10) == 0xff00_00ff)
        #expect(c.bitmap.argb32(x: 19, y: 19) == 0xff00_00ff)
        #expect(c.bitmap.argb32(x: 20, y: 20) == 0)
    }

    @Test func absurdGeometryDrawsNothingAndDoesNotCrash() throws {
        let c = try canvas()
        c.fill(Rect(x: .nan, y: 0, width: 10, height: 10), with: .color(.red))
        c.fill(Rect(x: 0, y: 0, width: -10, height: 10), with: .color(.red))
        c.fillRoundedRect(Rect(x: 0, y: 0, width: .infinity, height: 10), cornerRadius: 3, with: .color(.red))
        c.fillEllipse(in: Rect(x: 1e12, y: -1e12, width: 1e12, height: 1e12), with: .color(.red))
        c.strokeLine(from: .zero, to: Point(x: .nan, y: 1), width: 2, with: .color(.red))
        c.stroke(Rect(x: 0, y: 0, width: 10, height: 10), lineWidth: -1, with: .color(.red))
        c.fillPolygon([.zero, Point(x: 1, y: 1)], with: .color(.red))
        var touched = false
        for y in 0..<40 { for x in 0..<40 where c.bitmap.argb32(x: x, y: y) != 0 { touched = true } }
        #expect(!touched)
    }
}

@Suite struct ContentModeTests {
    let bounds = Rect(x: 0, y: 0, width: 100, height: 50)
    let image = Size(width: 200, height: 200)

    @Test func fittingModes() {
        #expect(ContentMode.scaleToFill.destinationRect(imageSize: image, in: bounds) == bounds)
        #expect(ContentMode.aspectFit.destinationRect(imageSize: image, in: bounds) == Rect(x: 25, y: 0, width: 50, height: 50))
        #expect(ContentMode.aspectFill.destinationRect(imageSize: image, in: bounds) == Rect(x: 0, y: -25, width: 100, height: 100))
        #expect(ContentMode.aspectFill.destinationRect(imageSize: image, in: bounds, anchor: .zero) == Rect(x: 0, y: 0, width: 100, height: 100))
        #expect(ContentMode.aspectFill.destinationRect(imageSize: image, in: bounds, anchor: Point(x: 1, y: 1)) == Rect(x: 0, y: -50, width: 100, height: 100))
    }

    @Test func unscaledModes() {
        let s = Size(width: 20, height: 10)
        let expected: [ContentMode: Point] = [
            .center: Point(x: 40, y: 20), .top: Point(x: 40, y: 0), .bottom: Point(x: 40, y: 40),
            .left: Point(x: 0, y: 20), .right: Point(x: 80, y: 20), .topLeft: .zero,
            .topRight: Point(x: 80, y: 0), .bottomLeft: Point(x: 0, y: 40), .bottomRight: Point(x: 80, y: 40),
        ]
        for (mode, origin) in expected {
            #expect(mode.destinationRect(imageSize: s, in: bounds) == Rect(origin: origin, size: s), "\(mode)")
        }
    }

    /// A 2×1 image, red on the left and blue on the right, shows the part each mode keeps.
    @Test func drawingHonoursModeAnchorAndCrop() throws {
        let img = try Bitmap(width: 2, height: 1)
        img.fill(.red, rect: Rect(x: 0, y: 0, width: 1, height: 1))
        img.fill(.blue, rect: Rect(x: 1, y: 0, width: 1, height: 1))
        func draw(_ mode: ContentMode, crop: Rect = ContentMode.defaultCropRect) throws -> Bitmap {
            let c = Canvas(bitmap: try Bitmap(width: 10, height: 10))
            c.draw(img, in: Rect(x: 0, y: 0, width: 10, height: 10), contentMode: mode, cropRect: crop, filter: .nearest)
            return c.bitmap
        }
        // aspectFill anchored left keeps red; anchored right keeps blue.
        #expect(try draw(.aspectFill, crop: Rect(x: 0, y: 0.5, width: 0, height: 0)).argb32(x: 9, y: 5) == 0xffff_0000)
        #expect(try draw(.aspectFill, crop: Rect(x: 1, y: 0.5, width: 0, height: 0)).argb32(x: 0, y: 5) == 0xff00_00ff)
        // aspectFit letterboxes: the top row stays empty.
        let fit = try draw(.aspectFit)
        #expect(fit.argb32(x: 5, y: 0) == 0)
        #expect(fit.argb32(x: 2, y: 5) == 0xffff_0000 && fit.argb32(x: 7, y: 5) == 0xff00_00ff)
        // A crop rect of the right half shows only blue, stretched.
        let crop = try draw(.scaleToFill, crop: Rect(x: 0.5, y: 0, width: 0.5, height: 1))
        #expect(crop.argb32(x: 0, y: 0) == 0xff00_00ff && crop.argb32(x: 9, y: 9) == 0xff00_00ff)
        // center: the 2×1 image unscaled in the middle (rows 4.5…5.5: anti-aliased halves), nothing elsewhere.
        let center = try draw(.center)
        let top = center.argb32(x: 4, y: 4), bottom = center.argb32(x: 4, y: 5)
        #expect((0x70...0x90).contains(top >> 24) && (top >> 24) + (bottom >> 24) >= 0xfe, "\(top) \(bottom)")
        #expect(top & 0xff00ff == (top >> 24) << 16, "left half is red")
        #expect(center.argb32(x: 5, y: 5) & 0xff == center.argb32(x: 5, y: 5) >> 24, "right half is blue")
        #expect(center.argb32(x: 0, y: 0) == 0 && center.argb32(x: 3, y: 4) == 0)
    }

    @Test func highQualityDownscaleAveragesArea() throws {
        // A 64×64 checkerboard drawn into 8×8 averages to mid grey with the area filter.
        let img = try Bitmap(width: 64, height: 64)
        for y in 0..<64 { for x in 0..<64 where (x + y) % 2 == 0 { img.fill(.white, rect: Rect(x: Double(x), y: Double(y), width: 1, height: 1)) } }
        let c = Canvas(bitmap: try Bitmap(width: 8, height: 8))
        c.fill(Rect(x: 0, y: 0, width: 8, height: 8), with: .color(.black))
        c.draw(img, in: Rect(x: 0, y: 0, width: 8, height: 8), filter: .highQuality)
        let v = Int(c.bitmap.argb32(x: 4, y: 4) & 0xff)
        #expect(abs(v - 128) <= 8, "area-averaged checkerboard gave \(v)")
    }
}
