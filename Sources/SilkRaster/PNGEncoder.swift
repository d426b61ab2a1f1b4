import CPNG
import CSilkPNG
import Foundation

/// PNG output through libpng's write API (CSilkPNG's `silk_png_encode_argb32`: the whole libpng
/// call sequence, setjmp included, is one C function, so libpng's longjmp never crosses Swift).
/// One compression pass, streamed row by row into a growing buffer. zlib runs at level 3
/// (deflate's fast path): screenshots of UI compress nearly as well as at zlib's default 6 for a
/// fraction of the time (issue 21). libpng chooses each row's filter (adaptive, all five). An
/// opaque bitmap is written as RGB, any other as RGBA with straight alpha, as PNG requires.
extension Bitmap {
    /// zlib's level for PNG output (1 fastest … 9 smallest).
    static let pngCompressionLevel: Int32 = 3

    /// Encodes the bitmap as an 8-bit RGB (opaque) or RGBA PNG.
    public func pngData() throws(RasterError) -> Data {
        let source = format == .argb32 ? self : try copy(format: .argb32)
        var png: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let result = silk_png_encode_argb32(source.data, Int32(width), Int32(height), source.stride,
                                            Bitmap.pngCompressionLevel, &png, &size, &message, message.count)
        guard result == 0, let png else {
            let reason = String(decoding: message.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .io(path: "<png>", reason: "libpng could not write the image: \(reason)")
        }
        return Data(bytesNoCopy: png, count: size, deallocator: .free)
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
