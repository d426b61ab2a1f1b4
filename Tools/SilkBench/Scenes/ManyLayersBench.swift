import Foundation
import SilkGeometry
import SilkRender

/// `many-layers`: 200 overlapping translucent layers (alpha 0.35, 80–240 pt rounded squares on
/// whole points, corner radius 12) moving on Lissajous paths, positions set on the main thread every frame. Most of the screen is damaged
/// every frame and repainted with blending (no opaque layer to cut the work): the compositor's
/// worst case. Layer-only, so there is no sync run.
public final class ManyLayersBench: BenchScene {
    public static let name = "many-layers"
    public static let summary = "200 overlapping translucent layers moving every frame (blending over most of the screen)"
    public static let supportsSync = false
    struct Mover { let layer: Layer; let size: Double; let fx: Double; let fy: Double; let phase: Double }
    let movers: [Mover]
    let viewport: Size

    public init(stage: BenchStage) throws {
        viewport = stage.size
        let palette: [UInt32] = [0x1b998b, 0xed6a5a, 0xf3c13a, 0x2d3047, 0x5d576b, 0x9bc53d, 0x4c86a8, 0xe84855]
        var rng = SplitMix64(seed: 9)
        var movers: [Mover] = []
        for i in 0..<200 {
            let layer = Layer()
            let size = (80 + rng.unit() * 160).rounded()
            layer.frame = Rect(x: 0, y: 0, width: size, height: size)
            layer.backgroundColor = Color(rgb: palette[i % palette.count]).withAlpha(0.35)
            layer.cornerRadius = 12
            layer.name = "mover \(i)"
            stage.root.addSublayer(layer)
            movers.append(Mover(layer: layer, size: size, fx: 0.15 + rng.unit() * 0.35, fy: 0.1 + rng.unit() * 0.3,
                                phase: rng.unit() * 2 * .pi))
        }
        self.movers = movers
        stage.background = Color(rgb: 0xf7f7f2)
        update(time: 0)
    }

    public func update(time: Double) {
        for m in movers {
            let x = (viewport.width - m.size) * (0.5 + 0.5 * sin(2 * .pi * m.fx * time + m.phase))
            let y = (viewport.height - m.size) * (0.5 + 0.5 * sin(2 * .pi * m.fy * time + 1.7 * m.phase))
            m.layer.frame = Rect(x: x.rounded(), y: y.rounded(), width: m.size, height: m.size)
        }
    }
}
