import Foundation
import SilkGeometry
import SilkRender

/// The hit-test debug overlay (Texture's `enableHitTestDebug`): with
/// `ControlNode.showsHitTestDebugOverlay` on, a translucent tint covers every control's hit
/// area — its bounds grown by `hitTestSlop`, cut by clipping ancestors — so slop can be tuned
/// by eye on the device.
///
/// It is one layer the dispatcher keeps above the root node's layer, in the window's host
/// layer, with a tile per control, computed from the same geometry hit testing uses. It is
/// refreshed after every event and `tick(now:)`, and by `updateHitTestDebugOverlay()`.
final class HitTestDebugOverlay {
    let layer = Layer()
    private var tiles: [Layer] = []

    init() { layer.name = "hit-test debug overlay" }

    func update(areas: [Rect], in host: Layer) {
        if layer.superlayer !== host || host.sublayers.last !== layer {
            layer.removeFromSuperlayer()
            host.addSublayer(layer)
        }
        let size = host.frame.size
        if layer.frame != Rect(size: size) { layer.frame = Rect(size: size) }
        while tiles.count < areas.count {
            let tile = Layer()
            tile.name = "hit area"
            tile.backgroundColor = ControlNode.hitTestDebugOverlayColor
            tiles.append(tile)
        }
        if tiles.count > areas.count { tiles.removeLast(tiles.count - areas.count) }
        for (tile, rect) in zip(tiles, areas) {
            tile.frame = rect
            tile.backgroundColor = ControlNode.hitTestDebugOverlayColor
        }
        if layer.sublayers.count != tiles.count || !zip(layer.sublayers, tiles).allSatisfy({ $0 === $1 }) {
            layer.setSublayers(tiles)
        }
    }

    func remove() { layer.removeFromSuperlayer() }
}

extension InputDispatcher {
    /// Refreshes the hit-test debug overlay now (after a layout change the dispatcher did not
    /// see). Main thread; does nothing while `ControlNode.showsHitTestDebugOverlay` is off.
    public func updateHitTestDebugOverlay() { updateDebugOverlay() }

    /// The overlay's layer, while it is shown (tests look at its tiles). Main thread.
    public var hitTestDebugOverlayLayer: Layer? { debugOverlay?.layer }

    func updateDebugOverlay() {
        guard ControlNode.showsHitTestDebugOverlay else {
            if let overlay = debugOverlay { overlay.remove(); debugOverlay = nil }
            return
        }
        guard let host = rootNode.layer?.superlayer else { return }
        let overlay = debugOverlay ?? HitTestDebugOverlay()
        debugOverlay = overlay
        overlay.update(areas: visibleHitAreas(in: rootNode) { $0 is ControlNode }.map(\.rect), in: host)
    }
}
