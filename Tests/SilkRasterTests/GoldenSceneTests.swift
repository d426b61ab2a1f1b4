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
        let b = try ShapesScene.render(size: ShapesScene.defaultSize, scale: scale)
        try Golden.verify(b, named: "shapes@\(Int(scale))x", in: dir)
    }
}
