import Foundation
import SilkSystem

/// Decodes PNG, JPEG, GIF and WebP data into premultiplied ARGB32 bitmaps (GIF and WebP: the
/// first frame; `AnimatedImageDecoder` plays them).
///
/// ```swift
/// public enum ImageDecoder {
///     static func decode(data: Data, targetSize: (width: Int, height: Int)? = nil,
///                        maxPixels: Int = RasterLimits.defaultMaxImagePixels) throws(RasterError) -> DecodedImage
///     static func decode(contentsOf path: String, targetSize: …, maxPixels: …) throws(RasterError) -> DecodedImage
///     static func probe(data: Data) throws(RasterError) -> Info   // header only: format, size, orientation
/// }
/// DecodedImage: bitmap (upright, premultiplied ARGB32), format (.png/.jpeg), originalSize
///               (upright pixels, before any scaled decode), orientation (EXIF 1…8), decodeScale
/// ```
///
/// - Format is detected from the magic bytes, never from a file name.
/// - The pixel count is read from the header and checked against `maxPixels` (default
///   `RasterLimits.defaultMaxImagePixels`, 64 MPx) *before* any pixel memory is allocated, so a
///   tiny file claiming 100 MPx costs nothing. The limit applies to the full image even when a
///   scaled decode would be small: libjpeg's own buffers grow with the full size.
/// - `targetSize` is in device pixels, upright. A JPEG decodes directly at the smallest of
///   libjpeg-turbo's M/8 scales whose output still covers it in both directions (never
///   upscaling), which is several times faster than decoding in full and downscaling. PNG
///   cannot decode scaled and ignores it. The caller scales the result to its exact size.
/// - EXIF orientation (JPEG) is applied, so `bitmap` is upright.
/// - Every failure is a typed `RasterError`: `.unsupportedFormat` (empty, not PNG/JPEG),
///   `.truncated` (the data ends early, even inside the header or the signature), `.corrupt`,
///   `.tooManyPixels`, `.io` (file errors name the path). Damaged data never crashes.
///
/// Thread-safe: each call uses its own decoder state; call it from any display queue.
public enum ImageDecoder {
    /// The encodings the decoder reads, detected by magic bytes (never by file name).
    /// `lottie` is never detected here: it names an ``AnimatedImageDecoder`` playing a
    /// ``LottieAnimation`` (JSON, rendered by rlottie).
    public enum Format: String, Sendable { case png, jpeg, gif, webp, lottie }

    /// What the header says, read without decoding pixels (`probe(data:)`).
    public struct Info: Sendable, Equatable {
        /// The encoding found in the header.
        public var format: Format
        /// Stored pixel size (before EXIF orientation).
        public var width: Int
        /// Stored pixel height (before EXIF orientation).
        public var height: Int
        /// EXIF orientation, 1…8 (always 1 for PNG).
        public var orientation: Int = 1
        /// The size once turned upright: what `decode` reports as `originalSize`.
        public var uprightSize: (width: Int, height: Int) {
            ExifOrientation.swapsAxes(orientation) ? (height, width) : (width, height)
        }
    }

    /// Reads only the header: format, stored size and orientation. Allocates no pixels and
    /// applies no limit, so a layout pass can size an image node before decoding it.
    public static func probe(data: Data) throws(RasterError) -> Info {
        guard let format = detectFormat(data) else { throw unsupported(data) }
        switch format {
        case .png: return try PNGDecoder.probe(data)
        case .jpeg: return try JPEGDecoder.probe(data)
        case .gif: return try GIFFrameDecoder.probe(data)
        case .lottie: throw unsupported(data)
        case .webp: return try WebPDecoder.probe(data)
        }
    }

    /// Decodes a whole PNG or JPEG. A JPEG is decoded at the smallest M/8 scale that still covers
    /// `targetSize` (pixels), which is much faster for thumbnails; images over `maxPixels` are
    /// refused before any allocation. Any thread.
    public static func decode(data: Data, targetSize: (width: Int, height: Int)? = nil,
                              maxPixels: Int = RasterLimits.defaultMaxImagePixels) throws(RasterError) -> DecodedImage {
        guard let format = detectFormat(data) else { throw unsupported(data) }
        switch format {
        case .png: return try PNGDecoder.decode(data, maxPixels: maxPixels)
        case .jpeg: return try JPEGDecoder.decode(data, targetSize: targetSize, maxPixels: maxPixels)
        // GIF and WebP: the first frame, composited on the canvas (AnimatedImageDecoder animates).
        case .gif: return try GIFFrameDecoder.decode(data, maxPixels: maxPixels)
        case .lottie: throw unsupported(data)
        case .webp: return try WebPDecoder.decode(data, maxPixels: maxPixels)
        }
    }

    /// Reads and decodes a file; errors name the path.
    public static func decode(contentsOf path: String, targetSize: (width: Int, height: Int)? = nil,
                              maxPixels: Int = RasterLimits.defaultMaxImagePixels) throws(RasterError) -> DecodedImage {
        let data = try readFile(path)
        do {
            return try decode(data: data, targetSize: targetSize, maxPixels: maxPixels)
        } catch .io(_, let reason) {
            throw .io(path: path, reason: reason)
        }
    }

    /// Largest file read: 256 MiB (a larger "image" is refused before reading it).
    public static let maxFileBytes = 256 << 20

