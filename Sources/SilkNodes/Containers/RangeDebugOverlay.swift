import Foundation
import SilkGeometry
import SilkRaster

/// `SILK_DEBUG_RANGES=1`: drawn over a container's items, the edges of the preload (blue) and
/// display (green) ranges where they fall inside the viewport, an outline per item in range
/// coloured by its state (red: visible, green: display, blue: preload only), and the range mode.
/// Redrawn after every range update (a debugging aid: it costs a small display job per scroll).
final class RangeDebugOverlayNode: DisplayNode, @unchecked Sendable {
    struct Parameters: Sendable {
        let rects: RangeRects
        let mode: RangeMode
        let items: [(Rect, InterfaceState)]
        let offset: Point
    }
    private var _parameters: Parameters?

    override init() {
        super.init()
        name = "range-debug"
        isUserInteractionEnabled = false
    }

    override class var drawsContent: Bool { true }

    /// Main thread: positions the overlay over the viewport and redraws it.
    func show(rects: RangeRects, mode: RangeMode, items: [(Rect, InterfaceState)], offset: Point, size: Size) {
        lock.withLock { _parameters = Parameters(rects: rects, mode: mode, items: items, offset: offset) }
        frame = Rect(origin: offset, size: size)
        setNeedsDisplay()
    }

    override func drawParameters() -> (any Sendable)? { lock.withLock { _parameters } }

    override class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {
        guard let p = parameters as? Parameters else { return }
        let c = context.canvas
        let o = p.offset
        func local(_ r: Rect) -> Rect { Rect(x: r.minX - o.x, y: r.minY - o.y, width: r.width, height: r.height) }
        for (frame, state) in p.items {
            let color: Color = state.contains(.visible) ? Color(red: 1, green: 0.2, blue: 0.2)
                : state.contains(.display) ? Color(red: 0.2, green: 0.9, blue: 0.2) : Color(red: 0.3, green: 0.5, blue: 1)
            c.strokeRoundedRect(local(frame).insetBy(dx: 2, dy: 2), cornerRadius: 0, lineWidth: 2, with: .color(color))
        }
        // Range edges that fall inside the viewport, as 3-point bands.
        let b = context.bounds
        for (r, color) in [(p.rects.preload, Color(red: 0.3, green: 0.5, blue: 1)), (p.rects.display, Color(red: 0.2, green: 0.9, blue: 0.2))] {
            let l = local(r)
            for y in [l.minY, l.maxY] where y > 0 && y < b.height { c.fill(Rect(x: 0, y: y - 1.5, width: b.width, height: 3), with: .color(color)) }
            for x in [l.minX, l.maxX] where x > 0 && x < b.width { c.fill(Rect(x: x - 1.5, y: 0, width: 3, height: b.height), with: .color(color)) }
        }
        let label = AttributedText("ranges: \(p.mode.rawValue)", attributes: TextAttributes(fontSize: 12, color: .white))
        c.fill(Rect(x: b.width - 130, y: 4, width: 126, height: 20), with: .color(Color(white: 0, alpha: 0.6)))
        c.draw(TextLayout(text: label, constrainedTo: Size(width: 120, height: 20), maximumLines: 1), at: Point(x: b.width - 126, y: 6))
    }
}
