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
        #expect(uncancelled > 90)
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
