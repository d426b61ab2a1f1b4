import CPixman
import SilkGeometry
#if canImport(Glibc)
import Glibc
#endif

/// Pixel layouts a `Bitmap` can hold. Drawing happens in `argb32` (premultiplied alpha, the
/// native-endian 0xAARRGGBB word); the others exist for masks (`a8`) and for presenter
/// output (`xrgb32` for opaque Wayland buffers and 32-bit framebuffers, `rgb565` for 16-bit ones).
public enum PixelFormat: Sendable, Hashable, CustomStringConvertible {
    case argb32
    case xrgb32
    case rgb565
    case a8

    /// Bytes one pixel takes in memory: 4, 2 or 1.
    public var bytesPerPixel: Int {
        switch self {
        case .argb32, .xrgb32: 4
        case .rgb565: 2
        case .a8: 1
        }
    }
    var pixmanFormat: pixman_format_code_t {
        switch self {
        case .argb32: PIXMAN_a8r8g8b8
        case .xrgb32: PIXMAN_x8r8g8b8
        case .rgb565: PIXMAN_r5g6b5
        case .a8: PIXMAN_a8
        }
    }
    public var description: String {
        switch self {
        case .argb32: "ARGB32"
        case .xrgb32: "XRGB32"
        case .rgb565: "RGB565"
        case .a8: "A8"
        }
    }
}

/// A rectangle of pixels backed by a `pixman_image_t`.
///
/// A bitmap either owns its memory (allocated zeroed, 16-byte aligned rows) or wraps memory
/// someone else owns — a `wl_shm` pool or a framebuffer shadow buffer — kept alive through
/// `owner` for as long as the bitmap lives.
///
/// Threading: a bitmap is plain memory. One thread draws into it at a time; once handed to
/// another thread (a display job publishing its result, the render thread compositing) it is
/// treated as immutable by convention. That is why it is `@unchecked Sendable`.
public final class Bitmap: @unchecked Sendable, CustomStringConvertible {
    /// Width in pixels (device pixels when the bitmap is a frame or a node's contents).
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// How the pixels are stored.
    public let format: PixelFormat
    /// Bytes per row (a multiple of 4, as pixman requires).
    public let stride: Int
    /// The first byte of the first row.
    public let data: UnsafeMutableRawPointer
    /// The pixman image (`pixman_image_t *`) over `data`.
    let image: OpaquePointer
    private let ownsData: Bool
    private let owner: AnyObject?

    /// A new zero-filled (transparent) bitmap. Throws for sizes ≤ 0 or beyond `RasterLimits`.
    public init(width: Int, height: Int, format: PixelFormat = .argb32) throws(RasterError) {
        try Bitmap.validate(width: width, height: height)
        let stride = (width * format.bytesPerPixel + 15) & ~15
        let bytes = stride * height
        let raw = try Bitmap.allocatePixels(bytes)
        guard let img = pixman_image_create_bits(format.pixmanFormat, Int32(width), Int32(height),
                                                 raw.assumingMemoryBound(to: UInt32.self), Int32(stride)) else {
            Bitmap.freePixels(raw, bytes)
            throw .allocationFailed(bytes: bytes)
        }
        self.width = width; self.height = height; self.format = format
        self.stride = stride; self.data = raw; self.image = img
        ownsData = true; owner = nil
    }

    /// Bitmaps of at least this many bytes get their own anonymous mapping, given back to the
    /// kernel when the bitmap goes. Through malloc they would not be: glibc raises its mmap
    /// threshold to the size of the largest block freed so far (up to 32 MiB), after which
    /// every photo-sized bitmap comes from the heap, and a heap that decoded and drew photos
    /// on several threads stays as large as its busiest moment — scrolling 2,000 feed posts
    /// grew resident memory by ~30 MiB per 1,000 posts that way, ~7 MiB with mappings.
    static let mappedThreshold = 128 << 10

    /// Zero-filled, at least 64-byte aligned.
    private static func allocatePixels(_ bytes: Int) throws(RasterError) -> UnsafeMutableRawPointer {
        if bytes >= mappedThreshold {
            let p = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            guard let p, p != MAP_FAILED else { throw .allocationFailed(bytes: bytes) }
            return p  // the kernel's pages are zero already
        }
        var raw: UnsafeMutableRawPointer?
        guard posix_memalign(&raw, 64, bytes) == 0, let raw else { throw .allocationFailed(bytes: bytes) }
        memset(raw, 0, bytes)
        return raw
    }

