import Testing
import SilkGeometry
import SilkLayout
import SilkRaster
import SilkRender
@testable import SilkNodes

extension PipelineTests {
    /// A node with a placeholder shows the placeholder colour until its contents arrive, then
    /// the contents fade in over `placeholderFadeDuration` on the frame clock.
    @Suite(.serialized) struct PlaceholderTests {
        @Test func placeholderImageStandsInUntilContentsArrive() throws {
            let root = DisplayNode()
            let gate = Gate()
            let node = ColorNode(.white, size: Size(width: 20, height: 20), gate: gate)
            let stand = try Bitmap(width: 4, height: 4)
            stand.fill(Color(rgb: 0x00ff00))
            node.placeholderEnabled = true
            node.placeholderImage = stand
            root.addSubnode(node)
            root.layoutSpecBlock = { _, _ in WrapperLayoutSpec(node) }
            let h = Harness(root: root, size: Size(width: 40, height: 40))
            h.iterate()
            gate.waitForWaiters(1)
            #expect(node.layer?.contents === stand)
            gate.openGate()
            #expect(h.iterate(until: { node.layer?.contents !== stand && node.layer?.contents != nil }))
            #expect(h.pixel(node, 5, 5) == 0xffff_ffff)
        }

        @Test func placeholderThenFadeOnTheFrameClock() throws {
            let root = DisplayNode()
            root.backgroundColor = .black
            let gate = Gate()
            let node = ColorNode(.white, size: Size(width: 20, height: 20), gate: gate)
            node.placeholderEnabled = true
            node.placeholderColor = Color(rgb: 0x808080)
            node.placeholderFadeDuration = 0.25
            root.addSubnode(node)
            root.layoutSpecBlock = { _, _ in WrapperLayoutSpec(node) }
            let h = Harness(root: root, size: Size(width: 40, height: 40))
            let compositor = try Compositor(pixelWidth: 40, pixelHeight: 40, clearColor: .black)
            h.iterate()
            gate.waitForWaiters(1)
            // While drawing: the placeholder.
            compositor.composite(h.host.snapshot(), at: 0)
            #expect(compositor.backBuffer.argb32(x: 5, y: 5) == 0xff80_8080)
            gate.openGate()
            #expect(h.iterate(until: { node.layer?.contents != nil }))
            // The fade starts at the first frame that shows the contents: 0 → 1 over 0.25 s.
            var samples: [UInt32] = []
            var t = 1.0
            for _ in 0..<20 {
                compositor.composite(h.host.snapshot(), at: t)
                samples.append(compositor.backBuffer.argb32(x: 5, y: 5) & 0xff)
                t += 1.0 / 60
            }
            #expect(samples.first! < 20, "starts transparent over black: \(samples)")
            #expect(samples == samples.sorted(), "brightens monotonically: \(samples)")
            #expect(samples[15...].allSatisfy { $0 == 255 }, "done after 0.25 s (15 frames): \(samples)")
            #expect(samples[7] > 60 && samples[7] < 250, "half way at ~0.12 s: \(samples)")
        }
    }
}
