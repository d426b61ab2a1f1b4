import CPixman
import SilkGeometry

// Small conversions between Silk's value types and pixman's C structs. Every pixman call that
// Silk makes goes through Bitmap, Canvas or these helpers.

@inline(__always) func fixed(_ v: Double) -> pixman_fixed_t {
    // pixman_double_to_fixed, clamped so absurd coordinates cannot overflow the 16.16 format.
    pixman_fixed_t(max(-32_767, min(32_767, v)) * 65_536)
}

@inline(__always) func pixmanPoint(_ p: Point) -> pixman_point_fixed_t {
    pixman_point_fixed_t(x: fixed(p.x), y: fixed(p.y))
}

/// The pixman transform for `t` (pixman maps destination → source, so callers pass an inverse).
func pixmanTransform(_ t: AffineTransform) -> pixman_transform_t? {
    var f = pixman_f_transform(m: ((t.a, t.c, t.tx), (t.b, t.d, t.ty), (0, 0, 1)))
    var out = pixman_transform_t()
    return pixman_transform_from_pixman_f_transform(&out, &f) != 0 ? out : nil
}

/// Owns a pixman image that is not a Bitmap (solid fills, gradients).
final class PixmanImage {
    let image: OpaquePointer
    /// A solid fill's colour as pixman composites it onto a8r8g8b8 (its `color_to_uint32`: the
    /// high byte of each premultiplied 16-bit channel); nil for other images.
    let solidPixel: UInt32?
    init?(_ image: OpaquePointer?, solidPixel: UInt32? = nil) {
        guard let image else { return nil }
        self.image = image
        self.solidPixel = solidPixel
    }
    static func solid(_ color: Color) -> PixmanImage? {
        var c = pixmanColor(color)
        let pixel = UInt32(c.alpha >> 8) << 24 | UInt32(c.red >> 8) << 16 | UInt32(c.green & 0xff00) | UInt32(c.blue >> 8)
        return PixmanImage(pixman_image_create_solid_fill(&c), solidPixel: pixel)
    }
    deinit { pixman_image_unref(image) }
}

/// Runs `body` with the destination `image` clipped to `rect` (device pixels; nil: unclipped).
/// pixman keeps the clip on the image, so it is always removed again afterwards.
func withDestinationClip<R>(_ image: OpaquePointer, _ rect: Rect?, _ body: () -> R) -> R {
    guard let rect else { return body() }
    var region = pixman_region32_t()
    let r = rect.isEmpty ? Rect.zero : rect
    pixman_region32_init_rect(&region, Int32(r.minX), Int32(r.minY), UInt32(max(0, r.width)), UInt32(max(0, r.height)))
    pixman_image_set_clip_region32(image, &region)
    defer {
        pixman_image_set_clip_region32(image, nil)
        pixman_region32_fini(&region)
    }
    return body()
}
