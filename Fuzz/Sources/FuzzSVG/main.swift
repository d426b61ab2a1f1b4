import FuzzSupport
import Foundation
import SilkRaster

// libFuzzer target: arbitrary bytes through `SVGImage` (Silk's size and element checks, then
// librsvg's parser) and, when they parse, a render into a small bitmap at two sizes. Every
// outcome must be a picture or a `RasterError`; a crash, a sanitizer report, a leak or a hang
// (libFuzzer's -timeout) fails. Seeds: Fuzz/corpus/svg.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSVG(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = Data(data.map { UnsafeBufferPointer(start: $0, count: count) } ?? UnsafeBufferPointer(start: nil, count: 0))
    guard let svg = try? SVGImage(data: bytes, name: "fuzz.svg") else { return 0 }
    if let size = svg.intrinsicSize {
        precondition(size.width >= 1 && size.height >= 1 && size.width <= SVGImage.maximumIntrinsicDimension)
    }
    _ = try? svg.render(width: 32, height: 32, contentMode: .aspectFit)
    _ = try? svg.render(width: 7, height: 61, contentMode: .scaleToFill)
    return 0
}

@main enum FuzzSVGMain {
    static func main() { runFuzzer { fuzzSVG($0, $1) } }
}
