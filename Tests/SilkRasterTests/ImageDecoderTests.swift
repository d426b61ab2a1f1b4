import Foundation
import Testing
import SilkGeometry
@testable import SilkRaster

/// Decoders against small files made with ImageMagick (Tests/SilkRasterTests/Inputs) and bad
/// inputs built in the test: every failure must be a typed error, never a crash or a huge
/// allocation.
@Suite struct ImageDecoderTests {
    static let inputs = Bundle.module.url(forResource: "Inputs", withExtension: nil)!.path
    func input(_ name: String) -> String { Self.inputs + "/" + name }

    /// Colour at (x, y) classified as one of the quadrant colours of the test image.
    func name(_ p: UInt32) -> String {
        let r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff
        switch (r > 160, g > 160, b > 160) {
        case (true, false, false): return "red"
        case (false, true, false): return "green"
        case (false, false, true): return "blue"
        case (true, true, true): return "white"
        default: return "other(\(String(p, radix: 16)))"
        }
    }

    @Test func decodesEveryPNGKind() throws {
        for file in ["interlaced.png", "rgb16.png"] {
            let img = try ImageDecoder.decode(contentsOf: input(file)).bitmap
            #expect(img.width == 32 && img.height == 16, "\(file)")
            #expect(name(img.argb32(x: 2, y: 2)) == "red", "\(file)")
            #expect(name(img.argb32(x: 30, y: 2)) == "green", "\(file)")
            #expect(name(img.argb32(x: 2, y: 14)) == "blue", "\(file)")
            #expect(name(img.argb32(x: 30, y: 14)) == "white", "\(file)")
        }
        for file in ["gray.png", "gray-palette.png"] {
            let img = try ImageDecoder.decode(contentsOf: input(file)).bitmap
            let p = img.argb32(x: 30, y: 14)
            #expect(p == 0xffff_ffff, "\(file) white quadrant is \(String(p, radix: 16))")
            #expect(img.isFullyOpaque)
        }
    }

    /// 16-bit files without gAMA are sRGB in practice: mid-grey 32768 must be 128, not the 186
    /// libpng's simplified API gives when it takes them as linear.
    @Test func sixteenBitPNGIsNotTakenAsLinear() throws {
        #expect(try ImageDecoder.decode(contentsOf: input("rgb16-midgrey.png")).bitmap.argb32(x: 1, y: 1) == 0xff80_8080)
        let p = try ImageDecoder.decode(contentsOf: input("rgba16-half.png")).bitmap.argb32(x: 1, y: 1)
        #expect(p >> 24 == 0x80 && abs(Int(p & 0xff) - 0x40) <= 1, "premultiplied half grey: \(String(p, radix: 16))")
    }

    /// cmyk.jpg (ImageMagick) has an Adobe APP14 segment, so its CMYK is stored inverted and
    /// decodes to the right colours (decodesJPEGKinds). Without that segment the same bytes are
    /// plain CMYK, where the stored K of 255 is full black ink.
    @Test func cmykWithoutAdobeMarkerIsPlainCMYK() throws {
        let d = try Data(contentsOf: URL(fileURLWithPath: input("cmyk.jpg")))
        #expect(d[d.startIndex + 3] == 0xEE && d[d.startIndex + 6] == 0x41, "APP14 Adobe follows SOI")
        let length = Int(d[d.startIndex + 4]) << 8 | Int(d[d.startIndex + 5])
        let plain = d.prefix(2) + d.dropFirst(4 + length)
        let p = try ImageDecoder.decode(data: plain).bitmap.argb32(x: 3, y: 3)
        #expect(p & 0xff_ffff < 0x10_1010, "\(String(p, radix: 16))")
    }

    @Test func translucentPNGIsPremultiplied() throws {
        let img = try ImageDecoder.decode(contentsOf: input("half-red.png")).bitmap
        let p = img.argb32(x: 4, y: 4)
        #expect(p >> 24 == 0x80 || p >> 24 == 0x7f)
        #expect((p >> 16) & 0xff == p >> 24, "red channel premultiplied: \(String(p, radix: 16))")
    }

    @Test func decodesJPEGKinds() throws {
        for file in ["exif-1.jpg", "progressive.jpg", "cmyk.jpg"] {
            let d = try ImageDecoder.decode(contentsOf: input(file))
            #expect(d.format == .jpeg)
            #expect(name(d.bitmap.argb32(x: 3, y: 3)) == "red", "\(file)")
            #expect(name(d.bitmap.argb32(x: 28, y: 12)) == "white", "\(file)")
            #expect(name(d.bitmap.argb32(x: 3, y: 12)) == "blue", "\(file)")
        }
        let gray = try ImageDecoder.decode(contentsOf: input("gray.jpg")).bitmap
        #expect(gray.argb32(x: 28, y: 12) & 0xff > 240)
    }

