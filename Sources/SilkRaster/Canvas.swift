import CPixman
import SilkGeometry

/// What a shape is filled or stroked with.
public enum Paint: Sendable, Hashable {
    /// A solid colour.
    case color(Color)
    /// A linear gradient, in the canvas's user space at the time of drawing.
    case linearGradient(LinearGradient)
    /// A radial gradient, in the canvas's user space at the time of drawing.
    case radialGradient(RadialGradient)
}

/// A colour at a position along a gradient; colours between stops are interpolated.
public struct GradientStop: Sendable, Hashable {
    /// Position along the gradient, 0…1.
    public var offset: Double
    /// The colour at ``offset``.
    public var color: Color
    /// A stop of `color` at `offset` (0…1).
    public init(_ offset: Double, _ color: Color) { self.offset = offset; self.color = color }
}

/// A gradient along the line from `start` to `end` (user space); padded beyond the ends.
public struct LinearGradient: Sendable, Hashable {
    /// Where offset 0 and offset 1 lie, in the canvas's user space (points).
    public var start: Point, end: Point
    /// The colour stops, sorted by offset; before the first and after the last, the end colours extend.
    public var stops: [GradientStop]
    /// A gradient from `start` to `end` through `stops` (sorted by offset).
    public init(start: Point, end: Point, stops: [GradientStop]) {
        self.start = start; self.end = end; self.stops = stops
    }
}

/// A circular gradient from `center` (offset 0) to `radius` (offset 1); padded beyond.
public struct RadialGradient: Sendable, Hashable {
    /// The centre (offset 0) and the radius of the circle at offset 1, in user space (points).
    public var center: Point, radius: Double
    /// The colour stops, sorted by offset; beyond the last, its colour extends.
    public var stops: [GradientStop]
    /// A gradient from `center` outwards to `radius` through `stops` (sorted by offset).
    public init(center: Point, radius: Double, stops: [GradientStop]) {
        self.center = center; self.radius = radius; self.stops = stops
    }
}

/// How a bitmap is resampled when drawn at another size.
public enum ImageFilter: Sendable, Hashable {
    /// Nearest neighbour: pixel art, or exact 1:1 copies.
    case nearest
    /// Bilinear: photos drawn near their own size (fast).
    case bilinear
    /// Area-averaging (pixman separable convolution) when shrinking by more than 2×, else
    /// bilinear. Slower; for images scaled once and cached.
    case highQuality
}

/// How an image is fitted into a rectangle; the content modes Texture's ASImageNode offers.
public enum ContentMode: String, Sendable, Hashable, CaseIterable {
    case scaleToFill, aspectFit, aspectFill
    case center, top, bottom, left, right, topLeft, topRight, bottomLeft, bottomRight

    /// The crop rect that keeps the centre of an aspect-filled image (Texture's default).
    public static let defaultCropRect = Rect(x: 0.5, y: 0.5, width: 0, height: 0)

    /// Where an image of `imageSize` (points) lands when fitted into `bounds`, before clipping
    /// to `bounds`. `cropRect` is in unit coordinates of the image: with a zero size its origin
    /// is the anchor of the part kept by `.aspectFill` ((0,0) keeps the top-left, (0.5,0.5) the
    /// centre); with a non-zero size it is handled by the caller cropping the image first.
    public func destinationRect(imageSize: Size, in bounds: Rect, anchor: Point = Point(x: 0.5, y: 0.5)) -> Rect {
        let iw = imageSize.width, ih = imageSize.height
        guard iw > 0, ih > 0 else { return .zero }
        func placed(_ w: Double, _ h: Double, _ fx: Double, _ fy: Double) -> Rect {
            Rect(x: bounds.minX + (bounds.width - w) * fx, y: bounds.minY + (bounds.height - h) * fy, width: w, height: h)
        }
        switch self {
        case .scaleToFill: return bounds
        case .aspectFit:
            let s = min(bounds.width / iw, bounds.height / ih)
            return placed(iw * s, ih * s, 0.5, 0.5)
        case .aspectFill:
            let s = max(bounds.width / iw, bounds.height / ih)
            return placed(iw * s, ih * s, clamp01(anchor.x), clamp01(anchor.y))
        case .center: return placed(iw, ih, 0.5, 0.5)
        case .top: return placed(iw, ih, 0.5, 0)
        case .bottom: return placed(iw, ih, 0.5, 1)
        case .left: return placed(iw, ih, 0, 0.5)
        case .right: return placed(iw, ih, 1, 0.5)
        case .topLeft: return placed(iw, ih, 0, 0)
        case .topRight: return placed(iw, ih, 1, 0)
        case .bottomLeft: return placed(iw, ih, 0, 1)
        case .bottomRight: return placed(iw, ih, 1, 1)
        }
    }
}