    /// Reads a whole file with POSIX calls on one descriptor (no check-then-open race).
    /// Foundation's `FileManager.contents(atPath:)` leaked a 4 KiB buffer per call on some
    /// paths (LeakSanitizer, `make test-asan`) — a kiosk retrying a bad image would grow.
    package static func readFile(_ path: String) throws(RasterError) -> Data {
        func failure(_ code: Int32) -> RasterError {
            .io(path: path, reason: code == ENOENT ? "no such file" : code == EISDIR ? "is a directory" : String(cString: strerror(code)))
        }
        // Non-blocking: open(2) of a FIFO otherwise waits forever for a writer. Only regular
        // files are read (a FIFO, socket or device has no size to check against the limit).
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw failure(errno) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw failure(errno) }
        if (st.st_mode & S_IFMT) == S_IFDIR { throw failure(EISDIR) }
        if (st.st_mode & S_IFMT) != S_IFREG { throw .io(path: path, reason: "is not a regular file (\(fileKind(st.st_mode)))") }
        let size = Int(st.st_size)
        guard size <= maxFileBytes else { throw .io(path: path, reason: "file of \(size) bytes is larger than \(maxFileBytes)") }
        // Read to the end even if the file grew since fstat, but never past the limit.
        var data = Data(count: max(size, 0) + 1)
        var total = 0
        while true {
            if total == data.count {
                guard data.count <= maxFileBytes else { throw .io(path: path, reason: "file is larger than \(maxFileBytes) bytes") }
                data.count = min(maxFileBytes + 1, data.count * 2)
            }
            let n: Int
            do throws(SystemCallError) {
                n = try systemCall("read") { data.withUnsafeMutableBytes { read(fd, $0.baseAddress! + total, $0.count - total) } }
            } catch { throw failure(error.errno) }
            if n == 0 { break }
            total += n
        }
        data.count = total
        return data
    }

    /// What a non-regular file is, for messages.
    package static func fileKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    static func detectFormat(_ d: Data) -> Format? {
        if d.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if d.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if d.starts(with: Array("GIF87a".utf8)) || d.starts(with: Array("GIF89a".utf8)) { return .gif }
        if d.count >= 12, d.starts(with: Array("RIFF".utf8)), d.dropFirst(8).starts(with: Array("WEBP".utf8)) { return .webp }
        return nil
    }

    static func unsupported(_ d: Data) -> RasterError {
        if d.isEmpty { return .unsupportedFormat("empty file") }
        // The first bytes of a signature and nothing more: a file cut almost at once.
        for (name, magic) in [("PNG", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] as [UInt8]), ("JPEG", [0xFF, 0xD8, 0xFF]),
                              ("GIF", Array("GIF89a".utf8)), ("WebP", Array("RIFF".utf8))]
        where d.count < magic.count && magic.starts(with: d) {
            return .truncated("\(name): only \(d.count) bytes of its signature")
        }
        if d.starts(with: Array("GIF8".utf8)) { return .unsupportedFormat("GIF version other than 87a/89a") }
        if d.count < 12, d.starts(with: Array("RIFF".utf8)) { return .truncated("WebP: only \(d.count) bytes of its RIFF header") }
        if d.starts(with: Array("RIFF".utf8)) { return .unsupportedFormat("a RIFF file that is not WebP") }
        return .unsupportedFormat("not a PNG, JPEG, GIF or WebP file")
    }
}

/// A decoded image.
public struct DecodedImage: Sendable {
    /// Upright (EXIF orientation applied), premultiplied ARGB32.
    public let bitmap: Bitmap
    /// The encoding the image came in.
    public let format: ImageDecoder.Format
    /// The full image size in pixels, upright — before any scaled decode.
    public let originalWidth: Int
    /// The full image height in pixels, upright, before any scaled decode.
    public let originalHeight: Int
    /// `(originalWidth, originalHeight)`.
    public var originalSize: (width: Int, height: Int) { (originalWidth, originalHeight) }
    /// The EXIF orientation that was applied (1 = none).
    public let orientation: Int
    /// The JPEG scale used (1 when decoded in full).
    public let decodeScale: Double
}

extension Bitmap {
    /// Premultiplies straight-alpha ARGB32 words in place: c·a/255 rounded, exact for a = 0
    /// and 255, so it needs no branches and runs four pixels at a time as `SIMD4<UInt32>`.
    func premultiplyInPlace() {
        typealias U = SIMD4<UInt32>
        @inline(__always) func mul(_ c: U, _ a: U) -> U { let t = c &* a &+ 128; return (t &+ (t &>> 8)) &>> 8 }
        @inline(__always) func premultiply(_ p: U) -> U {
            let a = p &>> 24
            return a &<< 24 | mul((p &>> 16) & 0xff, a) &<< 16 | mul((p &>> 8) & 0xff, a) &<< 8 | mul(p & 0xff, a)
        }
        let groups = width / 4
        for y in 0..<height {
            let row = data + y * stride
            for g in 0..<groups {
                row.storeBytes(of: premultiply(row.load(fromByteOffset: g * 16, as: U.self)), toByteOffset: g * 16, as: U.self)
            }
            for x in groups * 4..<width {
                let p = row.load(fromByteOffset: x * 4, as: UInt32.self)
                row.storeBytes(of: premultiply(U(repeating: p))[0], toByteOffset: x * 4, as: UInt32.self)
            }
        }
    }
}
