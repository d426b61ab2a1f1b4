import FuzzSupport
import Foundation
import SilkRaster

// libFuzzer target: arbitrary bytes through the JPEG path of `ImageDecoder` (TurboJPEG, the
// EXIF orientation parser, scaled decoding). The first byte picks a target size so that the
// M/8 scaled decodes are reached too. Seeds: Fuzz/corpus/jpeg.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let data, count > 0 else { return 0 }
    let choice = data[0]
    let bytes = Data(UnsafeBufferPointer(start: data + 1, count: count - 1))
    _ = try? ImageDecoder.probe(data: bytes)
    let target: (width: Int, height: Int)? = choice & 0x80 == 0 ? nil : (Int(choice & 0x7f) + 1, Int(choice & 0x3f) + 1)
    if let image = try? ImageDecoder.decode(data: bytes, targetSize: target, maxPixels: 4_000_000) {
        precondition(image.bitmap.width > 0 && image.bitmap.height > 0)
        precondition((1...8).contains(image.orientation))
        _ = image.bitmap.argb32(x: image.bitmap.width - 1, y: image.bitmap.height - 1)
    }
    return 0
}

@main enum FuzzJPEGMain {
    static func main() { runFuzzer { fuzzJPEG($0, $1) } }
}
