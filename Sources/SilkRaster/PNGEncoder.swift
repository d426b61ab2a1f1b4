import CPNG
import Foundation

/// PNG output through libpng's simplified API (`png_image_write_to_stdio`), which reports
/// errors by return value — no setjmp/longjmp crossing Swift frames.
extension Bitmap {
    /// Encodes the bitmap as an 8-bit RGBA PNG (straight alpha, as PNG requires).
    public func pngData() throws(RasterError) -> Data {
        // Straight-alpha RGBA rows, converted from whatever format the bitmap holds.
        let source = format == .argb32 ? self : try copy(format: .argb32)
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        rgba.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let row = (source.data + y * source.stride).assumingMemoryBound(to: UInt32.self)
                var i = y * width * 4
                for x in 0..<width {
                    let p = row[x]
                    let a = p >> 24
                    if a == 255 {
                        out[i] = UInt8(truncatingIfNeeded: p >> 16); out[i + 1] = UInt8(truncatingIfNeeded: p >> 8)
                        out[i + 2] = UInt8(truncatingIfNeeded: p); out[i + 3] = 255
                    } else if a > 0 {
                        func un(_ c: UInt32) -> UInt8 { UInt8(min(255, (c * 255 + a / 2) / a)) }
                        out[i] = un((p >> 16) & 0xff); out[i + 1] = un((p >> 8) & 0xff)
                        out[i + 2] = un(p & 0xff); out[i + 3] = UInt8(a)
                    }
                    i += 4
                }
            }
        }
        var img = png_image()
        img.version = png_uint_32(PNG_IMAGE_VERSION)
        img.width = png_uint_32(width)
        img.height = png_uint_32(height)
        img.format = png_uint_32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)  // PNG_FORMAT_RGBA
        // One compression pass into a buffer that grows as libpng writes (open_memstream), not
        // png_image_write_to_memory's two: one call to measure and one to write compressed the
        // image twice (issue 21: `silk snapshot` spent twice the deflate time it needed).
        var buffer: UnsafeMutablePointer<CChar>? = nil
        var length = 0
        guard let stream = open_memstream(&buffer, &length) else {
            throw .io(path: "<png>", reason: "open_memstream: " + String(cString: strerror(errno)))
        }
        let ok = png_image_write_to_stdio(&img, stream, 0, rgba, 0, nil)
        fclose(stream)  // flushes: `buffer` and `length` are final only now
        defer { free(buffer) }
        guard ok != 0, let buffer, length > 0 else {
            throw .io(path: "<png>", reason: "libpng could not encode: " + pngMessage(&img))
        }
        return Data(bytes: buffer, count: length)
    }

    /// Writes the bitmap as a PNG file (mode 0644 before the umask), creating parent folders.
    /// Errors name the path; a full disk leaves no partial file (`FileOutput`).
    public func writePNG(to path: String) throws(RasterError) {
        try FileOutput.write(try pngData(), to: path)
    }
}

func pngMessage(_ img: inout png_image) -> String {
    withUnsafeBytes(of: &img.message) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
    }
}

/// A short human reason for a Foundation / POSIX error.
func describe(_ error: any Error) -> String {
    let ns = error as NSError
    if let posix = ns.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
        return String(cString: strerror(Int32(posix.code)))
    }
    if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
    return ns.localizedDescription
}
