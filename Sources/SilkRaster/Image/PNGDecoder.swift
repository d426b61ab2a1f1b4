import CPNG
import Foundation

/// PNG through libpng's simplified API (`png_image_*`), which reports errors by return value and
/// message instead of longjmp, so no C error path ever unwinds Swift frames. Every PNG colour
/// type, bit depth and interlacing is converted by libpng to 8-bit BGRA.
enum PNGDecoder {
    static func probe(_ data: Data) throws(RasterError) -> ImageDecoder.Info {
        let reader = try Reader(data)
        return ImageDecoder.Info(format: .png, width: Int(reader.image.width), height: Int(reader.image.height))
    }

    static func decode(_ data: Data, maxPixels: Int) throws(RasterError) -> DecodedImage {
        let reader = try Reader(data)
        let w = Int(reader.image.width), h = Int(reader.image.height)
        guard w > 0, h > 0 else { throw .corrupt("PNG header has a zero dimension") }
        guard w <= maxPixels / max(1, h) else { throw .tooManyPixels(width: w, height: h, limit: maxPixels) }
        // Alpha in the file (an alpha channel or a tRNS chunk), as libpng's header read reports it.
        let hasAlpha = reader.image.format & png_uint_32(PNG_FORMAT_FLAG_ALPHA) != 0
        let bitmap = try Bitmap(width: w, height: h)
        try reader.finish(into: bitmap, data: data)
        if hasAlpha { bitmap.premultiplyInPlace() }
        return DecodedImage(bitmap: bitmap, format: .png, originalWidth: w, originalHeight: h, orientation: 1, decodeScale: 1)
    }

    /// Owns a copy of the encoded bytes for as long as libpng may point into them (from
    /// `png_image_begin_read_from_memory` to `png_image_free`).
    final class Reader {
        var image = png_image()
        private let bytes: UnsafeMutableRawBufferPointer

        init(_ data: Data) throws(RasterError) {
            bytes = .allocate(byteCount: max(1, data.count), alignment: 16)
            data.copyBytes(to: bytes)
            image.version = png_uint_32(PNG_IMAGE_VERSION)
            guard png_image_begin_read_from_memory(&image, bytes.baseAddress, data.count) != 0 else {
                // Every stored property is initialized, so throwing here still runs deinit,
                // which frees libpng's state and the bytes (freeing them here too was a double free).
                throw PNGDecoder.classify(pngMessage(&image), data)
            }
        }

        func finish(into bitmap: Bitmap, data: Data) throws(RasterError) {
            // BGRA bytes are the little-endian 0xAARRGGBB words pixman's a8r8g8b8 expects.
            image.format = png_uint_32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA | PNG_FORMAT_FLAG_BGR)
            // Without this, libpng's simplified API takes 16-bit samples in a file with no gAMA or
            // sRGB chunk to be *linear* and gamma-encodes them on the way to 8 bits: mid-grey
            // 32768 came out as 186 instead of 128. Such files are sRGB in practice. (Set here:
            // png_image_begin_read_* zeroes the struct, flags included.)
            image.flags |= png_uint_32(PNG_IMAGE_FLAG_16BIT_sRGB)
            guard png_image_finish_read(&image, nil, bitmap.data, png_int_32(bitmap.stride), nil) != 0 else {
                throw PNGDecoder.classify(pngMessage(&image), data)
            }
        }

        deinit {
            png_image_free(&image)
            bytes.deallocate()
        }
    }

    /// libpng's message as a typed error. Running out of data is `.truncated` — unless the
    /// file ends with an IEND chunk, when a chunk length must have been damaged (`.corrupt`).
    static func classify(_ message: String, _ data: Data) -> RasterError {
        let m = message.lowercased()
        if m.contains("not enough") || m.contains("too short") || m.contains("eof") || m.contains("truncated")
            || m.contains("read beyond end") || m.contains("unexpected end") {
            let iend: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
            if data.count >= 12, data.suffix(12).elementsEqual(iend) { return .corrupt("PNG: \(message) (a chunk length is damaged)") }
            return .truncated("PNG: \(message)")
        }
        return .corrupt("PNG: \(message)")
    }
}