    /// Which stored corner becomes the upright top-left, per the EXIF specification.
    @Test(arguments: [(1, "red", false), (2, "green", false), (3, "white", false), (4, "blue", false),
                      (5, "red", true), (6, "blue", true), (7, "white", true), (8, "green", true)])
    func appliesExifOrientation(orientation: Int, topLeft: String, swapsAxes: Bool) throws {
        let d = try ImageDecoder.decode(contentsOf: input("exif-\(orientation).jpg"))
        #expect(d.orientation == orientation)
        #expect(d.bitmap.width == (swapsAxes ? 16 : 32) && d.bitmap.height == (swapsAxes ? 32 : 16))
        #expect(d.originalWidth == d.bitmap.width)
        #expect(name(d.bitmap.argb32(x: 2, y: 2)) == topLeft)
        // The opposite corner is the opposite stored corner.
        let opposite = ["red": "white", "white": "red", "green": "blue", "blue": "green"][topLeft]
        #expect(name(d.bitmap.argb32(x: d.bitmap.width - 3, y: d.bitmap.height - 3)) == opposite)
    }

    @Test func readsBigEndianExif() throws {
        #expect(try ImageDecoder.decode(contentsOf: input("exif-6-be.jpg")).orientation == 6)
    }

    @Test func scaledJPEGDecodePicksSmallestCoveringScale() throws {
        let path = try #require(Assets.photo("ladybird.jpg")?.path)
        let full = try ImageDecoder.decode(contentsOf: path)
        #expect(full.decodeScale == 1)
        let w = full.bitmap.width, h = full.bitmap.height
        let eighth = try ImageDecoder.decode(contentsOf: path, targetSize: (w / 8, h / 8))
        #expect(eighth.decodeScale == 0.125)
        #expect(eighth.bitmap.width >= w / 8 && eighth.bitmap.width <= w / 8 + 1)
        let half = try ImageDecoder.decode(contentsOf: path, targetSize: (w / 2 + 1, 10))
        #expect(half.decodeScale > 0.5 && half.bitmap.width >= w / 2 + 1)
        #expect(half.originalWidth == w)
        #expect(JPEGDecoder.chooseScale(width: 4000, height: 3000, target: (500, 375)) == (1, 8))
    }

