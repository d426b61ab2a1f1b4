import FuzzSupport
import Foundation
import SilkRaster

// libFuzzer target: arbitrary bytes through the PNG path of `ImageDecoder` (libpng's simplified
// API behind Silk's header checks). Every outcome must be an image or a `RasterError`; a crash,
// a sanitizer report or a leak fails. Seeds: Fuzz/corpus/png.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = Data(data.map { UnsafeBufferPointer(start: $0, count: count) } ?? UnsafeBufferPointer(start: nil, count: 0))
    _ = try? ImageDecoder.probe(data: bytes)
    // A small pixel limit keeps one run fast and exercises the limit path; the header check
    // happens before allocation either way.
    if let image = try? ImageDecoder.decode(data: bytes, maxPixels: 4_000_000) {
        precondition(image.bitmap.width > 0 && image.bitmap.height > 0)
        _ = image.bitmap.argb32(x: image.bitmap.width - 1, y: image.bitmap.height - 1)
    }
    return 0
}

@main enum FuzzPNGMain {
    static func main() { runFuzzer { fuzzPNG($0, $1) } }
}
