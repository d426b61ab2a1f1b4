import FuzzSupport
import Foundation
import SilkRaster

// libFuzzer target: arbitrary bytes through the GIF and WebP paths — `ImageDecoder` (the first
// frame) and `AnimatedImageDecoder` (giflib's sequential reader with Silk's compositing and
// disposal; libwebp's demuxer and animation decoder), up to 64 frames and a rewind. Every
// outcome must be frames or a `RasterError`: huge canvases, 10⁵ frames, zero delays, truncated
// LZW and bad chunk sizes included. Seeds: Fuzz/corpus/animated.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAnimatedImage(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = Data(data.map { UnsafeBufferPointer(start: $0, count: count) } ?? UnsafeBufferPointer(start: nil, count: 0))
    _ = try? ImageDecoder.probe(data: bytes)
    // A small pixel limit keeps one run fast; the header check happens before allocation.
    if let image = try? ImageDecoder.decode(data: bytes, maxPixels: 1_000_000) {
        precondition(image.bitmap.width > 0 && image.bitmap.height > 0)
    }
    guard let decoder = try? AnimatedImageDecoder(data: bytes, maxPixels: 1_000_000) else { return 0 }
    for pass in 0..<2 {
        var frames = 0
        while frames < 64, let frame = try? decoder.nextFrame() {
            precondition(frame.delay > 0.010 && frame.canvas.width == decoder.width)
            _ = frame.canvas.argb32(x: frame.canvas.width - 1, y: frame.canvas.height - 1)
            frames += 1
        }
        if pass == 0 { try? decoder.rewind() }
    }
    return 0
}

@main enum FuzzAnimatedImageMain {
    static func main() { runFuzzer { fuzzAnimatedImage($0, $1) } }
}
