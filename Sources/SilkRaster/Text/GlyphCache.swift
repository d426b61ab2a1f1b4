import CFreeType
import CPixman
import Foundation
import SilkSystem

// Rasterized glyphs, shared by every thread that draws text.
//
// A glyph is rendered once per (face, pixel size in 26.6, glyph id, quarter-pixel x phase,
// synthetic bold/oblique) and kept as an immutable pixman image: A8 coverage for outline glyphs,
// premultiplied ARGB32 for colour bitmaps (already scaled to the wanted size). Platform
// measurements put a cache hit at 17–29× cheaper than rendering.
//
// Threading: the maps are guarded by one lock held only for the lookup/insert; rendering
// happens outside it under the face's own FreeType lock, so two threads missing the same glyph
// may both render it (the first insert wins) but never block each other's hits.
//
// Drawing: pixman's own glyph cache (pixman_glyph_cache_t + pixman_composite_glyphs_no_mask)
// composites a whole run in one call, several times faster than a composite per glyph, but it
// is not thread-safe. So GlyphCache also keeps a pool of pixman glyph caches: each draw checks
// one out for its exclusive use and returns it, so concurrent draws never share one. A pixman
// cache hit skips this class's lock entirely; a miss inserts the image from the maps above.
// pixman bounds each of its caches itself (it evicts down to 8192 glyphs past 16384).
//
// Memory: bounded by `byteBudget` with two generations — when the current map fills half the
// budget it becomes the previous one and the old previous is dropped; a hit in the previous
// generation is promoted. This approximates LRU at the cost of one extra lookup on a miss.

/// One rasterized glyph: a pixman image plus its bearing from the pen position.
final class GlyphImage: @unchecked Sendable {
    /// `pixman_image_t *` (A8 or A8R8G8B8), nil for blank glyphs (spaces).
    let image: OpaquePointer?
    let width: Int, height: Int
    /// Offset of the image's left edge from the pen x, and of its top edge above the baseline.
    let left: Int, top: Int
    let isColor: Bool
    private let pixels: UnsafeMutableRawPointer?

    static let blank = GlyphImage(image: nil, pixels: nil, width: 0, height: 0, left: 0, top: 0, isColor: false)

    private init(image: OpaquePointer?, pixels: UnsafeMutableRawPointer?, width: Int, height: Int,
                 left: Int, top: Int, isColor: Bool) {
        self.image = image; self.pixels = pixels; self.width = width; self.height = height
        self.left = left; self.top = top; self.isColor = isColor
        if let image { GlyphImage.validate(image) }
    }

    deinit {
        if let image { pixman_image_unref(image) }
        free(pixels)
    }

    var byteCount: Int { image == nil ? 64 : 64 + ((width * (isColor ? 4 : 1) + 3) & ~3) * height }

    /// Copies a FreeType bitmap (gray, mono or BGRA) into an owned pixman image.
    convenience init?(copying bm: FT_Bitmap, left: Int, top: Int) {
        let w = Int(bm.width), h = Int(bm.rows)
        guard w > 0, h > 0, let buffer = bm.buffer else {
            self.init(image: nil, pixels: nil, width: 0, height: 0, left: 0, top: 0, isColor: false)
            return
        }
        let color = bm.pixel_mode == 7  // FT_PIXEL_MODE_BGRA
        let bpp = color ? 4 : 1
        let stride = (w * bpp + 3) & ~3
        guard let pixels = calloc(stride * h, 1) else { return nil }
        let pitch = Int(bm.pitch)
        for y in 0..<h {
            let src = pitch >= 0 ? buffer + y * pitch : buffer + (y - h + 1) * pitch
            let dst = pixels + y * stride
            switch bm.pixel_mode {
            case 1:  // FT_PIXEL_MODE_MONO: one bit per pixel, MSB first
                let d = dst.assumingMemoryBound(to: UInt8.self)
                for x in 0..<w where src[x >> 3] & (0x80 >> UInt8(x & 7)) != 0 { d[x] = 255 }
            case 2, 7:  // GRAY, BGRA (premultiplied B,G,R,A bytes = native-endian ARGB32)
                memcpy(dst, src, w * bpp)
            default:
                free(pixels)
                return nil
            }
        }
        let format = color ? PIXMAN_a8r8g8b8 : PIXMAN_a8
        guard let img = pixman_image_create_bits(format, Int32(w), Int32(h),
                                                 pixels.assumingMemoryBound(to: UInt32.self), Int32(stride)) else {
            free(pixels)
            return nil
        }
        self.init(image: img, pixels: pixels, width: w, height: h, left: left, top: top, isColor: color)
    }

