import Foundation
import SilkRaster

/// Golden-PNG snapshot testing, shared by every test target that renders.
///
/// A test renders a `Bitmap` and calls `try Golden.verify(bitmap, named: "card", in: goldenDir)`.
/// The golden `NAME.png` is compared pixel by pixel: a pixel differs when any premultiplied
/// channel is off by more than `tolerance` (default 3 of 255: PNG round-trips straight alpha, and
/// anti-aliasing may move by a step between library builds). The check fails when more than
/// `maxDifferingFraction` of the pixels differ (default 0.1 %) or the sizes differ.
///
/// On failure, `__failures__/NAME.actual.png` and `NAME.diff.png` (differing pixels in red over a
/// faded copy of the golden) are written beside the golden folder, and the error names them.
///
/// Re-recording after an intended change: `make record-golden` (sets `SILK_RECORD_GOLDEN=1`),
/// then look at every changed PNG before committing it. A missing golden is written and the
/// test fails once, so a golden is never created silently in CI.
public enum Golden {
    public struct Mismatch: Error, CustomStringConvertible {
        public let description: String
    }

    public struct Comparison: Sendable {
        public var differingPixels: Int
        public var totalPixels: Int
        public var maxChannelDelta: Int
        public var fraction: Double { totalPixels == 0 ? 0 : Double(differingPixels) / Double(totalPixels) }
    }

    /// The folder `Golden/` beside the calling test file's folder (pass `#filePath`).
    public static func directory(forTestFile file: String = #filePath) -> String {
        URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent("Golden").path
    }

    public static var isRecording: Bool { ProcessInfo.processInfo.environment["SILK_RECORD_GOLDEN"] == "1" }

    public static func verify(_ bitmap: Bitmap, named name: String, in directory: String,
                              tolerance: Int = 3, maxDifferingFraction: Double = 0.001) throws {
        let goldenPath = directory + "/" + name + ".png"
        if isRecording || !FileManager.default.fileExists(atPath: goldenPath) {
            let existed = FileManager.default.fileExists(atPath: goldenPath)
            try bitmap.writePNG(to: goldenPath)
            if !isRecording {
                throw Mismatch(description: "no golden \(goldenPath) existed (existed: \(existed)); recorded it — look at it, commit it, re-run")
            }
            return
        }
        let golden = try ImageDecoder.decode(contentsOf: goldenPath).bitmap
        guard golden.width == bitmap.width, golden.height == bitmap.height else {
            try writeFailure(bitmap, diff: nil, name: name, directory: directory)
            throw Mismatch(description: "\(name): size \(bitmap.width)×\(bitmap.height) differs from golden \(golden.width)×\(golden.height)")
        }
        let (cmp, diff) = try compare(bitmap, golden, tolerance: tolerance)
        if cmp.fraction > maxDifferingFraction {
            let paths = try writeFailure(bitmap, diff: diff, name: name, directory: directory)
            throw Mismatch(description: "\(name): \(cmp.differingPixels) of \(cmp.totalPixels) pixels differ by more than \(tolerance) (max delta \(cmp.maxChannelDelta)); see \(paths)")
        }
    }

    /// Compares two same-size bitmaps; returns the statistics and a diff image.
    public static func compare(_ a: Bitmap, _ b: Bitmap, tolerance: Int) throws -> (Comparison, Bitmap) {
        let diff = try Bitmap(width: a.width, height: a.height)
        var differing = 0, maxDelta = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.argb32(x: x, y: y), q = b.argb32(x: x, y: y)
                var d = 0
                for s in stride(from: 0, through: 24, by: 8) {
                    d = max(d, abs(Int((p >> UInt32(s)) & 0xff) - Int((q >> UInt32(s)) & 0xff)))
                }
                maxDelta = max(maxDelta, d)
                let out: UInt32
                if d > tolerance {
                    differing += 1
                    out = 0xffff_0000
                } else {
                    // Faded golden: quarter intensity grey of its luminance.
                    let l = (((q >> 16) & 0xff) + ((q >> 8) & 0xff) + (q & 0xff)) / 3 / 4 + 191
                    out = 0xff00_0000 | l << 16 | l << 8 | l
                }
                diff.data.storeBytes(of: out, toByteOffset: y * diff.stride + x * 4, as: UInt32.self)
            }
        }
        return (Comparison(differingPixels: differing, totalPixels: a.width * a.height, maxChannelDelta: maxDelta), diff)
    }

    @discardableResult
    private static func writeFailure(_ actual: Bitmap, diff: Bitmap?, name: String, directory: String) throws -> String {
        let dir = URL(fileURLWithPath: directory).deletingLastPathComponent().appendingPathComponent("__failures__").path
        try actual.writePNG(to: "\(dir)/\(name).actual.png")
        try diff?.writePNG(to: "\(dir)/\(name).diff.png")
        return "\(dir)/\(name).actual.png" + (diff != nil ? " and \(name).diff.png" : "")
    }
}
