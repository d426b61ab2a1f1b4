import CPixman
import Foundation
import Testing
import SilkGeometry
@testable import SilkRaster

/// The wide solid blend must give pixman's bytes exactly, or turning it on would change pixels.
@Suite struct SolidBlendTests {
    /// Every source alpha against every destination byte in every channel, with 256 source
    /// colours per alpha, through the eight-pixel loop and the one-pixel tail, against pixman's
    /// own OVER of a solid fill.
    @Test(.enabled(if: SolidBlend.isAvailable, "no AVX2 on this CPU: pixman blends everything"))
    func everySourceOverEveryDestinationByteIsPixmans() throws {
        let width = 256
        let ours = try Bitmap(width: width, height: 2), reference = try Bitmap(width: width, height: 2)
        func reset(_ b: Bitmap) {
            for y in 0..<2 {
                let row = (b.data + y * b.stride).assumingMemoryBound(to: UInt32.self)
                // Each channel takes all 256 values along the row, in different orders.
                for k in 0..<width { row[k] = UInt32(k) << 24 | UInt32(255 - k) << 16 | UInt32((k * 7 + 3) & 255) << 8 | UInt32((k * 13 + 5) & 255) }
            }
        }
        var mismatches = 0
        for alpha in 0...255 {
            for c in 0...255 {
                let src = UInt32(alpha) << 24 | UInt32(c) << 16 | UInt32(255 - c) << 8 | UInt32(c ^ 0x5a)
                reset(ours); reset(reference)
                // Row 0 whole (eight at a time); row 1 in runs of 7 (the tail's one at a time).
                #expect(SolidBlend.over(src, into: ours, rect: Rect(x: 0, y: 0, width: Double(width), height: 1)))
                var x = 0
                while x < width {
                    _ = SolidBlend.over(src, into: ours, rect: Rect(x: Double(x), y: 1, width: Double(min(7, width - x)), height: 1))
                    x += 7
                }
                var color = pixman_color_t(red: UInt16(c) * 257, green: UInt16(255 - c) * 257, blue: UInt16(c ^ 0x5a) * 257,
                                           alpha: UInt16(alpha) * 257)
                let solid = try #require(pixman_image_create_solid_fill(&color))
                pixman_image_composite32(PIXMAN_OP_OVER, solid, nil, reference.image, 0, 0, 0, 0, 0, 0, Int32(width), 2)
                pixman_image_unref(solid)
                if memcmp(ours.data, reference.data, ours.stride * 2) != 0 { mismatches += 1 }
            }
        }
        #expect(mismatches == 0, "\(mismatches) of 65,536 source colours blend differently from pixman")
    }

    /// Through the canvas: translucent rounded and square fills at fractional and whole
    /// positions, clipped, into argb32 and xrgb32 bitmaps, the same with and without the kernel.
    @Test(.enabled(if: SolidBlend.isAvailable, "no AVX2 on this CPU: pixman blends everything"))
    func canvasFillsAreTheSameWithAndWithoutIt() throws {
        for format in [PixelFormat.argb32, .xrgb32] {
            let wide = Canvas(bitmap: try Bitmap(width: 173, height: 121, format: format))
            let narrow = Canvas(bitmap: try Bitmap(width: 173, height: 121, format: format))
            narrow.usesWideBlend = false
            #expect(wide.usesWideBlend)
            var rng = SplitMix64(seed: 21)
            for canvas in [wide, narrow] {
                canvas.bitmap.fill(Color(rgb: 0xf7f7f2), rect: canvas.bitmap.bounds)
                canvas.clip(to: Rect(x: 3, y: 5, width: 160, height: 110))
            }
            for _ in 0..<120 {
                let r = Rect(x: rng.unit() * 150 - 20, y: rng.unit() * 100 - 20, width: 4 + rng.unit() * 90, height: 4 + rng.unit() * 70)
                let color = Color(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: rng.unit())
                let radius = rng.unit() < 0.3 ? 0 : rng.unit() * 20
                for canvas in [wide, narrow] { canvas.fillRoundedRect(r, cornerRadius: radius, with: .color(color)) }
            }
            #expect(memcmp(wide.bitmap.data, narrow.bitmap.data, wide.bitmap.stride * wide.bitmap.height) == 0, "\(format)")
        }
    }
}
