import Foundation
import SilkDemoServer

/// Writes small GIF89a files for tests (hostile and many-frame inputs made at test time instead
/// of committed): a 256-entry global palette, LZW with 9-bit codes and a clear code every 250
/// pixels (valid, uncompressed-size output), one graphic control block per frame.
public struct GIFWriter {
    /// One frame: its rectangle, a palette index per pixel (row-major), disposal (0…3), delay in
    /// centiseconds, and the transparent index (nil: none).
    public struct Frame {
        public var x: Int, y: Int, width: Int, height: Int
        public var pixels: [UInt8]
        public var disposal: Int
        public var delay: Int
        public var transparentIndex: UInt8?
        /// A frame filled with one palette index.
        public init(x: Int = 0, y: Int = 0, width: Int, height: Int, index: UInt8, disposal: Int = 1, delay: Int = 10,
                    transparentIndex: UInt8? = nil) {
            self.x = x; self.y = y; self.width = width; self.height = height
            pixels = [UInt8](repeating: index, count: width * height)
            self.disposal = disposal; self.delay = delay; self.transparentIndex = transparentIndex
        }
    }

    /// The canvas (logical screen) size written in the header.
    public var width: Int, height: Int
    /// Palette colours as 0xRRGGBB (padded to 256 with black).
    public var palette: [UInt32] = [0x000000, 0xFF0000, 0x0000FF, 0x00C800, 0xFFFF00, 0xFFFFFF]
    /// The NETSCAPE2.0 loop count (nil: no block, plays once).
    public var loopCount: Int?

    /// A writer for a canvas of `width`×`height` (any 16-bit values, even absurd ones).
    public init(width: Int, height: Int, loopCount: Int? = nil) {
        self.width = width; self.height = height; self.loopCount = loopCount
    }

    // The LZW stream and 16-bit fields are the demo server's (one encoder for both).
    static func lzw(_ indices: [UInt8]) -> [UInt8] { DemoGIF.lzw(indices) }
    static func le16(_ v: Int) -> [UInt8] { DemoGIF.le16(v) }

    /// The bytes of a header (screen descriptor, palette, loop block) with no frames and no trailer.
    public func header() -> [UInt8] {
        var d = Array("GIF89a".utf8) + GIFWriter.le16(width) + GIFWriter.le16(height) + [0xF7, 0, 0]
        for i in 0..<256 {
            let c = i < palette.count ? palette[i] : 0
            d += [UInt8((c >> 16) & 0xFF), UInt8((c >> 8) & 0xFF), UInt8(c & 0xFF)]
        }
        if let loopCount { d += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [3, 1] + GIFWriter.le16(loopCount) + [0] }
        return d
    }

    /// The bytes of one frame (graphic control block, image descriptor, LZW data).
    public static func frameBytes(_ f: Frame) -> [UInt8] {
        let flags = UInt8((f.disposal & 7) << 2) | (f.transparentIndex == nil ? 0 : 1)
        // One append per piece: Swift 6.0 gives up type-checking the chain of `+` (trixie).
        var d: [UInt8] = [0x21, 0xF9, 4, flags]
        d += le16(f.delay)
        d += [f.transparentIndex ?? 0, 0, 0x2C]
        for v in [f.x, f.y, f.width, f.height] { d += le16(v) }
        d.append(0)
        return d + lzw(f.pixels)
    }

    /// A whole file: header, frames, trailer.
    public func data(_ frames: [Frame]) -> Data {
        var d = header()
        for f in frames { d += GIFWriter.frameBytes(f) }
        return Data(d + [0x3B])
    }
}