/// Draws into a `Bitmap` with pixman: anti-aliased shapes, gradients, bitmaps, under a stack of
/// transforms, clip rectangles and opacity (Core Graphics' gstate model).
///
/// Coordinates are points; the canvas starts with the transform `scale` (device pixels per
/// point), so the same drawing code renders sharp at 1× and 2×. Shapes are tessellated in device
/// space and rasterized as pixman triangles into one A8 coverage mask per call, so adjacent
/// triangles never show seams. Axis-aligned rectangles on the pixel grid skip the mask.
///
/// A canvas is used by one thread at a time (it is not Sendable); display jobs each make their own.
public final class Canvas {
    /// The bitmap this canvas draws into.
    public let bitmap: Bitmap
    /// Device pixels per point this canvas was created with.
    public let scale: Double

    struct State {
        var transform: AffineTransform
        /// Device-space clip rectangle (integral), nil when unclipped.
        var clip: Rect?
        var opacity: Double
    }
    var state: State  // internal: the cairo path drawing (Cairo.swift) reads it
    private var stack: [State] = []
    /// Convex shapes composite the pixels they cover entirely without a mask and rasterize only
    /// the rest (`ConvexTrapezoids.coveredRect`). Off only in tests, which compare both ways.
    var compositesCoveredInteriorUnmasked = true
    /// Solid colours blend over 32-bit bitmaps eight pixels at a time where the CPU allows
    /// (``SolidBlend``; pixman's bytes). Off only in tests, which compare both ways.
    var usesWideBlend = SolidBlend.isEnabled
    /// Where convex shapes' coverage masks are kept between calls (nil: rasterized every time).
    /// The compositor sets its own on the canvases of a frame: its layers draw the same rounded
    /// shapes every frame, often only moved by whole pixels. Same pixels either way.
    public var coverageMasks: CoverageMaskCache?
    /// Draw bitmaps through views of their own (``Bitmap/view()``) instead of their own pixman
    /// images: drawing sets a source's transform, filter and repeat, and pixman validates it on
    /// use, so two threads drawing the same bitmap at once must not share its image. The
    /// compositor's bands set it. Same pixels either way.
    public var isolatesSourceImages = false

    /// A canvas drawing into `bitmap`, with `scale` device pixels per point: user space is in points
    /// and the initial transform scales by `scale`. Unclipped, opacity 1.
    public init(bitmap: Bitmap, scale: Double = 1) {
        self.bitmap = bitmap
        self.scale = scale.isFinite && scale > 0 ? scale : 1
        state = State(transform: AffineTransform(scaleX: self.scale, y: self.scale), clip: nil, opacity: 1)
    }

    // MARK: State

    /// The current user → device transform.
    public var transform: AffineTransform { state.transform }
    /// The multiplier applied to everything drawn (0…1), combined with saved states.
    public var opacity: Double { state.opacity }
    /// The current clip in user space (the device clip mapped back; nil when unclipped).
    public var clipBounds: Rect? {
        guard let c = state.clip else { return nil }
        return state.transform.inverted?.apply(to: c)
    }

    /// Pushes the transform, clip and opacity, to be restored by ``restore()``.
    public func save() { stack.append(state) }
    /// Pops the state the matching ``save()`` pushed; does nothing when none is saved.
    public func restore() {
        if let s = stack.popLast() { state = s }
    }
    /// `save()`, `body`, `restore()`.
    public func withSavedState<R>(_ body: () throws -> R) rethrows -> R {
        save()
        defer { restore() }
        return try body()
    }
    /// Moves user space's origin by `x`, `y` points (the next drawing is offset).
    public func translate(x: Double, y: Double) { state.transform = state.transform.translatedBy(x: x, y: y) }
    /// Scales user space by `x`, `y` about its origin.
    public func scale(x: Double, y: Double) { state.transform = state.transform.scaledBy(x: x, y: y) }
    /// Rotates user space by `radians` about its origin (clockwise on screen, y points down).
    public func rotate(by radians: Double) { state.transform = state.transform.rotated(by: radians) }
    /// Applies `t` before the current transform (user space becomes `t`'s input space).
    public func concatenate(_ t: AffineTransform) { state.transform = t.concatenating(state.transform) }
    /// Multiplies the opacity of everything drawn until the matching `restore()`.
    public func multiplyOpacity(_ alpha: Double) { state.opacity *= clamp01(alpha) }

    /// Intersects the clip with `rect` (user space). Under a rotation the clip is the device
    /// bounding box of the rotated rectangle (documented limitation: clips are rectangles).
    public func clip(to rect: Rect) {
        let device = state.transform.apply(to: rect).integral
        state.clip = (state.clip ?? bitmap.bounds).intersection(device)
        if state.clip!.isNull { state.clip = .zero }
    }

    /// Intersects the clip with a rectangle given in device pixels (made integral).
    public func clip(toDeviceRect rect: Rect) {
        state.clip = (state.clip ?? bitmap.bounds).intersection(rect.integral)
        if state.clip!.isNull { state.clip = .zero }
    }

