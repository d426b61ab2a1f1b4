import CSilkPNG
import Foundation
import Testing
import SilkGeometry
@testable import SilkRaster

/// The PNG writer (libpng through CSilkPNG, level 3, adaptive filters): what it writes decodes
/// (libpng) to the same pixels, opaque or not; libpng's errors come back as a message.
@Suite struct PNGEncoderTests {
    /// Random premultiplied pixels (alpha 0, 255 or anything), or opaque ones, with flat runs.
    func randomBitmap(_ w: Int, _ h: Int, seed: UInt64, opaque: Bool) throws -> Bitmap {
        var rng = SplitMix64(seed: seed)
        let b = try Bitmap(width: w, height: h)
        for y in 0..<h {
            let row = (b.data + y * b.stride).assumingMemoryBound(to: UInt32.self)
            var x = 0
            while x < w {
                let r = rng.next()
                let a: UInt32 = opaque ? 255 : [0, 255, UInt32(r >> 56)][Int(r % 3)]
                func c(_ s: UInt64) -> UInt32 { a == 0 ? 0 : UInt32((r >> s) & 0xff) * a / 255 }
                let p = a << 24 | c(8) << 16 | c(16) << 8 | c(24)
                for _ in 0..<Int(1 + (r >> 40) % 9) where x < w { row[x] = p; x += 1 }  // flat runs, like UI
            }
        }
        return b
    }

    @Test(arguments: [(1, 1), (3, 2), (17, 9), (300, 200), (1200, 500)])
    func roundTripsThroughLibpng(size: (Int, Int)) throws {
        for opaque in [true, false] {
            let b = try randomBitmap(size.0, size.1, seed: UInt64(size.0 * 31 + size.1) + (opaque ? 1 : 0), opaque: opaque)
            let data = try b.pngData()
            #expect(data[25] == (b.isFullyOpaque ? 2 : 6))  // IHDR colour type: RGB or RGBA
            let decoded = try ImageDecoder.decode(data: data).bitmap
            #expect(decoded.width == b.width && decoded.height == b.height)
            var worst = 0
            for y in 0..<b.height {
                for x in 0..<b.width {
                    let p = b.pixel(x: x, y: y), q = decoded.pixel(x: x, y: y)
                    for s in [0, 8, 16, 24] as [UInt32] {
                        worst = max(worst, abs(Int((p >> s) & 0xff) - Int((q >> s) & 0xff)))
                    }
                }
            }
            // Premultiplied → straight → premultiplied loses at most a step or two at low alpha.
            #expect(worst <= (opaque ? 0 : 2), "size \(size) opaque \(opaque): channel off by \(worst)")
        }
    }

    @Test func aLargeNoisyImageRoundTripsExactly() throws {
        // Noise, opaque: compresses poorly, so libpng writes many IDAT chunks.
        var rng = SplitMix64(seed: 7)
        let b = try Bitmap(width: 800, height: 800)
        for y in 0..<800 {
            let row = (b.data + y * b.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<800 { row[x] = 0xff00_0000 | UInt32(truncatingIfNeeded: rng.next() & 0xff_ffff) }
        }
        let data = try b.pngData()
        var idats = 0, offset = 8
        while offset + 8 <= data.count {
            let length = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: data[offset + 4..<offset + 8], as: UTF8.self) == "IDAT" { idats += 1 }
            offset += 12 + length
        }
        #expect(offset == data.count && idats >= 2)
        let decoded = try ImageDecoder.decode(data: data).bitmap
        var differing = 0
        for y in 0..<800 { for x in 0..<800 where decoded.pixel(x: x, y: y) != b.pixel(x: x, y: y) { differing += 1 } }
        #expect(differing == 0)
    }

    /// libpng refuses a width over its limit (1,000,000) in png_set_IHDR and reports it by
    /// longjmp: the C function returns -1 with libpng's message and no buffer, and the process
    /// goes on.
    @Test func libpngErrorsComeBackAsAMessage() {
        let width = 1_000_001
        let pixels = UnsafeMutableRawPointer.allocate(byteCount: width * 4, alignment: 4)
        defer { pixels.deallocate() }
        pixels.initializeMemory(as: UInt32.self, repeating: 0xff00_0000, count: width)
        var png: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        var message = [CChar](repeating: 0, count: 128)
        let result = silk_png_encode_argb32(pixels, Int32(width), 1, width * 4, 3, &png, &size, &message, message.count)
        let text = String(decoding: message.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(result == -1 && png == nil && size == 0)
        #expect(text.contains("IHDR"), "message: \(text)")
        // Sizes libpng never sees are refused before it.
        #expect(silk_png_encode_argb32(pixels, 0, 1, 4, 3, &png, &size, &message, message.count) == -1)
    }
}