    private static func freePixels(_ p: UnsafeMutableRawPointer, _ bytes: Int) {
        if bytes >= mappedThreshold { munmap(p, bytes) } else { free(p) }
    }

    /// A bitmap over memory owned elsewhere (`owner` is retained to keep it alive).
    /// `stride` must be a multiple of 4 and at least `width × bytesPerPixel`.
    public init(wrapping data: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int,
                format: PixelFormat, owner: AnyObject? = nil) throws(RasterError) {
        try Bitmap.validate(width: width, height: height)
        guard stride % 4 == 0, stride >= width * format.bytesPerPixel else {
            throw .invalidSize(width: width, height: height, reason: "stride \(stride) is not a multiple of 4 covering a row")
        }
        guard let img = pixman_image_create_bits(format.pixmanFormat, Int32(width), Int32(height),
                                                 data.assumingMemoryBound(to: UInt32.self), Int32(stride)) else {
            throw .allocationFailed(bytes: 0)
        }
        self.width = width; self.height = height; self.format = format
        self.stride = stride; self.data = data; self.image = img
        ownsData = false; self.owner = owner
    }

    /// A bitmap of `size` points at `scale` device pixels per point (rounded up).
    public convenience init(size: Size, scale: Double = 1, format: PixelFormat = .argb32) throws(RasterError) {
        guard size.isValidExtent, scale.isFinite, scale > 0 else {
            throw .invalidSize(width: 0, height: 0, reason: "size \(size) at scale \(scale) is not finite and positive")
        }
        let w = (size.width * scale).rounded(.up), h = (size.height * scale).rounded(.up)
        guard w <= Double(RasterLimits.maxBitmapDimension), h <= Double(RasterLimits.maxBitmapDimension) else {
            throw .invalidSize(width: Int(min(w, 1e9)), height: Int(min(h, 1e9)), reason: "larger than \(RasterLimits.maxBitmapDimension) pixels")
        }
        try self.init(width: Int(w), height: Int(h), format: format)
    }

    deinit {
        pixman_image_unref(image)
        if ownsData { Bitmap.freePixels(data, stride * height) }
    }

    static func validate(width: Int, height: Int) throws(RasterError) {
        guard width > 0, height > 0 else {
            throw .invalidSize(width: width, height: height, reason: "width and height must be positive")
        }
        guard width <= RasterLimits.maxBitmapDimension, height <= RasterLimits.maxBitmapDimension else {
            throw .invalidSize(width: width, height: height, reason: "larger than \(RasterLimits.maxBitmapDimension) pixels on a side")
        }
        guard width * height <= RasterLimits.maxBitmapPixels else {
            throw .invalidSize(width: width, height: height, reason: "more than \(RasterLimits.maxBitmapPixels) pixels")
        }
    }

    /// ``width`` × ``height`` as a `Size` (pixels).
    public var size: Size { Size(width: Double(width), height: Double(height)) }
    /// The whole bitmap as a rectangle at the origin (pixels).
    public var bounds: Rect { Rect(size: size) }
    /// Bytes of pixel memory: ``stride`` × ``height``.
    public var byteCount: Int { stride * height }

