import CSilkBlend
import SilkGeometry
import SilkSystem

/// A solid colour composited OVER a 32-bit bitmap eight pixels at a time (AVX2), where pixman
/// 0.42's x86 path for it is SSE2 (four): the covered interiors of translucent layer fills are
/// most of a busy compositor frame (`many-layers`, docs/benchmark.md). Same bytes as pixman's
/// `over_n_8888` — `SolidBlendTests` compares every source and destination byte — so whether it
/// is used never changes a pixel. Off on CPUs without AVX2 (arm64 keeps pixman's NEON path) and
/// with `SILK_WIDE_BLEND=0`.
enum SolidBlend {
    /// The kernel exists on this CPU.
    static let isAvailable = silk_blend_available()
    /// The kernel exists on this CPU and `SILK_WIDE_BLEND` is not `0` (a canvas's default).
    static let isEnabled = SilkConfiguration.current.wideBlend && isAvailable

    /// Blends the premultiplied a8r8g8b8 `pixel` over `rect` (device pixels, integral, inside
    /// `bitmap`, which is 32 bits per pixel); false when no kernel ran (the caller uses pixman).
    static func over(_ pixel: UInt32, into bitmap: Bitmap, rect: Rect) -> Bool {
        let r = rect.intersection(bitmap.bounds)
        guard !r.isEmpty else { return true }
        return silk_blend_over_solid(bitmap.data, bitmap.stride, Int32(r.minX), Int32(r.minY),
                                     Int32(r.width), Int32(r.height), pixel)
    }
}
