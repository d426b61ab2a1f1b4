import Testing
import SilkGeometry
@testable import SilkRaster

@Suite struct BlurTests {
    @Test func uniformImageStaysUniformUpToTheEdges() throws {
        let b = try Bitmap(width: 40, height: 30)
        b.fill(Color(rgb: 0x3366cc))
        let out = try b.blurred(radius: 12)
        for (x, y) in [(0, 0), (39, 29), (20, 15), (0, 29)] {
            #expect(out.argb32(x: x, y: y) == 0xff33_66cc, "(\(x),\(y)) = \(String(out.argb32(x: x, y: y), radix: 16))")
        }
    }

    @Test func impulseSpreadsSymmetricallyAndConservesEnergy() throws {
        let b = try Bitmap(width: 61, height: 61)
        b.fill(.black)
        b.fill(.white, rect: Rect(x: 28, y: 28, width: 5, height: 5))
        let out = try b.blurred(radius: 6)
        var total = 0
        for y in 0..<61 { for x in 0..<61 { total += Int(out.argb32(x: x, y: y) & 0xff) } }
        #expect(abs(total - 25 * 255) < 25 * 255 / 20, "energy \(total) vs \(25 * 255)")
        for d in 1...8 {
            let l = out.argb32(x: 30 - d, y: 30) & 0xff, r = out.argb32(x: 30 + d, y: 30) & 0xff
            let u = out.argb32(x: 30, y: 30 - d) & 0xff, v = out.argb32(x: 30, y: 30 + d) & 0xff
            #expect(abs(Int(l) - Int(r)) <= 1 && abs(Int(u) - Int(v)) <= 1 && abs(Int(l) - Int(u)) <= 1, "d=\(d): \(l) \(r) \(u) \(v)")
        }
        // Monotone fall-off from the centre.
        var previous = UInt32.max
        for d in 0...12 {
            let v = out.argb32(x: 30 + d, y: 30) & 0xff
            #expect(v <= previous); previous = v
        }
    }