    /// Replaces every pixel inside the clip with `color` (no blending, ignores opacity).
    public func clear(_ color: Color = .clear) {
        bitmap.fill(color, rect: state.clip ?? bitmap.bounds)
    }

    // MARK: Shapes

    /// Fills `rect` (user space), antialiased unless it lies on the pixel grid.
    public func fill(_ rect: Rect, with paint: Paint) {
        guard rect.size.isValidExtent, !rect.isEmpty else { return }
        let t = state.transform
        if t.b == 0, t.c == 0, case let .color(color) = paint {
            // Fast path: an axis-aligned rectangle whose device edges lie on the pixel grid.
            let d = t.apply(to: rect)
            if d == d.integral {
                fillDeviceBox(d, color: color)
                return
            }
        }
        fillContour(Shapes.rect(rect), with: paint)
    }

    /// Fills `rect` with circular corners of `cornerRadius` points (clamped to half the shorter side).
    public func fillRoundedRect(_ rect: Rect, cornerRadius: Double, with paint: Paint) {
        guard rect.size.isValidExtent, !rect.isEmpty else { return }
        guard cornerRadius > 0, cornerRadius.isFinite else { return fill(rect, with: paint) }
        let n = segments(forRadius: cornerRadius)
        fillContour(coverageMasks?.roundedRect(rect, radius: cornerRadius, segmentsPerCorner: n)
                    ?? Shapes.roundedRect(rect, radius: cornerRadius, segmentsPerCorner: n), with: paint)
    }

    /// Fills the ellipse inscribed in `rect`.
    public func fillEllipse(in rect: Rect, with paint: Paint) {
        guard rect.size.isValidExtent, !rect.isEmpty else { return }
        fillContour(Shapes.ellipse(in: rect, segments: 4 * segments(forRadius: max(rect.width, rect.height) / 2)), with: paint)
    }

