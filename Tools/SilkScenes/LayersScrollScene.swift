import SilkGeometry
import SilkRaster
import SilkRender

/// The frame-machinery benchmark: 200 opaque full-width bitmaps (160 points tall) in a clipping
/// container, scrolled at a constant speed by moving the container's bounds origin. Nothing is
/// re-rasterized while scrolling; each frame is pure compositing.
public final class LayersScrollScene {
    public let container = Layer()
    public let contentHeight: Double
    public let viewport: Size
    public let speed: Double

    public init(root: Layer, viewport: Size, scale: Double, rows: Int = 200, rowHeight: Double = 160,
                speed: Double = 1200) throws {
        self.viewport = viewport
        self.speed = speed
        contentHeight = Double(rows) * rowHeight
        container.frame = Rect(size: viewport)
        container.clipsToBounds = true
        container.name = "scroll"
        root.addSublayer(container)
        let palette: [UInt32] = [0x1b998b, 0xed6a5a, 0xf3c13a, 0x2d3047, 0x5d576b, 0x9bc53d, 0x4c86a8]
        for row in 0..<rows {
            let layer = Layer()
            layer.frame = Rect(x: 0, y: Double(row) * rowHeight, width: viewport.width, height: rowHeight)
            let bitmap = try Bitmap(size: layer.frame.size, scale: scale)
            let c = Canvas(bitmap: bitmap, scale: scale)
            let base = Color(rgb: palette[row % palette.count])
            c.fill(Rect(size: layer.frame.size), with: .linearGradient(LinearGradient(
                start: .zero, end: Point(x: viewport.width, y: rowHeight),
                stops: [GradientStop(0, base), GradientStop(1, base.mixed(with: .white, 0.35))])))
            for k in 0..<8 {
                c.fillRoundedRect(Rect(x: 24 + Double(k) * (viewport.width - 48) / 8, y: 24, width: (viewport.width - 48) / 8 - 16,
                                       height: rowHeight - 48), cornerRadius: 12, with: .color(.white.withAlpha(0.25)))
            }
            layer.contents = bitmap
            layer.contentsScale = scale
            layer.isOpaque = true
            layer.name = "row \(row)"
            container.addSublayer(layer)
        }
    }

    /// Scroll position at `time` seconds: down at `speed`, wrapping at the end of the content.
    public func update(time: Double) {
        let range = max(1, contentHeight - viewport.height)
        let y = (time * speed).truncatingRemainder(dividingBy: range)
        container.bounds.origin = Point(x: 0, y: y.rounded())
    }
}