    /// The raw pixel word at (x, y): ARGB32/XRGB32 as 0xAARRGGBB, RGB565 and A8 widened.
    public func pixel(x: Int, y: Int) -> UInt32 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)×\(height)")
        let row = data + y * stride
        switch format {
        case .argb32, .xrgb32: return row.load(fromByteOffset: x * 4, as: UInt32.self)
        case .rgb565: return UInt32(row.load(fromByteOffset: x * 2, as: UInt16.self))
        case .a8: return UInt32(row.load(fromByteOffset: x, as: UInt8.self))
        }
    }

    /// Pixel at (x, y) as premultiplied ARGB32 whatever the format (for tests and PNG export).
    public func argb32(x: Int, y: Int) -> UInt32 {
        let p = pixel(x: x, y: y)
        switch format {
        case .argb32: return p
        case .xrgb32: return p | 0xff00_0000
        case .a8: return p << 24
        case .rgb565:
            let r = (p >> 11) & 0x1f, g = (p >> 5) & 0x3f, b = p & 0x1f
            return 0xff00_0000 | ((r << 3 | r >> 2) << 16) | ((g << 2 | g >> 4) << 8) | (b << 3 | b >> 2)
        }
    }

    /// A bitmap over the same pixels with a pixman image of its own (it keeps `self` alive):
    /// a thread can set its transform or filter, or have pixman validate it, without touching
    /// what another thread drawing `self` at the same time uses. Nil if pixman cannot make it.
    public func view() -> Bitmap? {
        try? Bitmap(wrapping: data, width: width, height: height, stride: stride, format: format, owner: self)
    }

    /// Fills the whole bitmap (or `rect`, in pixels) with `color`, replacing what was there.
    public func fill(_ color: Color, rect: Rect? = nil) {
        let r = (rect ?? bounds).integral.intersection(bounds)
        guard !r.isEmpty else { return }
        var c = pixmanColor(color)
        var box = pixman_box32_t(x1: Int32(r.minX), y1: Int32(r.minY), x2: Int32(r.maxX), y2: Int32(r.maxY))
        pixman_image_fill_boxes(PIXMAN_OP_SRC, image, &c, 1, &box)
    }

    /// Copies `source` (any format) into this bitmap at (x, y), converting the pixel format.
    /// `operation` is `.source` (replace) or `.over` (blend).
    public func composite(_ source: Bitmap, from src: Rect? = nil, to point: Point = .zero,
                          operation: CompositeOperation = .over) {
        let s = (src ?? source.bounds).integral
        pixman_image_composite32(operation.pixman, source.image, nil, image,
                                 Int32(s.minX), Int32(s.minY), 0, 0,
                                 Int32(point.x.rounded()), Int32(point.y.rounded()),
                                 Int32(s.width), Int32(s.height))
    }

    /// Moves the pixels of `rect` by (dx, dy) within this bitmap (overlap allowed: rows are
    /// copied in the safe order with memmove). Both `rect` and its destination must lie inside
    /// the bitmap; otherwise nothing happens.
    public func move(_ rect: Rect, by dx: Int, _ dy: Int) {
        let r = rect.integral
        guard !r.isEmpty, bounds.contains(r), bounds.contains(r.offsetBy(dx: Double(dx), dy: Double(dy))) else { return }
        let bpp = format.bytesPerPixel
        let x0 = Int(r.minX), y0 = Int(r.minY), w = Int(r.width), h = Int(r.height)
        let rows: [Int] = dy > 0 ? Array((0..<h).reversed()) : Array(0..<h)
        for k in rows {
            let src = data + (y0 + k) * stride + x0 * bpp
            let dst = data + (y0 + k + dy) * stride + (x0 + dx) * bpp
            memmove(dst, src, w * bpp)
        }
    }

    /// A deep copy in `format` (default: the same).
    public func copy(format: PixelFormat? = nil) throws(RasterError) -> Bitmap {
        let out = try Bitmap(width: width, height: height, format: format ?? self.format)
        out.composite(self, operation: .source)
        return out
    }

    /// True when every pixel's alpha is 255 (scans the bitmap; for tests and opaque detection).
    public var isFullyOpaque: Bool {
        if format != .argb32 && format != .a8 { return true }
        for y in 0..<height {
            for x in 0..<width where argb32(x: x, y: y) >> 24 != 0xff { return false }
        }
        return true
    }

    public var description: String { "Bitmap(\(width)×\(height) \(format))" }
}

/// Porter-Duff operations used by Silk.
public enum CompositeOperation: Sendable {
    /// Replace the destination.
    case source
    /// Source over destination (premultiplied blend).
    case over
    /// Add (saturating), used to accumulate masks.
    case add
    var pixman: pixman_op_t {
        switch self {
        case .source: PIXMAN_OP_SRC
        case .over: PIXMAN_OP_OVER
        case .add: PIXMAN_OP_ADD
        }
    }
}

func pixmanColor(_ c: Color) -> pixman_color_t {
    let p = c.premultiplied16
    return pixman_color_t(red: p.red, green: p.green, blue: p.blue, alpha: p.alpha)
}
