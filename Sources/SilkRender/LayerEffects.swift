import SilkGeometry
import SilkRaster
#if canImport(Glibc)
import Glibc
#endif

/// A drop shadow under a layer: the layer's (rounded) bounds, grown by `spread`, moved by
/// `offset` and blurred by `blurRadius`, drawn in `color` below the background (Core Animation's
/// `shadowPath` of the rounded bounds; CSS `box-shadow`). All lengths are points.
public struct Shadow: Sendable, Hashable {
    /// The shadow's colour and opacity.
    public var color: Color
    /// How far the shadow is moved from the layer (y grows downwards).
    public var offset: Point
    /// The blur's radius (a Gaussian's standard deviation, as `Bitmap.blurred`); 0: a sharp edge.
    /// Clamped to 0…``maximumBlurRadius``.
    public var blurRadius: Double
    /// Grows (or, negative, shrinks) the shape before blurring.
    public var spread: Double

    /// Blur radii beyond this (100 points) are drawn at it: the blurred bitmap grows with the radius.
    public static let maximumBlurRadius = 100.0

    /// A shadow of `color`, moved by `offset`, blurred by `blurRadius`, grown by `spread`.
    public init(color: Color = Color(white: 0, alpha: 0.35), offset: Point = Point(x: 0, y: 2), blurRadius: Double = 6, spread: Double = 0) {
        self.color = color; self.offset = offset; self.blurRadius = blurRadius; self.spread = spread
    }

    /// The values the compositor draws with (non-finite → 0, radius clamped).
    var sanitized: Shadow {
        func f(_ v: Double) -> Double { v.isFinite ? v : 0 }
        return Shadow(color: color, offset: Point(x: f(offset.x), y: f(offset.y)),
                      blurRadius: min(Shadow.maximumBlurRadius, max(0, f(blurRadius))), spread: max(-1e6, min(1e6, f(spread))))
    }

    /// The shadow's shape (before blurring) for a layer with `bounds` and `cornerRadius`.
    func shape(for bounds: Rect, cornerRadius: Double) -> (rect: Rect, radius: Double) {
        let r = bounds.insetBy(dx: -spread, dy: -spread).offsetBy(dx: offset.x, dy: offset.y)
        return (r, cornerRadius > 0 ? max(0, cornerRadius + spread) : 0)
    }

    /// How far the blur reaches beyond the shape, in points.
    var blurExtent: Double { (3 * blurRadius).rounded(.up) }
}

/// How a layer with ``Layer/clipsToBounds`` and a ``Layer/cornerRadius`` rounds its sublayers
/// (Texture's `cornerRoundingType`).
public enum CornerClipping: Sendable, Hashable {
    /// The sublayers are composited offscreen and masked by the rounded bounds: correct over
    /// any background, costs an offscreen pass over the damaged pixels.
    case clip
    /// The sublayers are clipped to the rectangle, then the corners outside the rounded bounds
    /// are painted in `color` (the colour behind the layer): cheap, right only when that colour
    /// is what shows around the layer (Texture's precomposited corners).
    case precomposited(Color)
}

extension Compositor {
    /// Draws `e`'s shadow (below its background), from a blurred bitmap cached by pixel size,
    /// radius and colour.
    func drawShadow(_ e: RenderEntry, canvas: Canvas) {
        guard let shadow = e.shadow, shadow.color.alpha > 0 else { return }
        let s = (e.transform.a * e.transform.a + e.transform.b * e.transform.b).squareRoot()
        guard s > 0, s.isFinite else { return }
        let (shape, radius) = shadow.shape(for: e.bounds, cornerRadius: e.cornerRadius)
        guard shape.width > 0, shape.height > 0 else { return }
        let pad = shadow.blurExtent
        let outer = shape.insetBy(dx: -pad, dy: -pad)
        let key = ShadowKey(width: Int((outer.width * s).rounded(.up)), height: Int((outer.height * s).rounded(.up)),
                            pad: pad * s, radius: radius * s, blur: shadow.blurRadius * s, color: shadow.color)
        guard let bitmap = shadowBitmap(key) else { return }
        canvas.draw(bitmap, in: outer, filter: .bilinear)
    }