    /// A copy scaled by `s` (colour strikes drawn at other sizes), filtered with pixman's GOOD filter.
    func scaled(by s: Double) -> GlyphImage? {
        guard let image, s.isFinite, s > 0 else { return self }
        if abs(s - 1) < 0.001 { return self }
        let w = max(1, Int((Double(width) * s).rounded(.up))), h = max(1, Int((Double(height) * s).rounded(.up)))
        let stride = w * 4
        guard let pixels = calloc(stride * h, 1) else { return nil }
        guard let dst = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(w), Int32(h),
                                                 pixels.assumingMemoryBound(to: UInt32.self), Int32(stride)) else {
            free(pixels)
            return nil
        }
        var t = pixman_transform_t()
        let inv = pixman_fixed_t((1 / s) * 65536)
        pixman_transform_init_scale(&t, inv, inv)
        pixman_image_set_transform(image, &t)
        pixman_image_set_filter(image, s < 1 ? PIXMAN_FILTER_GOOD : PIXMAN_FILTER_BILINEAR, nil, 0)
        pixman_image_composite32(PIXMAN_OP_SRC, image, nil, dst, 0, 0, 0, 0, 0, 0, Int32(w), Int32(h))
        pixman_image_set_transform(image, nil)
        return GlyphImage(image: dst, pixels: pixels, width: w, height: h,
                          left: Int((Double(left) * s).rounded()), top: Int((Double(top) * s).rounded()),
                          isColor: true)
    }

    /// pixman computes an image's flags lazily on first use, writing to the image; doing it
    /// once here, before the image is shared, keeps concurrent composites read-only.
    /// pixman_image_composite32 validates its images before it looks at the size, so an empty
    /// composite is enough: a 1×1 OVER went through pixman's general path (scanline buffers
    /// cleared, ≈ 1,200 instructions per glyph image, a third of a cold title's).
    /// The destination is one process-wide 1×1 image, validated once at creation: an empty
    /// composite then only reads it (pixman writes an image's flags only while they are
    /// dirty, and returns before touching pixels), so threads share it safely, and a new
    /// glyph no longer makes and frees a scratch image (≈ 500 instructions).
    private static func validate(_ image: OpaquePointer) {
        guard let scratch = validationTarget.image else { return }
        pixman_image_composite32(PIXMAN_OP_OVER, image, nil, scratch, 0, 0, 0, 0, 0, 0, 0, 0)
    }

    private static let validationTarget = ValidationTarget()

    /// The shared destination of `validate` (never freed: it lives as long as the process).
    private final class ValidationTarget: @unchecked Sendable {
        let image: OpaquePointer?
        init() {
            let pixel = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
            pixel.pointee = 0
            image = pixman_image_create_bits(PIXMAN_a8r8g8b8, 1, 1, pixel, 4)
            if let image {
                // Validates the destination itself, once.
                pixman_image_composite32(PIXMAN_OP_SRC, image, nil, image, 0, 0, 0, 0, 0, 0, 0, 0)
            }
        }
    }
}

/// The process-wide, thread-safe cache of rasterized glyphs.
public final class GlyphCache: @unchecked Sendable {
    /// The cache every `TextLayout.draw` uses (32 MiB).
    public static let shared = GlyphCache(byteBudget: 32 << 20)

    struct Key: Hashable {
        var face: Int32
        var size26_6: Int32
        var glyph: UInt32
        /// subpixel phase (bits 0–1), synthetic bold (bit 2), synthetic oblique (bit 3).
        var variant: UInt8
    }

    /// The most bytes of glyph images the cache keeps before it drops its older generation.
    public let byteBudget: Int
    private let lock = Lock()
    private var current: [Key: GlyphImage] = [:]
    private var previous: [Key: GlyphImage] = [:]
    private var currentBytes = 0
    private var hitCount = 0, missCount = 0

    /// A pixman glyph cache lent to one draw.
    struct PixmanLease {
        let cache: OpaquePointer
        let generation: Int
        /// Bytes of glyph images inserted over the cache's life (an over-estimate once pixman
        /// has evicted some).
        var bytes: Int
        /// The keys inserted, so that `removeAll(keepingCapacity: true)` can empty the cache
        /// and keep its 256 KiB table (pixman has no call to empty one); nil once more than
        /// `trackedKeyLimit` went in (the cache is then destroyed instead).
        var keys: [PixmanKey]? = []

        mutating func inserted(_ key: PixmanKey) {
            guard keys != nil else { return }
            if keys!.count >= GlyphCache.trackedKeyLimit { keys = nil } else { keys!.append(key) }
        }
    }

    /// A glyph's keys in a pixman glyph cache (font key, glyph key).
    struct PixmanKey {
        let font: UnsafeMutableRawPointer?, glyph: UnsafeMutableRawPointer?
    }

    /// pixman keeps at most 16,384 glyphs per cache; past that many keys, emptying a cache one
    /// key at a time costs more than making a new one.
    static let trackedKeyLimit = 16_384

    /// Idle pixman glyph caches, and the generation they belong to (bumped by `removeAll`).
    private var pixmanCaches: [PixmanLease] = []
    private var pixmanGeneration = 0