    @Test func cancellationStopsEarly() throws {
        let b = try Bitmap(width: 256, height: 256)
        b.fill(.white)
        var calls = 0
        #expect(throws: RasterError.cancelled) {
            try b.blurred(radius: 20) { calls += 1; return calls > 3 }
        }
        // 256 rows in bands of 16 is 16 checks per pass and 6 passes: stopping after the
        // fourth check means almost all of the work was skipped.
        #expect(calls == 4)
        var uncancelled = 0
        _ = try b.blurred(radius: 20) { uncancelled += 1; return false }
        #expect(uncancelled == 6 * 256 / BoxBlur.band + 1, "one check per band of every pass, one before the colour pass")
    }

    @Test func boxSizeFollowsApplesImageEffects() {
        // d = ⌊r·3·√(2π)/4 + 0.5⌋, made odd: the tutorial's radius 30 gives 56 → 57.
        #expect(BoxBlur.boxSize(radius: 30) == 57)
        #expect(BoxBlur.boxSize(radius: 20) == 39)  // 38 → 39
        #expect(BoxBlur.boxSize(radius: 1) == 3)    // 2 → 3
        #expect(BoxBlur.boxSize(radius: 0.2) == 1)  // no blur
        #expect(BoxBlur.boxSize(radius: 0) == 1 && BoxBlur.boxSize(radius: -3) == 1 && BoxBlur.boxSize(radius: .nan) == 1)
        #expect(BoxBlur.boxSize(radius: 1e12) == BoxBlur.maxBoxSize)
    }

    /// Three clamped box passes per axis in Double: the vectorised integer version must agree
    /// to within rounding, including widths that are not a multiple of four (the scalar tail).
    @Test(arguments: [(37, 23, 5.0), (64, 9, 30.0), (5, 70, 3.0), (1, 1, 8.0)])
    func matchesAReferenceBoxBlur(width: Int, height: Int, radius: Double) throws {
        let b = try Bitmap(width: width, height: height)
        var seed: UInt32 = 12345
        var pixels = [[Double]](repeating: [0, 0, 0, 0], count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 1_103_515_245 &+ 12345
                let a = UInt32(seed >> 24), c = (0..<3).map { UInt32(seed >> (8 * $0)) & 0xff * a / 255 }
                let p = a << 24 | min(c[0], a) << 16 | min(c[1], a) << 8 | min(c[2], a)
                (b.data + y * b.stride).storeBytes(of: p, toByteOffset: x * 4, as: UInt32.self)
                pixels[y * width + x] = [Double(p >> 24), Double((p >> 16) & 0xff), Double((p >> 8) & 0xff), Double(p & 0xff)]
            }
        }
        let r = BoxBlur.boxSize(radius: radius) / 2
        func pass(_ src: [[Double]], horizontal: Bool) -> [[Double]] {
            var out = src
            for y in 0..<height {
                for x in 0..<width {
                    var sum = [0.0, 0, 0, 0]
                    for k in -r...r {
                        let sx = horizontal ? min(width - 1, max(0, x + k)) : x
                        let sy = horizontal ? y : min(height - 1, max(0, y + k))
                        for c in 0..<4 { sum[c] += src[sy * width + sx][c] }
                    }
                    out[y * width + x] = sum.map { $0 / Double(2 * r + 1) }
                }
            }
            return out
        }
        var reference = pixels
        for _ in 0..<3 { reference = pass(reference, horizontal: false) }
        for _ in 0..<3 { reference = pass(reference, horizontal: true) }
        let out = try b.blurred(radius: radius)
        var worst = 0.0
        for y in 0..<height {
            for x in 0..<width {
                let p = out.argb32(x: x, y: y)
                let got = [Double(p >> 24), Double((p >> 16) & 0xff), Double((p >> 8) & 0xff), Double(p & 0xff)]
                for c in 0..<4 { worst = max(worst, abs(got[c] - reference[y * width + x][c])) }
                #expect((p >> 16) & 0xff <= p >> 24 && (p >> 8) & 0xff <= p >> 24 && p & 0xff <= p >> 24, "stays premultiplied")
            }
        }
        #expect(worst <= 2.5, "max channel error \(worst)")
    }

    /// Apple's saturation matrix, c' = lum + s·(c − lum) with Rec. 709 luminance, by hand:
    /// (100, 150, 200) has lum 142.98; s = 1.8 gives (65.6, 155.6, 245.6).
    @Test func saturationMatchesAppleMatrix() throws {
        let b = try Bitmap(width: 5, height: 3)
        b.fill(Color(rgb: 0x6496c8))
        let p = try b.blurred(radius: 0, saturationDeltaFactor: 1.8).argb32(x: 2, y: 1)
        #expect(abs(Int((p >> 16) & 0xff) - 66) <= 1 && abs(Int((p >> 8) & 0xff) - 156) <= 1 && abs(Int(p & 0xff) - 246) <= 1,
                "\(String(p, radix: 16))")
    }

    @Test func saturationAndTintKeepPremultipliedPixelsValid() throws {
        let b = try Bitmap(width: 13, height: 7)
        b.fill(Color(red: 0.9, green: 0.2, blue: 0.1, alpha: 0.4))
        let out = try b.blurred(radius: 2, tintColor: Color(white: 0.5, alpha: 0.3), saturationDeltaFactor: 1.8)
        for y in 0..<7 {
            for x in 0..<13 {
                let p = out.argb32(x: x, y: y), a = p >> 24
                #expect((p >> 16) & 0xff <= a && (p >> 8) & 0xff <= a && p & 0xff <= a)
            }
        }
        // Tint over: alpha = 0.3 + 0.4·0.7 = 0.58.
        #expect(abs(Int(out.argb32(x: 6, y: 3) >> 24) - 148) <= 1)
    }

    @Test func tintAndSaturation() throws {
        let b = try Bitmap(width: 8, height: 8)
        b.fill(Color(rgb: 0xff0000))
        let grey = try b.blurred(radius: 0, saturationDeltaFactor: 0)
        let p = grey.argb32(x: 4, y: 4)
        #expect((p >> 16) & 0xff == p & 0xff && (p >> 8) & 0xff == p & 0xff, "desaturated is grey: \(String(p, radix: 16))")
        let tinted = try b.blurred(radius: 0, tintColor: Color(white: 1, alpha: 0.5))
        #expect(tinted.argb32(x: 4, y: 4) & 0xff >= 0x7f)
    }
}
