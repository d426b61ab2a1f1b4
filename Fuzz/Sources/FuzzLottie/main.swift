import FuzzSupport
import Foundation
import SilkRaster

// libFuzzer target: arbitrary bytes through `LottieAnimation` (Silk's size, nesting, number,
// repeater, dash, precomposition and image-asset checks, then rlottie's parser) and, when they
// pass, renders of the first, a middle and the last frame into small bitmaps. Every outcome must
// be a picture or a `RasterError`; a crash, a sanitizer report, a leak or a hang (libFuzzer's
// -timeout) fails. Seeds: Fuzz/corpus/lottie.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLottie(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = Data(data.map { UnsafeBufferPointer(start: $0, count: count) } ?? UnsafeBufferPointer(start: nil, count: 0))
    guard let lottie = try? LottieAnimation(data: bytes, name: "fuzz.json") else { return 0 }
    precondition(lottie.frameCount >= 1 && lottie.frameRate > 0 && lottie.size.width >= 1)
    _ = try? lottie.render(frame: 0, width: 32, height: 32, contentMode: .aspectFit)
    _ = try? lottie.render(frame: lottie.frameCount / 2, width: 7, height: 61, contentMode: .scaleToFill)
    _ = try? lottie.render(frame: lottie.frameCount - 1, width: 16, height: 16, contentMode: .aspectFill)
    return 0
}

@main enum FuzzLottieMain {
    static func main() { runFuzzer { fuzzLottie($0, $1) } }
}