    @Test func badInputsGiveTypedErrors() throws {
        let photo = try Data(contentsOf: try #require(Assets.photo("ladybird.jpg")))
        let png = try Data(contentsOf: URL(fileURLWithPath: input("interlaced.png")))
        func error(_ data: Data) -> RasterError? {
            do { _ = try ImageDecoder.decode(data: data); return nil } catch { return error }
        }
        #expect(error(Data()) == .unsupportedFormat("empty file"))
        #expect(error(Data("hello, world".utf8)) == .unsupportedFormat("not a PNG, JPEG, GIF or WebP file"))
        if case .truncated = error(photo.prefix(photo.count / 2)) {} else { Issue.record("half a JPEG: \(String(describing: error(photo.prefix(photo.count / 2))))") }
        let cutPNG = error(png.prefix(png.count / 2))
        if case .truncated = cutPNG {} else { Issue.record("half a PNG: \(String(describing: cutPNG))") }
        var garbage = photo
        for i in stride(from: 600, to: garbage.count - 10, by: 7) { garbage[i] = 0xFF }
        _ = error(garbage)  // any outcome but a crash is fine: corrupt scan data may still decode
        if case .truncated = error(photo.prefix(3)) {} else { Issue.record("3 bytes of a JPEG: \(String(describing: error(photo.prefix(3))))") }
        if case .truncated = error(photo.prefix(100)) {} else { Issue.record("a JPEG cut in its header: \(String(describing: error(photo.prefix(100))))") }
        if case .truncated = error(png.prefix(30)) {} else { Issue.record("a PNG cut in its header: \(String(describing: error(png.prefix(30))))") }
        if case .truncated = error(png.prefix(4)) {} else { Issue.record("half a PNG signature: \(String(describing: error(png.prefix(4))))") }
    }

    /// Seeded fuzzing: random byte flips, insertions and cuts of every small valid input must
    /// give an image or a typed error — never a crash, a hang or a huge allocation (the limit is
    /// lowered so a mutated header cannot ask for much).
    @Test func seededFuzzingNeverCrashes() throws {
        var seed: UInt64 = 0x5EED_1234
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(max(1, bound)))
        }
        let files = ["exif-6-be.jpg", "progressive.jpg", "cmyk.jpg", "gray.jpg", "gray.png", "gray-palette.png",
                     "rgb16.png", "interlaced.png", "half-red.png"]
        var outcomes: [String: Int] = [:]
        for file in files {
            let original = try Data(contentsOf: URL(fileURLWithPath: input(file)))
            for _ in 0..<60 {
                var d = original
                for _ in 0..<(1 + next(4)) {
                    switch next(3) {
                    case 0: d[d.startIndex + next(d.count)] = UInt8(next(256))
                    case 1: d.insert(UInt8(next(256)), at: d.startIndex + next(d.count))
                    default: d = d.prefix(2 + next(d.count))
                    }
                }
                do {
                    let image = try ImageDecoder.decode(data: d, maxPixels: 1 << 20)
                    #expect(image.bitmap.width * image.bitmap.height <= 1 << 20)
                    outcomes["decoded", default: 0] += 1
                } catch {
                    outcomes[String(String(describing: error).prefix(while: { $0 != ":" })), default: 0] += 1
                }
                _ = try? ImageDecoder.probe(data: d)
            }
        }
        #expect(outcomes.values.reduce(0, +) == files.count * 60, "\(outcomes)")
        #expect(outcomes["decoded", default: 0] > 0 && outcomes.count >= 3, "mutations both decode and fail: \(outcomes)")
    }

    /// The committed bad files (made by Inputs/make-bad-inputs.py) through the file API.
    @Test(arguments: [
        ("empty.jpg", "unsupported"), ("text.png", "unsupported"),
        ("truncated.jpg", "truncated"), ("truncated.png", "truncated"),
        ("garbage-after-header.jpg", "corrupt"), ("corrupt.png", "corrupt"),
        ("huge-header.jpg", "tooManyPixels"), ("huge-100mpx.png", "tooManyPixels"),
    ])
    func badFilesGiveTheirTypedError(file: String, kind: String) {
        do {
            let d = try ImageDecoder.decode(contentsOf: input(file))
            Issue.record("\(file) decoded as \(d.bitmap)")
        } catch {
            let got: String
            switch error {
            case .unsupportedFormat: got = "unsupported"
            case .truncated: got = "truncated"
            case .corrupt: got = "corrupt"
            case .tooManyPixels(let w, let h, let limit):
                got = "tooManyPixels"
                #expect(w == 10000 && h == 10000 && limit == RasterLimits.defaultMaxImagePixels)
            default: got = "\(error)"
            }
            #expect(got == kind, "\(file): \(error)")
        }
    }

    /// A real, complete 10000 × 10000 PNG (24 KB on disk, 400 MB decoded): refused from its
    /// header, with no pixel memory touched (peak RSS stays far below 400 MB).
    @Test func hundredMegapixelPNGIsRefusedWithoutAllocating() throws {
        let before = Self.peakResidentMiB()
        #expect(throws: RasterError.tooManyPixels(width: 10000, height: 10000, limit: RasterLimits.defaultMaxImagePixels)) {
            try ImageDecoder.decode(contentsOf: input("huge-100mpx.png"))
        }
        #expect(throws: RasterError.tooManyPixels(width: 10000, height: 10000, limit: 99_999_999)) {
            try ImageDecoder.decode(contentsOf: input("huge-100mpx.png"), maxPixels: 99_999_999)
        }
        let info = try ImageDecoder.probe(data: Data(contentsOf: URL(fileURLWithPath: input("huge-100mpx.png"))))
        #expect(info.width == 10000 && info.height == 10000 && info.format == .png)
        #expect(Self.peakResidentMiB() - before < 200, "peak RSS grew by \(Self.peakResidentMiB() - before) MiB")
    }

    static func peakResidentMiB() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss / 1024
    }

    @Test func probeReadsOrientationAndUprightSize() throws {
        let info = try ImageDecoder.probe(data: Data(contentsOf: URL(fileURLWithPath: input("exif-6.jpg"))))
        #expect(info.format == .jpeg && info.orientation == 6)
        #expect(info.width == 32 && info.height == 16)
        #expect(info.uprightSize == (16, 32))
        let png = try ImageDecoder.probe(data: Data(contentsOf: URL(fileURLWithPath: input("gray.png"))))
        #expect(png.format == .png && png.orientation == 1 && png.uprightSize == (png.width, png.height))
    }

    @Test func scaledDecodeOfARotatedJPEGScalesTheUprightTarget() throws {
        // Stored 32 × 16, upright 16 × 32: an upright target of 8 × 16 is half the size.
        let d = try ImageDecoder.decode(contentsOf: input("exif-6.jpg"), targetSize: (8, 16))
        #expect(d.decodeScale == 0.5)
        #expect(d.bitmap.width == 8 && d.bitmap.height == 16)
        #expect(d.originalSize == (16, 32))
    }

    @Test func scaledDecodeOfALargeJPEG() throws {
        // 4000 × 3000 made in memory (not committed); a 500-wide target decodes at 1/8.
        let big = try Bitmap(width: 4000, height: 3000)
        big.fill(Color(rgb: 0x2080c0))
        big.fill(Color(rgb: 0xe03020), rect: Rect(x: 0, y: 0, width: 2000, height: 1500))
        let jpeg = try JPEGEncoder.encode(big, quality: 80)
        let d = try ImageDecoder.decode(data: jpeg, targetSize: (500, 375))
        #expect(d.decodeScale == 0.125)
        #expect(d.bitmap.width == 500 && d.bitmap.height == 375)
        #expect(d.originalSize == (4000, 3000))
        #expect(name(d.bitmap.argb32(x: 10, y: 10)) == "red")
        // Just over 1/8's 500 × 375, the smallest covering scale is 2/8 (1000 × 750).
        let e = try ImageDecoder.decode(data: jpeg, targetSize: (501, 376))
        #expect(e.decodeScale == 0.25 && e.bitmap.width == 1000)
    }

    @Test func demoLogoPNGHasPremultipliedTransparency() throws {
        let path = try #require(Assets.photo("debian-logo.png")?.path)
        let d = try ImageDecoder.decode(contentsOf: path)
        #expect(d.format == .png && d.bitmap.width == 128 && d.bitmap.height == 128)
        #expect(d.bitmap.argb32(x: 0, y: 0) == 0, "transparent corner")
        #expect(!d.bitmap.isFullyOpaque)
        for y in stride(from: 0, to: 128, by: 3) {
            for x in stride(from: 0, to: 128, by: 3) {
                let p = d.bitmap.argb32(x: x, y: y), a = p >> 24
                #expect((p >> 16) & 0xff <= a && (p >> 8) & 0xff <= a && p & 0xff <= a)
            }
        }
    }

    @Test func hugeImagesAreRefusedBeforeAllocating() throws {
        // A JPEG whose frame header claims 10000 × 10000 (100 MPx).
        var jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x27, 0x10, 0x27, 0x10, 0x03,
                             0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xFF, 0xD9]
        #expect(throws: RasterError.tooManyPixels(width: 10000, height: 10000, limit: RasterLimits.defaultMaxImagePixels)) {
            try ImageDecoder.decode(data: Data(jpeg))
        }
        jpeg[7] = 0x00; jpeg[8] = 0x10  // 16 px tall: within the limit, but no scan data → an error, not a crash
        #expect(throws: RasterError.self) { try ImageDecoder.decode(data: Data(jpeg)) }
        // A PNG header claiming 10000 × 10000.
        #expect(throws: RasterError.tooManyPixels(width: 10000, height: 10000, limit: RasterLimits.defaultMaxImagePixels)) {
            try ImageDecoder.decode(data: Self.pngHeader(width: 10000, height: 10000))
        }
        // A smaller configurable limit.
        #expect(throws: RasterError.self) {
            try ImageDecoder.decode(contentsOf: input("interlaced.png"), maxPixels: 100)
        }
    }

    @Test func fileErrorsNameThePath() {
        #expect(throws: RasterError.io(path: "/nonexistent/x.png", reason: "no such file")) {
            try ImageDecoder.decode(contentsOf: "/nonexistent/x.png")
        }
        #expect(throws: RasterError.io(path: "/tmp", reason: "is a directory")) {
            try ImageDecoder.decode(contentsOf: "/tmp")
        }
    }

    /// A PNG signature, an IHDR chunk with a valid CRC, and an empty IDAT.
    static func pngHeader(width: UInt32, height: UInt32) -> Data {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let t = Array(type.utf8)
            return be(UInt32(body.count)) + t + body + be(crc32(t + body))
        }
        let ihdr = be(width) + be(height) + [8, 6, 0, 0, 0]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", []) + chunk("IEND", []))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }
}
