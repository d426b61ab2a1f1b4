import CWebP
import Foundation

/// WebP through libwebp: a still image decodes straight into the bitmap (`WebPDecode` with
/// premultiplied BGRA output in external memory); an animation goes through libwebpdemux's
/// `WebPAnimDecoder`, which applies each frame's blend (alpha-blend or not) and dispose (to the
/// background or none) onto a canvas and hands out whole composited frames. libwebp reports
/// errors by status code; nothing unwinds Swift frames.
enum WebPDecoder {
    /// The header (`WebPGetFeatures`): the canvas size of an animation, else the image size.
    static func features(_ data: Data) throws(RasterError) -> WebPBitstreamFeatures {
        var f = WebPBitstreamFeatures()
        let status = data.withUnsafeBytes { WebPGetFeatures($0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count, &f) }
        guard status == VP8_STATUS_OK else { throw classify(status, "header") }
        return f
    }

    static func probe(_ data: Data) throws(RasterError) -> ImageDecoder.Info {
        let f = try features(data)
        return ImageDecoder.Info(format: .webp, width: Int(f.width), height: Int(f.height))
    }

    static func classify(_ status: VP8StatusCode, _ what: String) -> RasterError {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA: .truncated("WebP: the data ends inside the \(what)")
        case VP8_STATUS_UNSUPPORTED_FEATURE: .unsupportedFormat("WebP: unsupported feature in the \(what)")
        case VP8_STATUS_OUT_OF_MEMORY: .corrupt("WebP: out of memory decoding the \(what)")
        default: .corrupt("WebP: bad \(what) (status \(status.rawValue))")
        }
    }

    static func checkSize(_ f: WebPBitstreamFeatures, maxPixels: Int) throws(RasterError) -> (Int, Int) {
        let w = Int(f.width), h = Int(f.height)
        guard w > 0, h > 0 else { throw .corrupt("WebP header has a zero dimension") }
        guard w <= maxPixels / h else { throw .tooManyPixels(width: w, height: h, limit: maxPixels) }
        return (w, h)
    }

    static func decode(_ data: Data, maxPixels: Int) throws(RasterError) -> DecodedImage {
        let f = try features(data)
        let (w, h) = try checkSize(f, maxPixels: maxPixels)
        if f.has_animation != 0 {
            let decoder = try WebPFrameDecoder(data, maxPixels: maxPixels)
            guard let frame = try decoder.nextFrame() else { throw .corrupt("WebP: animation without frames") }
            return DecodedImage(bitmap: try frame.canvas.copy(), format: .webp, originalWidth: w, originalHeight: h,
                                orientation: 1, decodeScale: 1)
        }
        let bitmap = try Bitmap(width: w, height: h)
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw .corrupt("WebP: library version mismatch") }
        // Premultiplied BGRA bytes are the little-endian premultiplied 0xAARRGGBB words pixman uses.
        config.output.colorspace = MODE_bgrA
        config.output.is_external_memory = 1
        config.output.u.RGBA.rgba = bitmap.data.assumingMemoryBound(to: UInt8.self)
        config.output.u.RGBA.stride = Int32(bitmap.stride)
        config.output.u.RGBA.size = bitmap.byteCount
        let status = data.withUnsafeBytes { WebPDecode($0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count, &config) }
        WebPFreeDecBuffer(&config.output)
        guard status == VP8_STATUS_OK else { throw classify(status, "image data") }
        return DecodedImage(bitmap: bitmap, format: .webp, originalWidth: w, originalHeight: h, orientation: 1, decodeScale: 1)
    }
}

/// An animated (or still) WebP, frame by frame through `WebPAnimDecoder`.
///
/// It reads the caller's `Data` (immutable, kept alive here) instead of a copy: a copy doubled
/// each animated image's file in memory for as long as it played. libwebp's demuxer keeps a
/// pointer to the bytes and reads them only inside `WebPAnimDecoderNew` and
/// `WebPAnimDecoderGetNext`, so both run inside `data.withUnsafeBytes`; if the address there ever
/// differs from the one the decoder was made with, the decoder is made again over the new address
/// and brought back to the same frame, so libwebp never reads through a stale pointer.
final class WebPFrameDecoder: AnimatedImageFrameSource {
    private let data: Data
    private var decoder: OpaquePointer
    /// The address of `data`'s bytes that `decoder` reads (tests clear it to take the path where
    /// the bytes moved).
    var base: UnsafeRawPointer?
    let canvas: Bitmap
    private(set) var frameIndex = 0
    private var lastTimestamp: Int32 = 0
    /// `WebPAnimInfo.loop_count`: 0 loops forever, n plays n times.
    let fileLoopCount: Int

