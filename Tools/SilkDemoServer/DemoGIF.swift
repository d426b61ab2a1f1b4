import Foundation

/// A small animated GIF for the demo server's `/animated/ID.gif` route (signage banners, the
/// animated-image tests): a bar sweeping across a tinted background, one frame per step. Written
/// with 9-bit LZW codes and a clear code every 250 pixels — valid GIF, no compression to speak of,
/// deterministic, no library needed.
public enum DemoGIF {
    /// The GIF for `id` (its tint): `frames` frames of `delayCentiseconds` each, looping `loop` times
    /// (0: for ever).
    public static func make(id: Int, width: Int, height: Int, frames: Int, delayCentiseconds: Int, loop: Int) -> Data {
        let palette: [UInt32] = [0x1B2A41, 0xF2C14E, 0xF78154, 0x4D9078, 0xB4436C, 0x5FAD56, 0xFFFFFF, 0x000000]
        var d = Array("GIF89a".utf8) + le16(width) + le16(height) + [0xF7, 0, 0]
        for i in 0..<256 {
            let c = i < palette.count ? palette[i] : 0
            d += [UInt8((c >> 16) & 0xFF), UInt8((c >> 8) & 0xFF), UInt8(c & 0xFF)]
        }
        d += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [3, 1] + le16(loop) + [0]
        let bar = UInt8(1 + id % 5)
        for f in 0..<frames {
            d += [0x21, 0xF9, 4, 1 << 2] + le16(delayCentiseconds) + [0, 0]
            // Three statements: Swift 6.0 (Debian trixie) gives up type-checking the one-line sum.
            d.append(0x2C); d += le16(0) + le16(0) + le16(width) + le16(height); d.append(0)
            let x0 = width * f / max(1, frames), barWidth = max(1, width / 6)
            var pixels = [UInt8](repeating: 0, count: width * height)
            for y in 0..<height {
                for x in 0..<width where (x - x0 + width) % width < barWidth { pixels[y * width + x] = bar }
            }
            d += lzw(pixels)
        }
        return Data(d + [0x3B])
    }

    /// `v` as two little-endian bytes (GIF's 16-bit fields).
    public static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }

    /// Palette indices as a GIF image-data block: LZW minimum code size 8, 9-bit codes with a
    /// clear code every 250 pixels (valid, uncompressed-size output), sub-blocks, terminator.
    /// Also the tests' `GIFWriter` encoder.
    public static func lzw(_ indices: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [], acc: UInt32 = 0, bits = 0
        out.reserveCapacity(indices.count * 9 / 8 + 16)
        func emit(_ code: UInt32) {
            acc |= code << UInt32(bits); bits += 9
            while bits >= 8 { out.append(UInt8(acc & 0xFF)); acc >>= 8; bits -= 8 }
        }
        emit(256)
        for (i, v) in indices.enumerated() {
            if i > 0, i % 250 == 0 { emit(256) }
            emit(UInt32(v))
        }
        emit(257)
        if bits > 0 { out.append(UInt8(acc & 0xFF)) }
        var blocks: [UInt8] = [8]
        var k = 0
        while k < out.count {
            let n = min(255, out.count - k)
            blocks.append(UInt8(n)); blocks += out[k..<k + n]; k += n
        }
        return blocks + [0]
    }
}
