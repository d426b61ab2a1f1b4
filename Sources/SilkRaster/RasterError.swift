/// Every failure the raster layer reports. Each case names what was wrong so the CLI can print one
/// clear line (`silk snapshot … image.jpg: truncated JPEG data`) instead of crashing.
public enum RasterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Width or height ≤ 0, not finite, or beyond `RasterLimits`.
    case invalidSize(width: Int, height: Int, reason: String)
    /// pixman (or the allocator) could not provide memory for a bitmap.
    case allocationFailed(bytes: Int)
    /// The data is not in a format Silk decodes.
    case unsupportedFormat(String)
    /// The data claims to be a known format but is damaged.
    case corrupt(String)
    /// The data ends before the image does.
    case truncated(String)
    /// The image is larger than `RasterLimits.maxImagePixels`.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// A file could not be read or written.
    case io(path: String, reason: String)
    /// The operation was cancelled through its `isCancelled` check.
    case cancelled
    /// A font could not be loaded.
    case font(String)

    public var description: String {
        switch self {
        case let .invalidSize(w, h, reason): "invalid bitmap size \(w)×\(h): \(reason)"
        case let .allocationFailed(bytes): "could not allocate \(bytes) bytes for a bitmap"
        case let .unsupportedFormat(s): "unsupported image format: \(s)"
        case let .corrupt(s): "corrupt image data: \(s)"
        case let .truncated(s): "truncated image data: \(s)"
        case let .tooManyPixels(w, h, limit):
            "image is \(w)×\(h) = \(w * h / 1_000_000) MPx, over the limit of \(limit / 1_000_000) MPx"
        case let .io(path, reason): "\(path): \(reason)"
        case .cancelled: "cancelled"
        case let .font(s): "font error: \(s)"
        }
    }
}

/// Process-wide limits that keep absurd inputs from exhausting memory. Documented in
/// docs/reliability.md; change them at start-up, before any drawing starts.
public enum RasterLimits {
    /// Largest width or height of any bitmap, in pixels.
    public static let maxBitmapDimension = 32_768
    /// Largest number of pixels in one bitmap (256 MPx = 1 GiB of ARGB32).
    public static let maxBitmapPixels = 256 * 1024 * 1024
    /// Default decoded-image pixel limit (64 MPx), overridable per decode.
    public static let defaultMaxImagePixels = 64_000_000
}
