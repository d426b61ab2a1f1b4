import SilkGeometry
import Testing
@testable import SilkRaster

/// The raster limits in docs/reliability.md, each refused with a clear error before anything
/// large is allocated (or, for glyphs, skipped rather than rendered).
@Suite struct LimitsTests {
    @Test func bitmapSidesBeyondTheLimitAreRefused() {
        #expect(throws: RasterError.invalidSize(width: 32_769, height: 1, reason: "larger than 32768 pixels on a side")) {
            try Bitmap(width: RasterLimits.maxBitmapDimension + 1, height: 1)
        }
        #expect(throws: RasterError.invalidSize(width: 0, height: 10, reason: "width and height must be positive")) {
            try Bitmap(width: 0, height: 10)
        }
    }

    @Test func bitmapPixelCountBeyondTheLimitIsRefused() {
        // 32,768 × 8,193 is within the side limit but one row over 256 MPx.
        #expect(throws: RasterError.invalidSize(width: 32_768, height: 8_193, reason: "more than 268435456 pixels")) {
            try Bitmap(width: 32_768, height: 8_193)
        }
    }

    @Test func nonFiniteOrHugePointSizesAreRefused() {
        #expect(throws: RasterError.self) { try Bitmap(size: Size(width: .infinity, height: 10)) }
        #expect(throws: RasterError.self) { try Bitmap(size: Size(width: .nan, height: 10)) }
        #expect(throws: RasterError.self) { try Bitmap(size: Size(width: 100, height: 100), scale: 1e9) }
        #expect(throws: RasterError.self) { try Bitmap(size: Size(width: 100, height: 100), scale: 0) }
    }

    /// A glyph bigger than `TextLayout.maximumGlyphPixelSize` device pixels is laid out but not
    /// rendered, so a huge font size cannot allocate gigabytes of glyph images.
    @Test func glyphsOverTheSizeLimitAreNotRendered() throws {
        let text = AttributedText("M", attributes: TextAttributes(fontSize: 2000))
        let layout = TextLayout(text: text, constrainedTo: Size(width: .infinity, height: .infinity))
        #expect(layout.size.width > 1000)
        let bitmap = try Bitmap(width: 64, height: 64)
        layout.draw(into: bitmap, at: Point(x: -300, y: -1500), scale: 2)  // 4,000 device px per em
        #expect(bitmap.argb32(x: 32, y: 32) == 0)
        // The same glyph at a drawable size does cover the bitmap.
        layout.draw(into: bitmap, at: Point(x: -300, y: -1500), scale: 1)
        let covered = (0..<64).contains { y in (0..<64).contains { x in bitmap.argb32(x: x, y: y) != 0 } }
        #expect(covered)
    }
}
