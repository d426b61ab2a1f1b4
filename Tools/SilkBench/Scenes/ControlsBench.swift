import Foundation
import SilkGeometry
import SilkNodes
import SilkScenes

/// `controls`: the controls gallery (both themes, every control in its states) with its
/// indeterminate progress bars and activity indicators animating on the render thread's clock,
/// and per frame one value change the app makes: a slider and a determinate progress bar per
/// panel move (two small display jobs per panel and frame: on the display queues in async mode,
/// on the main thread during the pass in sync mode).
public final class ControlsBench: BenchScene {
    public static let name = "controls"
    public static let summary = "controls gallery, light and dark: 2 sweeping progress bars, 2 activity indicators; a slider and a progress bar per panel move every frame"
    public static let supportsSync = true
    /// The spinners and sweeps animate for ever: frames on a real 60 Hz clock.
    public static let presentsOnRealTimeClock = true
    let gallery: ControlsGalleryNode

    public init(stage: BenchStage) throws {
        gallery = NodeSnapshot.buildInBackground { ControlsGalleryNode() }
        stage.background = Theme.light.colors.background
        stage.show(gallery)
    }

    public func update(time: Double) {
        let phase = 0.5 + 0.5 * sin(time * 2 * .pi / 3)
        for p in gallery.panels {
            p.sliders[0].value = phase
            p.progress.progress = (time / 4).truncatingRemainder(dividingBy: 1)
        }
    }

    public var notes: [String] {
        ["controls: \(gallery.panels.count) panels of \(gallery.panels.first.map { $0.focusableControls.count + 4 } ?? 0) controls"]
    }
}