    /// Fills a convex polygon (or one star-shaped around its first vertex).
    public func fillPolygon(_ points: [Point], with paint: Paint) {
        guard points.count >= 3, points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return }
        fillContour(points, with: paint)
    }

    /// Strokes the rectangle's outline centred on its edges.
    public func stroke(_ rect: Rect, lineWidth: Double, with paint: Paint) {
        strokeRoundedRect(rect, cornerRadius: 0, lineWidth: lineWidth, with: paint)
    }

    /// Strokes the outline of a rounded rectangle, `lineWidth` points wide, centred on its edges.
    public func strokeRoundedRect(_ rect: Rect, cornerRadius: Double, lineWidth: Double, with paint: Paint) {
        guard rect.size.isValidExtent, lineWidth > 0, lineWidth.isFinite else { return }
        let h = lineWidth / 2
        let outer = rect.insetBy(dx: -h, dy: -h)
        let inner = rect.insetBy(dx: h, dy: h)
        let r = max(0, min(cornerRadius.isFinite ? cornerRadius : 0, min(rect.width, rect.height) / 2))
        if inner.isEmpty {
            return fillRoundedRect(outer, cornerRadius: r > 0 ? r + h : 0, with: paint)
        }
        let n = r > 0 ? segments(forRadius: r + h) : 1
        let o = Shapes.roundedRect(outer, radius: r > 0 ? r + h : 0, segmentsPerCorner: n)
        let i = Shapes.roundedRect(inner, radius: max(0, r - h), segmentsPerCorner: n)
        fillRing(outer: o, inner: i, with: paint)
    }

    /// Strokes the outline of the ellipse inscribed in `rect`, `lineWidth` points wide, centred on it.
    public func strokeEllipse(in rect: Rect, lineWidth: Double, with paint: Paint) {
        guard rect.size.isValidExtent, lineWidth > 0, lineWidth.isFinite else { return }
        let h = lineWidth / 2
        let outer = rect.insetBy(dx: -h, dy: -h), inner = rect.insetBy(dx: h, dy: h)
        if inner.isEmpty { return fillEllipse(in: outer, with: paint) }
        let n = 4 * segments(forRadius: max(outer.width, outer.height) / 2)
        fillRing(outer: Shapes.ellipse(in: outer, segments: n), inner: Shapes.ellipse(in: inner, segments: n), with: paint)
    }

    /// A straight line of `width` with butt caps.
    public func strokeLine(from a: Point, to b: Point, width: Double, with paint: Paint) {
        let len = a.distance(to: b)
        guard len > 0, width > 0, len.isFinite, width.isFinite else { return }
        let nx = -(b.y - a.y) / len * width / 2, ny = (b.x - a.x) / len * width / 2
        fillContour([Point(x: a.x + nx, y: a.y + ny), Point(x: b.x + nx, y: b.y + ny),
                     Point(x: b.x - nx, y: b.y - ny), Point(x: a.x - nx, y: a.y - ny)], with: paint)
    }

    // MARK: Bitmaps

    /// Draws `image` fitted into `rect` by `contentMode`, clipped to `rect`.
    ///
    /// - Parameters:
    ///   - image: the bitmap to draw (premultiplied; it is only read).
    ///   - rect: where to draw, in user space (points).
    ///   - contentMode: how the image is fitted into `rect` (stretched, aspect-fit, aspect-fill,
    ///     centred …).
    ///   - cropRect: unit rect of the image. Zero size: the anchor `.aspectFill` keeps (default
    ///     centre). Non-zero size: only that part of the image is drawn.
    ///   - filter: how pixels are sampled when the image is scaled or rotated.
    ///   - imageScale: image pixels per point (a 2× asset drawn `.center` covers half its pixels).
    ///   - cornerRadius: rounds the drawn image's corners, in points (0: square).
    public func draw(_ image: Bitmap, in rect: Rect, contentMode: ContentMode = .scaleToFill,
                     cropRect: Rect = ContentMode.defaultCropRect, filter: ImageFilter = .bilinear,
                     imageScale: Double = 1, cornerRadius: Double = 0) {
        guard rect.size.isValidExtent, !rect.isEmpty, imageScale > 0, imageScale.isFinite else { return }
        let image = isolatesSourceImages ? (image.view() ?? image) : image
        // Source region in image pixels.
        var src = image.bounds
        var anchor = Point(x: 0.5, y: 0.5)
        if cropRect.width > 0, cropRect.height > 0, cropRect.size.isValidExtent {
            src = Rect(x: cropRect.minX * Double(image.width), y: cropRect.minY * Double(image.height),
                       width: cropRect.width * Double(image.width), height: cropRect.height * Double(image.height))
                .intersection(image.bounds)
            if src.isEmpty { return }
        } else if cropRect.origin.x.isFinite, cropRect.origin.y.isFinite {
            anchor = cropRect.origin
        }
        let dest = contentMode.destinationRect(imageSize: Size(width: src.width / imageScale, height: src.height / imageScale),
                                               in: rect, anchor: anchor)
        guard !dest.isEmpty else { return }
        // user(dest) ← source pixels: scale src → dest, then the canvas transform.
        let place = AffineTransform(translationX: -src.minX, y: -src.minY)
            .concatenating(AffineTransform(scaleX: dest.width / src.width, y: dest.height / src.height))
            .concatenating(AffineTransform(translationX: dest.minX, y: dest.minY))
        let toDevice = place.concatenating(state.transform)
        guard let inverse = toDevice.inverted, var pt = pixmanTransform(inverse) else { return }

        pixman_image_set_transform(image.image, &pt)
        let sx = (inverse.a * inverse.a + inverse.b * inverse.b).squareRoot()
        let sy = (inverse.c * inverse.c + inverse.d * inverse.d).squareRoot()
        setFilter(image.image, filter, scaleX: sx, scaleY: sy, isIdentity: toDevice.isTranslation
                  && toDevice.tx == toDevice.tx.rounded() && toDevice.ty == toDevice.ty.rounded())
        pixman_image_set_repeat(image.image, PIXMAN_REPEAT_PAD)
        defer {
            pixman_image_set_transform(image.image, nil)
            pixman_image_set_filter(image.image, PIXMAN_FILTER_NEAREST, nil, 0)
            pixman_image_set_repeat(image.image, PIXMAN_REPEAT_NONE)
        }

        // The visible part: the image's own rectangle within `rect`, both in user space.
        let visible = dest.intersection(rect)
        guard !visible.isEmpty else { return }
        let mask = state.opacity < 1 ? PixmanImage.solid(Color(white: 0, alpha: state.opacity)) : nil
        let t = state.transform
        let radius = cornerRadius.isFinite ? max(0, cornerRadius) : 0
        if radius > 0 {
            // Rounded corners: the image is the source of an anti-aliased rounded-rect shape.
            let n = segments(forRadius: radius)
            composite(source: image.image, contour: Shapes.roundedRect(rect, radius: radius, segmentsPerCorner: n)
                .map { Point(x: min(max($0.x, visible.minX), visible.maxX), y: min(max($0.y, visible.minY), visible.maxY)) },
                      extraOpacity: state.opacity)
            return
        }
        if t.b == 0, t.c == 0 {
            let d = t.apply(to: visible)
            let box = d.integral.intersection(state.clip ?? bitmap.bounds).intersection(bitmap.bounds)
            guard !box.isEmpty else { return }
            if d == d.integral {
                // Pixel-aligned: composite the (clipped) box directly. The choice must not depend
                // on the clip, or a damage-clipped repaint would differ from a full one.
                pixman_image_composite32(PIXMAN_OP_OVER, image.image, mask?.image, bitmap.image,
                                         Int32(box.minX), Int32(box.minY), 0, 0,
                                         Int32(box.minX), Int32(box.minY), Int32(box.width), Int32(box.height))
                return
            }
        }
        // General case (rotation or fractional edges): anti-aliased edges through triangles with
        // the transformed image as the source.
        composite(source: image.image, contour: Shapes.rect(visible), extraOpacity: state.opacity)
    }

    // MARK: Text

    /// Draws a laid-out text with its top-left at `point` (user space). Text follows the
    /// canvas's translation and scale (glyphs are rasterized at the device size, so they stay
    /// sharp); rotations are not applied to text.
    public func draw(_ text: TextLayout, at point: Point) {
        let t = state.transform
        let s = (t.a * t.a + t.b * t.b).squareRoot()
        guard s > 0, s.isFinite else { return }
        let d = t.apply(to: point)
        text.draw(into: bitmap, at: Point(x: d.x / s, y: d.y / s), scale: s, clip: state.clip, opacity: state.opacity)
    }

    // MARK: Internals

    private func setFilter(_ img: OpaquePointer, _ filter: ImageFilter, scaleX: Double, scaleY: Double, isIdentity: Bool) {
        if isIdentity { pixman_image_set_filter(img, PIXMAN_FILTER_NEAREST, nil, 0); return }
        switch filter {
        case .nearest: pixman_image_set_filter(img, PIXMAN_FILTER_NEAREST, nil, 0)
        case .bilinear: pixman_image_set_filter(img, PIXMAN_FILTER_BILINEAR, nil, 0)
        case .highQuality:
            guard scaleX > 2 || scaleY > 2 else {
                pixman_image_set_filter(img, PIXMAN_FILTER_BILINEAR, nil, 0); return
            }
            var n: Int32 = 0
            guard let params = pixman_filter_create_separable_convolution(
                &n, fixed(max(1, scaleX)), fixed(max(1, scaleY)), PIXMAN_KERNEL_IMPULSE, PIXMAN_KERNEL_IMPULSE,
                PIXMAN_KERNEL_BOX, PIXMAN_KERNEL_BOX, 1, 1) else {
                pixman_image_set_filter(img, PIXMAN_FILTER_BILINEAR, nil, 0); return
            }
            pixman_image_set_filter(img, PIXMAN_FILTER_SEPARABLE_CONVOLUTION, params, n)
            free(params)
        }
    }

    /// Number of straight segments approximating a quarter circle of `radius` points so the
    /// chord error stays under ~0.1 device pixel.
    private func segments(forRadius radius: Double) -> Int {
        let s = max(abs(state.transform.a) + abs(state.transform.c), abs(state.transform.b) + abs(state.transform.d))
        let r = radius * s
        guard r.isFinite, r > 0.5 else { return 1 }
        let angle = 2 * acos(max(0, 1 - 0.1 / r))  // max angle per segment for 0.1 px error
        return max(2, min(90, Int((Double.pi / 2 / angle).rounded(.up))))
    }

    private func fillDeviceBox(_ box: Rect, color: Color) {
        let r = box.intersection(state.clip ?? bitmap.bounds).intersection(bitmap.bounds)
        guard !r.isEmpty, let src = PixmanImage.solid(color.withAlpha(color.alpha * state.opacity)) else { return }
        let op = color.alpha * state.opacity >= 1 ? PIXMAN_OP_SRC : PIXMAN_OP_OVER
        pixman_image_composite32(op, src.image, nil, bitmap.image, 0, 0, 0, 0,
                                 Int32(r.minX), Int32(r.minY), Int32(r.width), Int32(r.height))
    }

    private func fillContour(_ contour: [Point], with paint: Paint) {
        guard let src = source(for: paint) else { return }
        // Opacity is folded into the paint.
        composite(source: src.image, contour: contour, extraOpacity: 1, solidPixel: src.solidPixel)
    }

    private func fillRing(outer: [Point], inner: [Point], with paint: Paint) {
        guard let src = source(for: paint) else { return }
        let o = outer.map(state.transform.apply(to:)), i = inner.map(state.transform.apply(to:))
        var tris: [pixman_triangle_t] = []
        tris.reserveCapacity(o.count * 2)
        for k in 0..<o.count {
            let k1 = (k + 1) % o.count
            tris.append(triangle(o[k], o[k1], i[k]))
            tris.append(triangle(i[k], o[k1], i[k1]))
        }
        compositeTriangles(source: src.image, tris, extraOpacity: 1)  // opacity is folded into the paint
    }

    /// Rasterizes a convex contour (user space) as a triangle fan into one coverage mask and
    /// composites `source` through it.
    /// `solidPixel`: the source's colour when it is a solid fill (``PixmanImage/solidPixel``),
    /// which lets the covered interior take the wide blend.
    private func composite(source: OpaquePointer, contour: [Point], extraOpacity: Double, solidPixel: UInt32? = nil) {
        guard contour.count >= 3 else { return }
        let t = state.transform
        // The contour on pixman's 16.16 grid (what it rasterizes anyway), moved to its floor
        // corner: the plan and masks of a shape are then the same wherever whole pixels move
        // it, which is what lets `coverageMasks` reuse them with exactly the same pixels.
        // (One pass into one array: this runs for every layer under every damage rectangle.)
        var q: [pixman_point_fixed_t] = []
        q.reserveCapacity(contour.count)
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for p in contour {
            let f = pixmanPoint(t.apply(to: p))
            q.append(f)
            let x = Int(f.x), y = Int(f.y)
            minX = min(minX, x); minY = min(minY, y); maxX = max(maxX, x); maxY = max(maxY, y)
        }
        var ox = minX >> 16, oy = minY >> 16
        // A shape wider than pixman's coordinate range is drawn where it is, without the cache.
        let fitsRelative = maxX - ox << 16 < 32_767 << 16 && maxY - oy << 16 < 32_767 << 16
        if !fitsRelative { ox = 0; oy = 0 }
        // One word per point (x high, y low) halves what the cache hashes.
        var key: [Int] = []
        key.reserveCapacity(q.count)
        for f in q { key.append((Int(Int32(truncatingIfNeeded: Int(f.x) - ox << 16)) << 32) | (Int(f.y) - oy << 16) & 0xffff_ffff) }
        let clip = (state.clip ?? bitmap.bounds).intersection(bitmap.bounds)
        guard !clip.isEmpty else { return }
        func plan(rows: Range<Int>?) -> ConvexShapePlan? {
            var relative: [Point] = []
            relative.reserveCapacity(q.count)
            for k in key { relative.append(Point(x: Double(k >> 32) / 65536, y: Double(Int32(truncatingIfNeeded: k)) / 65536)) }
            // One trapezoid per band between consecutive vertex heights: every mask row is
            // rasterized once. (A triangle fan from one vertex makes each of its triangles span
            // most of the shape's height; a rounded corner's 30-odd triangles then cost 30× the
            // rows — rounded layers composited ~30× slower than square ones.)
            guard let bands = ConvexTrapezoids.decompose(relative) else { return nil }
            guard let first = bands.first, let last = bands.last else {
                return ConvexShapePlan(bands: [], box: .zero, splitsInterior: false)
            }
            let x0 = ConvexTrapezoids.minX(relative)
            let box = Rect(x: x0, y: first.topY, width: ConvexTrapezoids.maxX(relative) - x0, height: last.bottomY - first.topY).integral
            return ConvexShapePlan(bands: bands, box: box, splitsInterior: compositesCoveredInteriorUnmasked, rows: rows)
        }
        let cache = fitsRelative ? coverageMasks : nil
        let entry = cache?.entry(CoverageMaskCache.Key(points: key)) { plan(rows: nil) }
        // Without a cache, only the rows that will be drawn are looked at (a tall shape costs
        // its visible rows, not its height).
        guard let plan = entry.map({ $0.plan }) ?? plan(rows: Int(clip.minY) - oy..<Int(clip.maxY) - oy) else {
            let d = contour.map(t.apply(to:))
            var tris: [pixman_triangle_t] = []
            tris.reserveCapacity(d.count - 2)
            for k in 1..<(d.count - 1) { tris.append(triangle(d[0], d[k], d[k + 1])) }
            return compositeTriangles(source: source, tris, extraOpacity: extraOpacity)
        }
        guard !plan.trapezoids.isEmpty else { return }
        // The pixels the shape covers entirely go through no mask (a rounded layer's mask
        // rasterization was most of a frame of overlapping translucent layers).
        let dx = Double(ox), dy = Double(oy)
        for r in plan.unmasked {
            compositeUnmasked(source: source, rect: r.offsetBy(dx: dx, dy: dy), opacity: extraOpacity, solidPixel: solidPixel)
        }
        // Rasterized in place, the bands go back where the shape is: pixman's x offset is 16 bits.
        var placed: [pixman_trapezoid_t] = []
        func placedTrapezoids() -> [pixman_trapezoid_t] {
            if placed.isEmpty { placed = plan.trapezoids.map { $0.moved(byX: ox, y: oy) } }
            return placed
        }
        for (i, part) in plan.masked.enumerated() {
            let device = part.offsetBy(dx: dx, dy: dy)
            let visible = device.intersection(clip)
            guard !visible.isEmpty else { continue }
            if let cache, let entry, let mask = cache.mask(entry, part: i) {
                compositeThroughMask(source: source, mask: mask, at: device.origin, rect: visible, opacity: extraOpacity)
            } else {
                let traps = placedTrapezoids()
                compositeThroughClippedMask(source: source, bounds: visible, opacity: extraOpacity) { mask, mx, my in
                    pixman_add_trapezoids(mask, Int16(clamping: mx), Int32(my), Int32(traps.count), traps)
                }
            }
        }
    }

    /// Composites `source` over the device pixels of `rect` through part of `mask`, whose
    /// top-left pixel lies at `origin` (device), scaled by `opacity` when below 1.
    private func compositeThroughMask(source: OpaquePointer, mask: Bitmap, at origin: Point, rect: Rect, opacity: Double) {
        let mx = Int32(rect.minX - origin.x), my = Int32(rect.minY - origin.y)
        let w = Int32(rect.width), h = Int32(rect.height)
        if opacity < 1 {
            // The kept mask stays as rasterized: scale a copy of the piece.
            guard let piece = try? Bitmap(width: Int(w), height: Int(h), format: .a8),
                  let alpha = PixmanImage.solid(Color(white: 0, alpha: opacity)) else { return }
            pixman_image_composite32(PIXMAN_OP_SRC, mask.image, nil, piece.image, mx, my, 0, 0, 0, 0, w, h)
            pixman_image_composite32(PIXMAN_OP_IN, alpha.image, nil, piece.image, 0, 0, 0, 0, 0, 0, w, h)
            pixman_image_composite32(PIXMAN_OP_OVER, source, piece.image, bitmap.image,
                                     Int32(rect.minX), Int32(rect.minY), 0, 0, Int32(rect.minX), Int32(rect.minY), w, h)
            return
        }
        pixman_image_composite32(PIXMAN_OP_OVER, source, mask.image, bitmap.image,
                                 Int32(rect.minX), Int32(rect.minY), mx, my, Int32(rect.minX), Int32(rect.minY), w, h)
    }

    private func compositeTriangles(source: OpaquePointer, _ tris: [pixman_triangle_t], extraOpacity: Double) {
        guard !tris.isEmpty else { return }
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        func extend(_ p: pixman_point_fixed_t) {
            let x = Double(p.x) / 65536, y = Double(p.y) / 65536
            x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y)
        }
        for t in tris { extend(t.p1); extend(t.p2); extend(t.p3) }
        withDestinationClip(bitmap.image, state.clip) {
            compositeThroughClippedMask(source: source, bounds: Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0),
                                        opacity: extraOpacity) { mask, dx, dy in
                pixman_add_triangles(mask, Int32(dx), Int32(dy), Int32(tris.count), tris)
            }
        }
    }

    /// Rasterizes coverage (`rasterize` adds it to an A8 mask whose origin is `-dx, -dy` in
    /// device space) over only the shape's `bounds` within the clip, scales it by `opacity` when
    /// below 1, and composites `source` through it.
    /// (`pixman_composite_triangles` would rasterize the whole shape into a mask of its full
    /// extents however small the clip: the compositor repaints a large rounded layer piece by
    /// piece, one damage rectangle at a time, so that cost multiplied — 200 translucent rounded
    /// layers took ~50× longer to composite than square ones.)
    private func compositeThroughClippedMask(source: OpaquePointer, bounds: Rect, opacity: Double,
                                             rasterize: (_ mask: OpaquePointer, _ dx: Int, _ dy: Int) -> Void) {
        let box = bounds.integral.intersection(state.clip ?? bitmap.bounds).intersection(bitmap.bounds)
        guard !box.isEmpty, let mask = try? Bitmap(width: Int(box.width), height: Int(box.height), format: .a8) else { return }
        rasterize(mask.image, -Int(box.minX), -Int(box.minY))
        if opacity < 1, let alpha = PixmanImage.solid(Color(white: 0, alpha: opacity)) {
            pixman_image_composite32(PIXMAN_OP_IN, alpha.image, nil, mask.image, 0, 0, 0, 0, 0, 0,
                                     Int32(box.width), Int32(box.height))
        }
        pixman_image_composite32(PIXMAN_OP_OVER, source, mask.image, bitmap.image,
                                 Int32(box.minX), Int32(box.minY), 0, 0,
                                 Int32(box.minX), Int32(box.minY), Int32(box.width), Int32(box.height))
    }

    /// Composites `source` over the device pixels of `rect` (integral) at `opacity` without a
    /// coverage mask: exactly what a mask of 255s scaled by `opacity` would give. A solid colour
    /// (`solidPixel`) at full opacity over a 32-bit bitmap takes the wide blend when the CPU has
    /// one (``SolidBlend``): pixman's bytes, eight pixels at a time.
    private func compositeUnmasked(source: OpaquePointer, rect: Rect, opacity: Double, solidPixel: UInt32? = nil) {
        let r = rect.intersection(state.clip ?? bitmap.bounds).intersection(bitmap.bounds)
        guard !r.isEmpty else { return }
        if opacity >= 1, let solidPixel, usesWideBlend, bitmap.format == .argb32 || bitmap.format == .xrgb32,
           SolidBlend.over(solidPixel, into: bitmap, rect: r) {
            return
        }
        let alpha = opacity < 1 ? PixmanImage.solid(Color(white: 0, alpha: opacity)) : nil
        if opacity < 1 && alpha == nil { return }
        pixman_image_composite32(PIXMAN_OP_OVER, source, alpha?.image, bitmap.image,
                                 Int32(r.minX), Int32(r.minY), 0, 0,
                                 Int32(r.minX), Int32(r.minY), Int32(r.width), Int32(r.height))
    }

    private func triangle(_ a: Point, _ b: Point, _ c: Point) -> pixman_triangle_t {
        pixman_triangle_t(p1: pixmanPoint(a), p2: pixmanPoint(b), p3: pixmanPoint(c))
    }

    /// A pixman source for `paint` with the current opacity folded into its colours and, for
    /// gradients, the current transform so they are defined in user space.
    private func source(for paint: Paint) -> PixmanImage? {
        let alpha = state.opacity
        switch paint {
        case let .color(c):
            return PixmanImage.solid(c.withAlpha(c.alpha * alpha))
        case let .linearGradient(g):
            var stops = gradientStops(g.stops, alpha: alpha)
            guard !stops.isEmpty else { return nil }
            var p1 = pixmanPoint(g.start), p2 = pixmanPoint(g.end)
            if g.start == g.end { p2.x += 1 }
            return userSpace(PixmanImage(pixman_image_create_linear_gradient(&p1, &p2, &stops, Int32(stops.count))))
        case let .radialGradient(g):
            var stops = gradientStops(g.stops, alpha: alpha)
            guard !stops.isEmpty, g.radius > 0, g.radius.isFinite else { return nil }
            var c = pixmanPoint(g.center)
            return userSpace(PixmanImage(pixman_image_create_radial_gradient(&c, &c, 0, fixed(g.radius), &stops, Int32(stops.count))))
        }
    }

    private func userSpace(_ img: PixmanImage?) -> PixmanImage? {
        guard let img, let inv = state.transform.inverted, var pt = pixmanTransform(inv) else { return img }
        pixman_image_set_transform(img.image, &pt)
        pixman_image_set_repeat(img.image, PIXMAN_REPEAT_PAD)
        return img
    }

    /// pixman interpolates straight-alpha stop colours and premultiplies afterwards.
    private func gradientStops(_ stops: [GradientStop], alpha: Double) -> [pixman_gradient_stop_t] {
        stops.filter { $0.offset.isFinite }.sorted { $0.offset < $1.offset }.map { s in
            let c = s.color
            func u(_ v: Double) -> UInt16 { UInt16((clamp01(v) * 65535).rounded()) }
            return pixman_gradient_stop_t(x: fixed(clamp01(s.offset)),
                                          color: pixman_color_t(red: u(c.red), green: u(c.green), blue: u(c.blue),
                                                                alpha: u(c.alpha * alpha)))
        }
    }
}

