import Foundation
import Testing
import SilkGeometry
import SilkRaster
import SilkSystem
import SilkTestSupport

/// Vector paths (cairo): fill rules, strokes (caps, joins, dashes), gradients, transform and
/// clip, and absurd input. Goldens: `make record-golden`.
@Suite struct PathTests {
    let dir = Golden.directory()

    /// A five-pointed star drawn as one self-crossing outline (the pentagram): its centre is
    /// wound twice, so non-zero fills it and even-odd leaves it empty.
    static func star(center c: Point, radius r: Double) -> Path {
        var p = Path()
        for k in 0..<5 {
            let a = -Double.pi / 2 + Double(k) * 4 * Double.pi / 5
            let pt = Point(x: c.x + r * cos(a), y: c.y + r * sin(a))
            if k == 0 { p.move(to: pt) } else { p.addLine(to: pt) }
        }
        p.closeSubpath()
        return p
    }

    static func alpha(_ b: Bitmap, _ x: Int, _ y: Int) -> UInt32 { b.argb32(x: x, y: y) >> 24 }

    @Test(arguments: [1.0, 2.0])
    func fillRules(scale: Double) throws {
        let b = try Bitmap(width: Int(240 * scale), height: Int(120 * scale))
        let c = Canvas(bitmap: b, scale: scale)
        c.clear(.white)
        let color = Paint.color(Color(red: 0.1, green: 0.3, blue: 0.8))
        c.fill(Self.star(center: Point(x: 60, y: 62), radius: 50), rule: .nonZero, with: color)
        c.fill(Self.star(center: Point(x: 180, y: 62), radius: 50), rule: .evenOdd, with: color)
        // Non-zero fills the pentagon in the middle, even-odd leaves it white.
        #expect(b.argb32(x: Int(60 * scale), y: Int(62 * scale)) != 0xFFFF_FFFF)
        #expect(b.argb32(x: Int(180 * scale), y: Int(62 * scale)) == 0xFFFF_FFFF)
        // Both fill a point.
        #expect(b.argb32(x: Int(60 * scale), y: Int(20 * scale)) != 0xFFFF_FFFF)
        #expect(b.argb32(x: Int(180 * scale), y: Int(20 * scale)) != 0xFFFF_FFFF)
        try Golden.verify(b, named: "path-fill-rules@\(Int(scale))x", in: dir)
    }

    @Test func capsJoinsAndDashes() throws {
        let b = try Bitmap(width: 300, height: 260)
        let c = Canvas(bitmap: b)
        c.clear(.white)
        let ink = Paint.color(Color(white: 0.15))
        // Caps: the same 20-point-wide segment from x 40 to 120 with butt, round, square caps.
        for (i, cap) in [LineCap.butt, .round, .square].enumerated() {
            var p = Path(); p.move(to: Point(x: 40, y: 30 + Double(i) * 35)); p.addLine(to: Point(x: 120, y: 30 + Double(i) * 35))
            c.stroke(p, style: StrokeStyle(lineWidth: 20, lineCap: cap), with: ink)
        }
        #expect(b.argb32(x: 34, y: 30) == 0xFFFF_FFFF)  // butt: nothing before the start
        #expect(b.argb32(x: 34, y: 65) != 0xFFFF_FFFF)  // round: half a disc before it
        #expect(b.argb32(x: 32, y: 100) != 0xFFFF_FFFF)  // square: half the width before it
        // Joins: a zigzag with miter, round and bevel joins.
        for (i, join) in [LineJoin.miter, .round, .bevel].enumerated() {
            let x0 = 160 + Double(i) * 45
            var p = Path()
            p.addLines([Point(x: x0, y: 110), Point(x: x0 + 17, y: 20), Point(x: x0 + 34, y: 110)])
            c.stroke(p, style: StrokeStyle(lineWidth: 10, lineJoin: join), with: ink)
        }
        #expect(b.argb32(x: 177, y: 8) != 0xFFFF_FFFF)  // the miter's tip reaches above the apex
        #expect(b.argb32(x: 267, y: 8) == 0xFFFF_FFFF)  // the bevel's does not
        // A miter limit of 1 turns the miter into a bevel.
        var sharp = Path(); sharp.addLines([Point(x: 20, y: 240), Point(x: 37, y: 150), Point(x: 54, y: 240)])
        c.stroke(sharp, style: StrokeStyle(lineWidth: 10, lineJoin: .miter, miterLimit: 1), with: ink)
        #expect(b.argb32(x: 37, y: 138) == 0xFFFF_FFFF)
        // Dashes: even pattern, odd pattern (repeats doubled), phase; round-capped dots.
        let patterns: [([Double], Double, LineCap)] = [([12, 6], 0, .butt), ([12, 6, 3], 0, .butt), ([12, 6], 9, .butt), ([0, 10], 0, .round)]
        for (i, (dashes, phase, cap)) in patterns.enumerated() {
            var p = Path(); p.move(to: Point(x: 80, y: 160 + Double(i) * 22)); p.addLine(to: Point(x: 290, y: 160 + Double(i) * 22))
            c.stroke(p, style: StrokeStyle(lineWidth: 6, lineCap: cap, dashes: dashes, dashPhase: phase), with: ink)
        }
        #expect(b.argb32(x: 86, y: 160) != 0xFFFF_FFFF)   // in the first dash
        #expect(b.argb32(x: 95, y: 160) == 0xFFFF_FFFF)   // in the first gap
        // A dashed curve (an arc) as a gauge track.
        var arc = Path(); arc.addArc(center: Point(x: 150, y: 235), radius: 20, startAngle: .pi, endAngle: 2 * .pi)
        c.stroke(arc, style: StrokeStyle(lineWidth: 4, dashes: [4, 3]), with: .color(.red))
        try Golden.verify(b, named: "path-strokes@1x", in: dir)
    }

