import Testing
import SilkGeometry
import SilkRaster
import SilkTestSupport
@testable import SilkRender

/// Shadows, group opacity and rounded subtree clipping (both modes), composited; goldens in
/// Tests/SilkRenderTests/Golden (`make record-golden`).
@Suite struct LayerEffectsTests {
    let dir = Golden.directory()

    func render(_ root: Layer, scale: Double = 1) throws -> Bitmap {
        let c = try Compositor(pixelWidth: Int(root.bounds.width * scale), pixelHeight: Int(root.bounds.height * scale),
                               scale: scale, clearColor: .white)
        c.compositeFully(root.snapshot(), at: 0)
        return c.backBuffer
    }

    func card(_ frame: Rect, _ color: Color, radius: Double = 0) -> Layer {
        let l = Layer()
        l.frame = frame; l.backgroundColor = color; l.cornerRadius = radius
        return l
    }

    @Test(arguments: [1.0, 2.0])
    func shadows(scale: Double) throws {
        let root = card(Rect(x: 0, y: 0, width: 300, height: 110), Color(white: 0.95))
        let specs: [Shadow] = [
            Shadow(color: Color(white: 0, alpha: 0.5), offset: Point(x: 0, y: 4), blurRadius: 6),
            Shadow(color: Color(red: 0.9, green: 0.2, blue: 0.1, alpha: 0.8), offset: Point(x: 6, y: 6), blurRadius: 0, spread: 2),
            Shadow(color: Color(white: 0, alpha: 0.6), offset: .zero, blurRadius: 12, spread: 4),
        ]
        for (i, s) in specs.enumerated() {
            let c = card(Rect(x: 20 + Double(i) * 95, y: 25, width: 70, height: 55), .white, radius: 10)
            c.shadow = s
            root.addSublayer(c)
        }
        let b = try render(root, scale: scale)
        // Below the first card the shadow darkens the background; far away it does not.
        #expect(b.argb32(x: Int(55 * scale), y: Int(84 * scale)) != Color(white: 0.95).premultipliedARGB32)
        #expect(b.argb32(x: Int(55 * scale), y: Int(105 * scale)) == b.argb32(x: 2, y: Int(105 * scale)))
        // The sharp offset shadow: solid red just right of the second card's right edge, below its top.
        #expect((b.argb32(x: Int(189 * scale), y: Int(50 * scale)) >> 16) & 0xFF > 200)
        try Golden.verify(b, named: "shadows@\(Int(scale))x", in: dir)
    }

    @Test func groupOpacityBlendsTheSubtreeAsOne() throws {
        func scene(group: Bool) -> Layer {
            let root = card(Rect(x: 0, y: 0, width: 120, height: 80), .white)
            let g = Layer()
            g.frame = Rect(x: 10, y: 10, width: 100, height: 60)
            g.opacity = 0.5
            g.rendersAsGroup = group
            g.addSublayer(card(Rect(x: 0, y: 0, width: 60, height: 60), .blue))
            g.addSublayer(card(Rect(x: 40, y: 0, width: 60, height: 60), .red))
            root.addSublayer(g)
            return root
        }
        let grouped = try render(scene(group: true))
        let plain = try render(scene(group: false))
        // Grouped: the overlap shows only the red square at 50 %; ungrouped, blue shows through.
        #expect(grouped.argb32(x: 60, y: 40) == grouped.argb32(x: 100, y: 40))
        #expect(plain.argb32(x: 60, y: 40) != plain.argb32(x: 100, y: 40))
        try Golden.verify(grouped, named: "group-opacity@1x", in: dir)
    }

    @Test func roundedSubtreeClipping() throws {
        let root = card(Rect(x: 0, y: 0, width: 250, height: 90), Color(rgb: 0xEEEEEE))
        let modes: [CornerClipping?] = [nil, .clip, .precomposited(Color(rgb: 0xEEEEEE))]
        for (i, mode) in modes.enumerated() {
            let box = card(Rect(x: 10 + Double(i) * 80, y: 10, width: 70, height: 70), .white, radius: 18)
            box.clipsToBounds = mode != nil
            if let mode { box.cornerClipping = mode }
            box.borderColor = Color(rgb: 0x2B6CB0); box.borderWidth = 2
            // A child that fills the box: only the clip rounds it.
            box.addSublayer(card(Rect(x: -5, y: -5, width: 80, height: 45), Color(rgb: 0xDD6B20)))
            root.addSublayer(box)
        }
        let b = try render(root, scale: 2)
        // The top-left corner pixel of each box: the child shows without clipping, the
        // background with either rounding mode.
        let bg = Color(rgb: 0xEEEEEE).premultipliedARGB32
        #expect(b.argb32(x: 22, y: 22) != bg)
        #expect(b.argb32(x: 182, y: 22) == bg)
        #expect(b.argb32(x: 342, y: 22) == bg)
        // Inside, the child shows in all three.
        #expect(b.argb32(x: 90, y: 50) == b.argb32(x: 250, y: 50))
        try Golden.verify(b, named: "rounded-clipping@2x", in: dir)
    }

    /// Damage: changing a shadow or a group's child repaints it (the property test checks the
    /// pixels; this checks the damage reaches the blurred edge).
    @Test func shadowChangesDamageTheirBlur() throws {
        let root = card(Rect(x: 0, y: 0, width: 100, height: 100), .white)
        let c = card(Rect(x: 30, y: 30, width: 40, height: 40), .white)
        root.addSublayer(c)
        let comp = try Compositor(pixelWidth: 100, pixelHeight: 100)
        comp.composite(root.snapshot(), at: 0)
        c.shadow = Shadow(offset: Point(x: 0, y: 0), blurRadius: 5)
        let frame = comp.composite(root.snapshot(), at: 0.016)
        let box = frame.damage.rects.reduce(Rect.null) { $0.union($1) }
        #expect(box.minX <= 15 && box.maxX >= 85)
    }
}
