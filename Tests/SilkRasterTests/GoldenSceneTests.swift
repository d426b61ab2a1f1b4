import Testing
import SilkGeometry
import SilkRaster
import SilkScenes
import SilkTestSupport

/// Golden snapshots of the `silk snapshot` scenes (re-record with `make record-golden`).
@Suite struct GoldenSceneTests {
    let dir = Golden.directory()

    @Test(arguments: [1.0, 2.0])
    func shapes(scale: Double) throws {
        try Golden.verify(try ShapesScene.render(size: ShapesScene.defaultSize, scale: scale), named: "shapes@\(Int(scale))x", in: dir)
    }

    @Test func card() throws {
        try Golden.verify(try CardScene.render(size: CardScene.defaultSize, scale: 1), named: "card@1x", in: dir)
    }

    @Test func text() throws {
        try Golden.verify(try TextScene.render(size: Size(width: 800, height: 900), scale: 1), named: "text@1x", in: dir,
                          tolerance: 8, maxDifferingFraction: 0.002)
    }
}