    @Test func curvesGradientsTransformAndClip() throws {
        let b = try Bitmap(width: 200, height: 160)
        let c = Canvas(bitmap: b, scale: 1)
        c.clear(.white)
        var blob = Path()
        blob.move(to: Point(x: 20, y: 80))
        blob.addQuadCurve(to: Point(x: 100, y: 20), control: Point(x: 20, y: 20))
        blob.addCurve(to: Point(x: 100, y: 140), control1: Point(x: 180, y: 20), control2: Point(x: 180, y: 140))
        blob.addArc(center: Point(x: 60, y: 110), radius: 30, startAngle: 0, endAngle: .pi, clockwise: true)
        blob.closeSubpath()
        c.fill(blob, with: .linearGradient(LinearGradient(start: Point(x: 20, y: 0), end: Point(x: 180, y: 0),
                                                          stops: [GradientStop(0, .red), GradientStop(1, .blue)])))
        // Transformed and clipped: a rotated rounded rectangle clipped to the right half.
        c.withSavedState {
            c.clip(to: Rect(x: 150, y: 0, width: 50, height: 160))
            c.translate(x: 150, y: 80)
            c.rotate(by: .pi / 6)
            c.multiplyOpacity(0.5)
            var rr = Path(); rr.addRoundedRect(Rect(x: -30, y: -30, width: 60, height: 60), cornerRadius: 12)
            c.fill(rr, with: .color(.green))
        }
        // The clip holds: left of x 150 the green shape left nothing (the blob is red/blue there).
        for y in stride(from: 0, to: 160, by: 4) {
            let p = b.argb32(x: 149, y: y)
            #expect(!(((p >> 8) & 0xFF) > 200 && ((p >> 16) & 0xFF) < 100), "green leaked at y \(y)")
        }
        #expect(b.argb32(x: 30, y: 80) & 0x00FF_0000 > 0x00C0_0000)  // reddish on the left
        try Golden.verify(b, named: "path-curves@1x", in: dir)
    }

    @Test func absurdInputDrawsNothingOrFinishes() throws {
        let b = try Bitmap(width: 64, height: 64)
        let c = Canvas(bitmap: b)
        var nan = Path(); nan.move(to: Point(x: 0, y: 0)); nan.addLine(to: Point(x: .nan, y: 10)); nan.addLine(to: Point(x: 60, y: 60))
        c.fill(nan, with: .color(.red))
        c.stroke(nan, style: StrokeStyle(lineWidth: 3), with: .color(.red))
        #expect((0..<64).allSatisfy { b.argb32(x: $0, y: $0) == 0 })
        // Enormous coordinates, widths and a pattern of millions of dashes finish (drawn solid).
        var huge = Path(); huge.move(to: Point(x: -1e12, y: -1e12)); huge.addLine(to: Point(x: 1e12, y: 1e12)); huge.addLine(to: Point(x: 1e300, y: -1e300))
        c.fill(huge, with: .color(.red))
        c.stroke(huge, style: StrokeStyle(lineWidth: 1e9, lineJoin: .round), with: .color(.blue))
        var long = Path(); long.move(to: Point(x: 0, y: 32)); long.addLine(to: Point(x: 4e6, y: 32))
        c.stroke(long, style: StrokeStyle(lineWidth: 2, dashes: [0.001, 0.001]), with: .color(.black))
        #expect(b.argb32(x: 10, y: 32) >> 24 == 255)
        // Invalid dash patterns (negative, all zero, infinite) stroke solid; zero width draws nothing.
        let d = try Bitmap(width: 40, height: 10)
        let dc = Canvas(bitmap: d)
        for dashes in [[-1.0, 2], [0, 0], [Double.infinity, 1]] {
            var p = Path(); p.move(to: Point(x: 0, y: 5)); p.addLine(to: Point(x: 40, y: 5))
            dc.stroke(p, style: StrokeStyle(lineWidth: 2, dashes: dashes), with: .color(.black))
        }
        #expect(d.argb32(x: 20, y: 5) >> 24 == 255)
        var p = Path(); p.move(to: Point(x: 0, y: 2)); p.addLine(to: Point(x: 40, y: 2))
        dc.stroke(p, style: StrokeStyle(lineWidth: 0), with: .color(.black))
        dc.stroke(p, style: StrokeStyle(lineWidth: .nan), with: .color(.black))
        #expect(d.argb32(x: 20, y: 1) == 0)
        // A singular transform draws nothing.
        dc.scale(x: 0, y: 1)
        dc.fill(Self.star(center: Point(x: 5, y: 5), radius: 5), with: .color(.red))
    }

    /// Threads: display queues draw paths into their own bitmaps at the same time; every result
    /// equals a single-threaded render (no shared cairo state).
    @Test func concurrentDrawingMatches() throws {
        @Sendable func render() throws -> Bitmap {
            let b = try Bitmap(width: 96, height: 96)
            let c = Canvas(bitmap: b, scale: 1)
            c.fill(Self.star(center: Point(x: 48, y: 48), radius: 44), rule: .evenOdd, with: .color(.blue))
            var ring = Path(); ring.addEllipse(in: Rect(x: 8, y: 8, width: 80, height: 80))
            c.stroke(ring, style: StrokeStyle(lineWidth: 3, dashes: [5, 2]), with: .color(.red))
            return b
        }
        let reference = try render()
        let mismatches = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            for _ in 0..<10 {
                guard let b = try? render() else { mismatches.withLock { $0 += 1 }; continue }
                if (try? Golden.compare(b, reference, tolerance: 0))?.0.differingPixels != 0 { mismatches.withLock { $0 += 1 } }
            }
        }
        #expect(mismatches.withLock { $0 } == 0)
    }
}
