import Foundation
import Testing
import SilkDemoServer
import SilkGeometry
import SilkRaster

/// Following a progressive JPEG byte by byte: scans complete one after another, and every
/// complete-scan prefix decodes to the full-size image, closer to the final one each time.
@Suite struct ProgressiveJPEGTests {
    static func photo(progressive: Bool) throws -> Data {
        try #require(DemoContent().photo(id: 4, width: 320, height: 200, progressive: progressive))
    }

    @Test func scansCompleteInOrderAndPrefixesDecode() throws {
        let data = try Self.photo(progressive: true)
        var tracker = JPEGScanTracker()
        var seen: [JPEGScanTracker.Progress] = []
        var end = 0
        while end < data.count {
            end = min(data.count, end + 97)
            let p = tracker.update(with: data.prefix(end))
            if seen.last?.completeScans != p.completeScans { seen.append(p) }
        }
        let final = try #require(seen.last)
        #expect(final.isProgressive)
        #expect(tracker.progress.isComplete)
        #expect(final.completeScans >= 5)  // libjpeg's default progression has ~10 scans
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.decodablePrefixLength < $1.decodablePrefixLength })
        // Every prefix decodes at full size; the error against the final image shrinks overall.
        let full = try ImageDecoder.decode(data: data).bitmap
        var errors: [Double] = []
        for p in seen where p.completeScans > 0 && !p.isComplete {
            let partial = try ImageDecoder.decodeJPEGPrefix(data, length: p.decodablePrefixLength).bitmap
            #expect(partial.width == 320 && partial.height == 200)
            errors.append(meanAbsoluteDifference(partial, full))
        }
        #expect(errors.count >= 3)
        #expect(errors.last! < errors.first!)
        #expect(errors.last! < 3)
    }

    @Test func aBaselineJPEGHasOneScanAndIsNotProgressive() throws {
        let data = try Self.photo(progressive: false)
        var tracker = JPEGScanTracker()
        let p = tracker.update(with: data)
        #expect(!p.isProgressive)
        #expect(p.completeScans == 1)
        #expect(p.isComplete)
    }

    @Test func notAJPEGIsMalformed() {
        var tracker = JPEGScanTracker()
        #expect(tracker.update(with: Data("hello world".utf8)).isMalformed)
    }

    @Test func aPrefixWithoutAScanIsRefusedClearly() throws {
        let data = try Self.photo(progressive: true)
        #expect(throws: RasterError.self) { try ImageDecoder.decodeJPEGPrefix(data, length: 40) }
    }

    func meanAbsoluteDifference(_ a: Bitmap, _ b: Bitmap) -> Double {
        var total = 0.0
        for y in stride(from: 0, to: a.height, by: 4) {
            for x in stride(from: 0, to: a.width, by: 4) {
                let p = a.argb32(x: x, y: y), q = b.argb32(x: x, y: y)
                for shift in [0, 8, 16] as [UInt32] {
                    total += abs(Double((p >> shift) & 0xff) - Double((q >> shift) & 0xff))
                }
            }
        }
        return total / Double((a.width / 4) * (a.height / 4) * 3)
    }
}