    init(_ data: Data, maxPixels: Int) throws(RasterError) {
        // The canvas size is checked before libwebp allocates its own canvases.
        let (w, h) = try WebPDecoder.checkSize(try WebPDecoder.features(data), maxPixels: maxPixels)
        // The canvas first: nothing of libwebp's to release if it cannot be allocated.
        canvas = try Bitmap(width: w, height: h)
        self.data = data
        // Data.withUnsafeBytes rethrows untyped errors: the typed one comes out as a Result.
        let opened = data.withUnsafeBytes { raw in
            Result { () throws(RasterError) in (try WebPFrameDecoder.open(raw), raw.baseAddress) }
        }
        let (d, base) = try opened.get()
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(d, &info) != 0, Int(info.canvas_width) == w, Int(info.canvas_height) == h else {
            WebPAnimDecoderDelete(d)
            throw .corrupt("WebP: animation info disagrees with the header")
        }
        fileLoopCount = Int(info.loop_count)
        decoder = d
        self.base = base
    }

    /// A decoder over `raw`, which must stay valid while libwebp reads it (inside the caller's
    /// `withUnsafeBytes`).
    private static func open(_ raw: UnsafeRawBufferPointer) throws(RasterError) -> OpaquePointer {
        var options = WebPAnimDecoderOptions()
        var webpData = WebPData(bytes: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), size: raw.count)
        guard WebPAnimDecoderOptionsInit(&options) != 0 else { throw .corrupt("WebP: library version mismatch") }
        options.color_mode = MODE_bgrA
        options.use_threads = 0
        guard let d = WebPAnimDecoderNew(&webpData, &options) else {
            throw .corrupt("WebP: the container's chunks are damaged (demux failed)")
        }
        return d
    }

    deinit {
        WebPAnimDecoderDelete(decoder)
    }

    /// `loop_count` 0 plays forever, n plays n times.
    var playCount: Int? { fileLoopCount == 0 ? nil : fileLoopCount }

    func rewind() throws(RasterError) {
        WebPAnimDecoderReset(decoder)
        frameIndex = 0
        lastTimestamp = 0
    }

    func nextFrame() throws(RasterError) -> AnimatedImageFrame? {
        guard WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return nil }
        var buffer: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        let decoded = data.withUnsafeBytes { raw in
            Result { () throws(RasterError) -> Bool in
                if raw.baseAddress != base { try reopen(raw) }
                return WebPAnimDecoderGetNext(decoder, &buffer, &timestamp) != 0
            }
        }
        guard try decoded.get(), let buffer else {
            throw .corrupt("WebP: frame \(frameIndex) could not be decoded")
        }
        let rowBytes = canvas.width * 4
        for y in 0..<canvas.height {
            memcpy(canvas.data + y * canvas.stride, buffer + y * rowBytes, rowBytes)
        }
        let delay = Double(timestamp - lastTimestamp) / 1000
        lastTimestamp = timestamp
        frameIndex += 1
        return AnimatedImageFrame(canvas: canvas, index: frameIndex - 1, delay: AnimatedImageFrame.clampedDelay(delay))
    }

    /// Makes the decoder again over `raw` (the bytes moved) and decodes up to the frame it was at,
    /// so the next `WebPAnimDecoderGetNext` gives the frame the old decoder would have.
    private func reopen(_ raw: UnsafeRawBufferPointer) throws(RasterError) {
        let fresh = try WebPFrameDecoder.open(raw)
        var skipped: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        for i in 0..<frameIndex where WebPAnimDecoderGetNext(fresh, &skipped, &timestamp) == 0 {
            WebPAnimDecoderDelete(fresh)
            throw .corrupt("WebP: frame \(i) could not be decoded")
        }
        WebPAnimDecoderDelete(decoder)
        decoder = fresh
        base = raw.baseAddress
    }

    /// Our canvas plus libwebp's two (current and previous-disposed).
    var retainedBytes: Int { canvas.stride * canvas.height * 3 }
}