/// Contours of the primitive shapes, clockwise in user space.
enum Shapes {
    static func rect(_ r: Rect) -> [Point] {
        [Point(x: r.minX, y: r.minY), Point(x: r.maxX, y: r.minY), Point(x: r.maxX, y: r.maxY), Point(x: r.minX, y: r.maxY)]
    }

    /// `segmentsPerCorner` + 1 points per corner, so two contours with the same count pair up
    /// point for point (a stroke is the ring between them).
    static func roundedRect(_ r: Rect, radius: Double, segmentsPerCorner n: Int) -> [Point] {
        let rad = max(0, min(radius, min(r.width, r.height) / 2))
        let corners = [(Point(x: r.maxX - rad, y: r.minY + rad), -Double.pi / 2),
                       (Point(x: r.maxX - rad, y: r.maxY - rad), 0),
                       (Point(x: r.minX + rad, y: r.maxY - rad), Double.pi / 2),
                       (Point(x: r.minX + rad, y: r.minY + rad), Double.pi)]
        var pts: [Point] = []
        pts.reserveCapacity(4 * (n + 1))
        for (c, start) in corners {
            for k in 0...n {
                let a = start + Double.pi / 2 * Double(k) / Double(n)
                pts.append(Point(x: c.x + rad * cos(a), y: c.y + rad * sin(a)))
            }
        }
        return pts
    }

    static func ellipse(in r: Rect, segments n: Int) -> [Point] {
        let count = max(8, n)
        return (0..<count).map { k in
            let a = 2 * Double.pi * Double(k) / Double(count)
            return Point(x: r.midX + r.width / 2 * cos(a), y: r.midY + r.height / 2 * sin(a))
        }
    }
}

@inline(__always) func clamp01(_ v: Double) -> Double { v.isNaN ? 0 : min(1, max(0, v)) }

#if canImport(Glibc)
import Glibc
#endif