    /// A cache that keeps about `byteBudget` bytes of glyph images (at least 64 KiB).
    public init(byteBudget: Int) { self.byteBudget = max(1 << 16, byteBudget) }

    deinit {
        for c in pixmanCaches { pixman_glyph_cache_destroy(c.cache) }
    }

    /// A pixman glyph cache for one draw's exclusive use, frozen for inserts; give it back with
    /// `checkIn`. (pixman_glyph_cache_create / _freeze)
    func checkOutPixmanCache() -> PixmanLease? {
        lock.lock()
        let reused = pixmanCaches.popLast()
        let generation = pixmanGeneration
        lock.unlock()
        if let reused {
            pixman_glyph_cache_freeze(reused.cache)
            return reused
        }
        guard let cache = pixman_glyph_cache_create() else { return nil }
        pixman_glyph_cache_freeze(cache)
        return PixmanLease(cache: cache, generation: generation, bytes: 0)
    }

    /// Returns a pixman cache after a draw (thawing lets pixman evict by count), counting its
    /// hits. pixman bounds its caches by glyph count only, so a cache that has taken in more
    /// than a quarter of `byteBudget` is destroyed instead of pooled.
    func checkIn(_ lease: PixmanLease, hits: Int) {
        pixman_glyph_cache_thaw(lease.cache)
        lock.lock()
        hitCount += hits
        if lease.generation == pixmanGeneration && pixmanCaches.count < 16 && lease.bytes <= byteBudget / 4 {
            pixmanCaches.append(lease)
            lock.unlock()
        } else {
            lock.unlock()
            pixman_glyph_cache_destroy(lease.cache)
        }
    }

    /// Lookups served from the cache and glyphs rendered, since creation or `removeAll()`.
    public var statistics: (hits: Int, misses: Int, bytes: Int) {
        lock.lock(); defer { lock.unlock() }
        return (hitCount, missCount, currentBytes)
    }

    /// Drops every glyph image (memory warnings; cold-cache measurements). With
    /// `keepingCapacity` the tables stay allocated: the maps keep their capacity and the idle
    /// pixman glyph caches are emptied rather than destroyed — a cold glyph then costs what it
    /// costs in a running app, whose caches exist already (re-creating a pixman cache zeroes
    /// its 256 KiB table, which was a fifth of a cold card title's instructions).
    public func removeAll(keepingCapacity: Bool = false) {
        lock.lock(); defer { lock.unlock() }
        current.removeAll(keepingCapacity: keepingCapacity); previous.removeAll(keepingCapacity: keepingCapacity)
        currentBytes = 0; hitCount = 0; missCount = 0
        pixmanGeneration += 1
        var kept: [PixmanLease] = []
        for var c in pixmanCaches {
            if keepingCapacity, let keys = c.keys {
                // Idle caches are thawed and not lent out, so this thread has them to itself.
                for k in keys { pixman_glyph_cache_remove(c.cache, k.font, k.glyph) }
                c.keys!.removeAll(keepingCapacity: true)
                kept.append(PixmanLease(cache: c.cache, generation: pixmanGeneration, bytes: 0, keys: c.keys))
            } else {
                pixman_glyph_cache_destroy(c.cache)
            }
        }
        pixmanCaches = kept
    }

    /// The glyph image, rendered on a miss. Blank (image nil) when the glyph has no pixels or
    /// FreeType cannot render it.
    func glyph(_ glyph: UInt32, face: FontFace, size26_6: Int, subpixel: Int, bold: Bool, oblique: Bool) -> GlyphImage {
        let key = Key(face: Int32(truncatingIfNeeded: face.id), size26_6: Int32(clamping: size26_6), glyph: glyph,
                      variant: UInt8(subpixel & 3) | (bold ? 4 : 0) | (oblique ? 8 : 0))
        lock.lock()
        if let hit = current[key] {
            hitCount += 1
            lock.unlock()
            return hit
        }
        if !previous.isEmpty, let old = previous[key] {
            hitCount += 1
            insertLocked(key, old)
            lock.unlock()
            return old
        }
        missCount += 1
        lock.unlock()

        let image = face.rasterize(glyph: glyph, size26_6: size26_6, subpixel: subpixel, bold: bold, oblique: oblique)
            ?? .blank
        lock.lock()
        defer { lock.unlock() }
        if let raced = insertLocked(key, image) { return raced }
        return image
    }

    /// Inserts `image`; when another thread put `key` in first, keeps that one and returns it
    /// (one hash lookup either way).
    @discardableResult
    private func insertLocked(_ key: Key, _ image: GlyphImage) -> GlyphImage? {
        if let raced = current.updateValue(image, forKey: key) {
            current[key] = raced
            return raced
        }
        currentBytes += image.byteCount
        if currentBytes > byteBudget / 2 {
            previous = current
            current = [:]
            currentBytes = 0
        }
        return nil
    }
}