    private func shadowBitmap(_ key: ShadowKey) -> Bitmap? {
        if let b = shadowCache[key] { return b }
        guard key.width > 0, key.height > 0, let b = try? Bitmap(width: key.width, height: key.height) else { return nil }
        let c = Canvas(bitmap: b)
        let shape = Rect(x: key.pad, y: key.pad, width: Double(key.width) - 2 * key.pad, height: Double(key.height) - 2 * key.pad)
        c.fillRoundedRect(shape, cornerRadius: key.radius, with: .color(key.color))
        let blurred = key.blur >= 0.5 ? ((try? b.blurred(radius: key.blur)) ?? b) : b
        if shadowCache.count >= 64 { shadowCache.removeAll() }
        shadowCache[key] = blurred
        return blurred
    }

    /// Draws a group entry into `visible` (device pixels): its entries are painted offscreen (a
    /// buffer the size of the frame, of which only the touched pages are ever written), then
    /// composited as one — at the group's opacity, through its rounded bounds when it clips.
    func drawGroup(_ e: RenderEntry, visible: Rect, canvas: Canvas, stats: inout Statistics) {
        guard let entries = e.group,
              let layer = try? Bitmap(width: backBuffer.width, height: backBuffer.height) else { return }
        let inner = Canvas(bitmap: layer, scale: 1)
        inner.coverageMasks = coverageMasks
        for child in entries {
            let v = child.deviceRect.intersection(visible)
            guard !v.isEmpty else { continue }
            stats.entriesDrawn += 1
            draw(child, visible: v, canvas: inner, target: layer, stats: &stats)
        }
        canvas.withSavedState {
            canvas.clip(toDeviceRect: visible)
            canvas.multiplyOpacity(e.opacity)
            if e.cornerRadius > 0 {
                // The rounded bounds in device space (groups that clip are axis-aligned).
                let d = e.transform.apply(to: e.bounds)
                let w = Double(layer.width), h = Double(layer.height)
                canvas.draw(layer, in: d, cropRect: Rect(x: d.minX / w, y: d.minY / h, width: d.width / w, height: d.height / h),
                            filter: .nearest, cornerRadius: e.cornerRadius * abs(e.transform.a))
            } else {
                canvas.draw(layer, in: layer.bounds, filter: .nearest)
            }
        }
    }

    /// The four corners outside the rounded bounds, in the precomposited colour.
    /// Each corner is a fan around the square corner's point, through pixman's triangles: the
    /// compositor repaints damage rectangle by rectangle and needs pixels that do not depend on
    /// the clip, which cairo's clipped rasterization does not promise (the property test found a
    /// one-level difference).
    func drawCornerOverlay(_ e: RenderEntry, canvas: Canvas) {
        guard let color = e.backgroundColor else { return }
        let b = e.bounds
        let r = min(e.cornerRadius, min(b.width, b.height) / 2)
        guard r > 0 else { return }
        let n = max(4, min(64, Int((r * abs(e.transform.a)).squareRoot() * 2)))
        let corners: [(Point, Point, Double)] = [
            (Point(x: b.minX, y: b.minY), Point(x: b.minX + r, y: b.minY + r), Double.pi),
            (Point(x: b.maxX, y: b.minY), Point(x: b.maxX - r, y: b.minY + r), 1.5 * Double.pi),
            (Point(x: b.maxX, y: b.maxY), Point(x: b.maxX - r, y: b.maxY - r), 0),
            (Point(x: b.minX, y: b.maxY), Point(x: b.minX + r, y: b.maxY - r), 0.5 * Double.pi),
        ]
        for (corner, center, start) in corners {
            var fan = [corner]
            for k in 0...n {
                let a = start + Double.pi / 2 * Double(k) / Double(n)
                fan.append(Point(x: center.x + r * cos(a), y: center.y + r * sin(a)))
            }
            canvas.fillPolygon(fan, with: .color(color))
        }
    }
}

struct ShadowKey: Hashable {
    var width: Int, height: Int
    var pad: Double, radius: Double, blur: Double
    var color: Color
}
