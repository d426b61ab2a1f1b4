import Foundation
import Testing
import SilkTestSupport
@testable import SilkRaster

/// GIF and WebP: still decode, frame-by-frame animation against reference frames (made by
/// Inputs/animated/make-animated-inputs.py with Pillow), loop counts, clamped delays, and
/// hostile files (huge canvas, 10⁵ frames, truncated LZW, damaged chunks).
@Suite struct AnimatedImageTests {
    static let folder = Bundle.module.url(forResource: "Inputs", withExtension: nil)!.path + "/animated/"
    func data(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: Self.folder + name)) }

    /// Every pixel equal (premultiplied), or the first difference.
    func firstDifference(_ a: Bitmap, _ b: Bitmap) -> String? {
        guard a.width == b.width, a.height == b.height else { return "size \(a.width)x\(a.height) vs \(b.width)x\(b.height)" }
        for y in 0..<a.height {
            for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) {
                return "(\(x), \(y)): \(String(a.pixel(x: x, y: y), radix: 16)) vs \(String(b.pixel(x: x, y: y), radix: 16))"
            }
        }
        return nil
    }

    @Test func stillGIFAndWebPDecodeTheirFirstFrame() throws {
        let gif = try ImageDecoder.decode(contentsOf: Self.folder + "still.gif")
        #expect(gif.format == .gif && gif.bitmap.width == 32 && gif.bitmap.height == 24)
        #expect(gif.bitmap.pixel(x: 0, y: 0) == 0xFFFF_0000)
        #expect(gif.bitmap.pixel(x: 31, y: 23) == 0xFF00_00FF)
        let webp = try ImageDecoder.decode(contentsOf: Self.folder + "still.webp")
        #expect(webp.format == .webp && webp.bitmap.width == 32)
        #expect(webp.bitmap.pixel(x: 5, y: 5) == 0xFF0A_78F0)
        #expect(try ImageDecoder.probe(data: try data("anim.webp")) == ImageDecoder.Info(format: .webp, width: 32, height: 24))
        #expect(try ImageDecoder.probe(data: try data("disposal.gif")) == ImageDecoder.Info(format: .gif, width: 32, height: 24))
        // The first frame of an animation is what a still decode gives.
        let first = try ImageDecoder.decode(contentsOf: Self.folder + "disposal.gif").bitmap
        #expect(firstDifference(first, try ImageDecoder.decode(contentsOf: Self.folder + "disposal-0.png").bitmap) == nil)
    }

    @Test func gifDisposalMatchesReferenceFrames() throws {
        let decoder = try AnimatedImageDecoder(data: try data("disposal.gif"))
        var delays: [Double] = []
        for pass in 0..<2 {
            for n in 0..<4 {
                let frame = try #require(try decoder.nextFrame(), "frame \(n)")
                #expect(frame.index == n)
                let reference = try ImageDecoder.decode(contentsOf: Self.folder + "disposal-\(n).png").bitmap
                let diff = firstDifference(frame.canvas, reference)
                #expect(diff == nil, "pass \(pass) frame \(n): \(diff ?? "")")
                if pass == 0 { delays.append(frame.delay) }
            }
            #expect(try decoder.nextFrame() == nil)
            try decoder.rewind()
        }
        // 10, 5, 3 centiseconds; 0 is clamped to 100 ms as browsers do.
        #expect(delays == [0.1, 0.05, 0.03, 0.1])
        #expect(decoder.playCount == 3)  // NETSCAPE loop count 2: plays three times
    }

    @Test func webpFramesMatchReferenceFrames() throws {
        let decoder = try AnimatedImageDecoder(data: try data("anim.webp"))
        var delays: [Double] = []
        for n in 0..<3 {
            let frame = try #require(try decoder.nextFrame())
            let reference = try ImageDecoder.decode(contentsOf: Self.folder + "anim-\(n).png").bitmap
            let diff = firstDifference(frame.canvas, reference)
            #expect(diff == nil, "frame \(n): \(diff ?? "")")
            delays.append(frame.delay)
        }
        #expect(try decoder.nextFrame() == nil)
        #expect(delays == [0.04, 0.08, 0.1])
        #expect(decoder.playCount == 3)
    }

    /// The WebP decoder reads the caller's bytes, here a slice of a larger buffer (no copy of its
    /// own), and when the bytes' address is not the one it was made with it decodes again over the
    /// new address up to the same frame (cleared `base`: the path a moved buffer takes).
    @Test func webpDecoderReadsTheCallersBytesAndFollowsAMove() throws {
        var padded = Data(repeating: 0xEE, count: 7)
        padded.append(try data("anim.webp"))
        let decoder = try WebPFrameDecoder(padded[7...], maxPixels: 1 << 20)
        for n in 0..<3 {
            if n == 1 { decoder.base = nil }
            let frame = try #require(try decoder.nextFrame(), "frame \(n)")
            let reference = try ImageDecoder.decode(contentsOf: Self.folder + "anim-\(n).png").bitmap
            #expect(frame.index == n)
            #expect(firstDifference(frame.canvas, reference) == nil, "frame \(n)")
        }
        #expect(try decoder.nextFrame() == nil)
        #expect(decoder.base != nil)
    }

    @Test func loopCountsFollowTheBrowsers() throws {
        func plays(_ loop: Int?) throws -> Int? {
            let d = try AnimatedImageDecoder(data: GIFWriter(width: 2, height: 2, loopCount: loop).data([.init(width: 2, height: 2, index: 1)]))
            _ = try d.nextFrame()
            return d.playCount
        }
        #expect(try plays(nil) == 1)
        #expect(try plays(0) == nil)
        #expect(try plays(4) == 5)
    }

    @Test func hostileGIFsGiveTypedErrors() throws {
        func error(_ d: Data) -> RasterError? {
            do { _ = try ImageDecoder.decode(data: d); return nil } catch { return error }
        }
        // A 65535×65535 canvas in a 1 KB file: refused before any allocation.
        let huge = GIFWriter(width: 65535, height: 65535).data([.init(width: 1, height: 1, index: 1)])
        #expect(error(huge) == .tooManyPixels(width: 65535, height: 65535, limit: RasterLimits.defaultMaxImagePixels))
        // A frame claiming 65535×65535 on a small canvas (LZW work of 4 G pixels): refused.
        var bigFrame = GIFWriter.Frame(width: 1, height: 1, index: 1)
        bigFrame.width = 65535; bigFrame.height = 65535
        if case .tooManyPixels = error(GIFWriter(width: 8, height: 8).data([bigFrame])) {} else { Issue.record("huge frame accepted") }
        // Frames partly or wholly outside the canvas are clipped (one wholly to the right trapped
        // in a range: found by the animated fuzzer, seed regression-frame-right-of-canvas.gif).
        let outside = GIFWriter(width: 8, height: 8).data([.init(width: 8, height: 8, index: 1),
                                                           .init(x: 100, y: 2, width: 4, height: 4, index: 2),
                                                           .init(x: 6, y: 6, width: 4, height: 4, index: 2)])
        let clipped = try AnimatedImageDecoder(data: outside)
        _ = try clipped.nextFrame(); _ = try clipped.nextFrame()
        let last = try #require(try clipped.nextFrame())
        #expect(last.canvas.pixel(x: 7, y: 7) == 0xFF00_00FF && last.canvas.pixel(x: 5, y: 5) == 0xFFFF_0000)
        // Truncated LZW data: the first frame stands, the cut one is a typed error.
        let gif = try data("disposal.gif")
        let cut = gif.prefix(gif.count - 400)
        #expect(try ImageDecoder.decode(data: cut).bitmap.width == 32)
        let decoder = try AnimatedImageDecoder(data: cut)
        var thrown: RasterError?
        do { while try decoder.nextFrame() != nil {} } catch { thrown = error }
        #expect(thrown != nil)
        // Zero-size canvas, header only, garbage after the header.
        if case .corrupt = error(GIFWriter(width: 0, height: 5).data([])) {} else { Issue.record("zero canvas") }
        if case .truncated = error(gif.prefix(8)) {} else { Issue.record("cut header: \(String(describing: error(gif.prefix(8))))") }
        var garbage = Data(GIFWriter(width: 8, height: 8).header())
        garbage += Data([0x2C, 0, 0, 0, 0, 8, 0, 8, 0, 0, 8, 0xFF] + [UInt8](repeating: 0xA5, count: 300))
        #expect(error(garbage) != nil)
    }

    @Test func hundredThousandZeroDelayFramesStreamInBoundedMemory() throws {
        let writer = GIFWriter(width: 2, height: 2, loopCount: 0)
        var bytes = writer.header()
        let frame = GIFWriter.frameBytes(.init(width: 1, height: 1, index: 1, delay: 0))
        bytes.reserveCapacity(bytes.count + frame.count * 100_000 + 1)
        for _ in 0..<100_000 { bytes += frame }
        bytes.append(0x3B)
        let decoder = try AnimatedImageDecoder(data: Data(bytes))
        let memory = decoder.retainedBytes
        var count = 0
        while let f = try decoder.nextFrame() {
            #expect(f.delay == AnimatedImageFrame.minimumDelayReplacement)
            count += 1
            if count > 100_000 { break }
        }
        #expect(count == 100_000)
        #expect(decoder.retainedBytes == memory)
        #expect(decoder.playCount == nil)
    }

    @Test func hostileWebPsGiveTypedErrors() throws {
        func error(_ d: Data) -> RasterError? {
            do { _ = try ImageDecoder.decode(data: d); return nil } catch { return error }
        }
        let anim = try data("anim.webp")
        // VP8X canvas of 16384×16384 (24-bit fields minus one at bytes 24…29): refused up front.
        var huge = anim
        let vp8x = try #require(anim.range(of: Data("VP8X".utf8))).lowerBound
        for (k, v) in [UInt8(0xFF), 0x3F, 0x00, 0xFF, 0x3F, 0x00].enumerated() { huge[vp8x + 12 + k] = v }
        if case .tooManyPixels = error(huge) {} else { Issue.record("huge canvas: \(String(describing: error(huge)))") }
        do { _ = try AnimatedImageDecoder(data: huge); Issue.record("huge canvas animated") } catch {}
        // A chunk size far past the end.
        var badChunk = anim
        let anmf = try #require(anim.range(of: Data("ANMF".utf8))).lowerBound
        for k in 4..<8 { badChunk[anmf + k] = 0x7F }
        #expect(error(badChunk) != nil)
        do { let d = try AnimatedImageDecoder(data: badChunk); while try d.nextFrame() != nil {} ; Issue.record("bad chunk accepted") } catch {}
        // Cut short, and the RIFF header only.
        #expect(error(anim.prefix(anim.count / 2)) != nil)
        if case .truncated = error(anim.prefix(8)) {} else { Issue.record("cut RIFF: \(String(describing: error(anim.prefix(8))))") }
        let still = try data("still.webp")
        if case .truncated = error(still.prefix(still.count - 5)) {} else { Issue.record("cut still: \(String(describing: error(still.prefix(still.count - 5))))") }
    }
}
