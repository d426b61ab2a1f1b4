import Testing
@testable import SilkGeometry

@Suite struct GeometryTests {
    @Test func rectIntersectionAndUnion() {
        let a = Rect(x: 0, y: 0, width: 10, height: 10), b = Rect(x: 5, y: 5, width: 10, height: 10)
        #expect(a.intersection(b) == Rect(x: 5, y: 5, width: 5, height: 5))
        #expect(a.union(b) == Rect(x: 0, y: 0, width: 15, height: 15))
        #expect(a.intersection(Rect(x: 20, y: 20, width: 1, height: 1)).isNull)
        #expect(Rect.null.union(a) == a)
    }
    @Test func integralCoversFractionalRect() {
        #expect(Rect(x: 0.5, y: 1.2, width: 2, height: 2).integral == Rect(x: 0, y: 1, width: 3, height: 3))
    }
    @Test func transformInverseRoundTrips() {
        let t = AffineTransform(translationX: 10, y: 20).scaledBy(x: 2, y: 3).rotated(by: 0.3)
        let p = Point(x: 7, y: -4)
        let back = t.inverted!.apply(to: t.apply(to: p))
        #expect(abs(back.x - p.x) < 1e-9 && abs(back.y - p.y) < 1e-9)
        #expect(AffineTransform(scaleX: 0, y: 1).inverted == nil)
    }
    @Test func colorPremultiplication() {
        #expect(Color(red: 1, green: 0, blue: 0, alpha: 0.5).premultipliedARGB32 == 0x8080_0000)
        #expect(Color.white.premultipliedARGB32 == 0xffff_ffff)
        #expect(Color(hex: "#ff8000")?.premultipliedARGB32 == 0xffff_8000)
        #expect(Color(hex: "zz") == nil)
        let c = Color(premultipliedARGB32: 0x8080_0000)
        #expect(abs(c.red - 1) < 0.01 && abs(c.alpha - 0.502) < 0.01)
        #expect(Color(red: .nan, green: 2, blue: -1).premultipliedARGB32 == 0xff00_ff00)
    }
}
