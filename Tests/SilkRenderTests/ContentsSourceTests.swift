import Testing
import SilkGeometry
import SilkRaster
@testable import SilkRender

/// A layer's `contentsSource` is asked at each frame's time: a new bitmap damages the layer
/// without a commit, and the source's `isAnimating` keeps frames coming.
@Suite struct ContentsSourceTests {
    /// Red before t = 1, blue from then on; animating until t = 1.
    final class TwoFrames: LayerContentsSource, @unchecked Sendable {
        let red: Bitmap, blue: Bitmap
        init() throws {
            red = try Bitmap(width: 10, height: 10); red.fill(.red)
            blue = try Bitmap(width: 10, height: 10); blue.fill(Color(red: 0, green: 0, blue: 1))
        }
        func contents(at time: Double) -> LayerContentsSample {
            LayerContentsSample(bitmap: time < 1 ? red : blue, isAnimating: time < 1)
        }
    }

    @Test func framesComeFromTheSourceAtEachFrameTime() throws {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 40, height: 40)
        root.backgroundColor = .white
        let image = Layer()
        image.frame = Rect(x: 10, y: 10, width: 10, height: 10)
        image.contentsSource = try TwoFrames()
        root.addSublayer(image)
        let snapshot = root.snapshot()
        let c = try Compositor(pixelWidth: 40, pixelHeight: 40)
        let first = c.composite(snapshot, at: 0)
        #expect(first.hasRunningAnimations)
        #expect(c.backBuffer.argb32(x: 15, y: 15) == 0xFFFF_0000)
        // Same snapshot, same frame: no damage.
        #expect(c.composite(snapshot, at: 0.5).damage.isEmpty)
        // Same snapshot, the source's next frame: only the layer is damaged.
        let second = c.composite(snapshot, at: 1)
        #expect(second.damage.area == 100)
        #expect(c.backBuffer.argb32(x: 15, y: 15) == 0xFF00_00FF)
        #expect(!second.hasRunningAnimations)
        // A source that answers nil shows the layer's own contents.
        image.contentsSource = nil
        let own = try Bitmap(width: 10, height: 10); own.fill(Color(red: 0, green: 1, blue: 0))
        image.contents = own
        c.composite(root.snapshot(), at: 2)
        #expect(c.backBuffer.argb32(x: 15, y: 15) == 0xFF00_FF00)
    }
}
