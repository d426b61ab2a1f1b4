import CPNG
import CSilkLinux
import Foundation

/// PNG output: Silk writes the file itself over zlib (signature, IHDR, IDAT, IEND), one
/// compression pass into a growing buffer. libpng's simplified writer offered no compression
/// level (zlib's default, 6) and spent most of `silk snapshot card` in deflate; screenshots of UI
/// compress nearly as well at level 3 (deflate's fast path), so that is the level (issue 21).
/// Rows are filtered per row with the filter whose bytes have the smallest sum of absolute values
/// (None, Sub, Up or Paeth: libpng's heuristic without Average). An opaque bitmap is written as
/// RGB, any other as RGBA with straight alpha, as PNG requires.
extension Bitmap {
    /// zlib's level for PNG output (1 fastest … 9 smallest).
    static let pngCompressionLevel: Int32 = 3

    /// Encodes the bitmap as an 8-bit RGB (opaque) or RGBA PNG.
    public func pngData() throws(RasterError) -> Data {
        let source = format == .argb32 ? self : try copy(format: .argb32)
        let opaque = silk_argb_is_opaque(source.data, Int32(width), Int32(height), source.stride) != 0
        let channels = opaque ? 3 : 4
        let rowBytes = width * channels
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data(count: 13)
        header.withUnsafeMutableBytes { h in
            h.storeBytes(of: UInt32(width).bigEndian, toByteOffset: 0, as: UInt32.self)
            h.storeBytes(of: UInt32(height).bigEndian, toByteOffset: 4, as: UInt32.self)
            h[8] = 8; h[9] = opaque ? 2 : 6; h[10] = 0; h[11] = 0; h[12] = 0
        }
        Bitmap.appendChunk("IHDR", header, to: &png)

        var stream = z_stream()
        let initResult = ZLIB_VERSION.withCString {
            deflateInit2_(&stream, Bitmap.pngCompressionLevel, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY, $0, Int32(MemoryLayout<z_stream>.size))
        }
        guard initResult == Z_OK else { throw .allocationFailed(bytes: 256 << 10) }
        defer { deflateEnd(&stream) }
        // Rows: the previous and current unfiltered rows, and the filtered row (type byte first),
        // made by C (CSilkLinux's silk_png_filter_row) so that debug builds stay quick.
        var previous = [UInt8](repeating: 0, count: rowBytes), current = previous
        var filtered = [UInt8](repeating: 0, count: rowBytes + 1)
        var out = [UInt8](repeating: 0, count: 1 << 16)
        var idat = Data()
        for y in 0..<height {
            let row = (source.data + y * source.stride).assumingMemoryBound(to: UInt32.self)
            current.withUnsafeMutableBufferPointer { cur in
                previous.withUnsafeBufferPointer { up in
                    filtered.withUnsafeMutableBufferPointer { f in
                        silk_png_filter_row(row, Int32(width), opaque ? 1 : 0, cur.baseAddress, up.baseAddress, f.baseAddress)
                    }
                }
            }
            let flush = y == height - 1 ? Z_FINISH : Z_NO_FLUSH
            let ok = filtered.withUnsafeMutableBufferPointer { input -> Bool in
                stream.next_in = input.baseAddress
                stream.avail_in = uInt(input.count)
                while true {
                    let (result, full) = out.withUnsafeMutableBufferPointer { o -> (Int32, Bool) in
                        stream.next_out = o.baseAddress
                        stream.avail_out = uInt(o.count)
                        let r = deflate(&stream, flush)
                        let produced = o.count - Int(stream.avail_out)
                        if produced > 0 { idat.append(o.baseAddress!, count: produced) }
                        return (r, stream.avail_out == 0)
                    }
                    if result == Z_STREAM_END { return true }
                    guard result == Z_OK || result == Z_BUF_ERROR else { return false }
                    // More to do while input is left, the output filled up, or the stream is finishing.
                    if stream.avail_in == 0 && !full && flush != Z_FINISH { return true }
                }
            }
            guard ok else { throw .io(path: "<png>", reason: "zlib could not compress the image") }
            swap(&previous, &current)
        }
        // IDAT chunks of at most 1 MiB (any split is valid; readers stream them).
        var offset = 0
        repeat {
            let n = min(1 << 20, idat.count - offset)
            Bitmap.appendChunk("IDAT", idat.subdata(in: offset..<offset + n), to: &png)
            offset += n
        } while offset < idat.count
        Bitmap.appendChunk("IEND", Data(), to: &png)
        return png
    }

    /// Appends a chunk: length, type, data, CRC-32 of type and data.
    static func appendChunk(_ type: String, _ data: Data, to png: inout Data) {
        let typeBytes = Array(type.utf8)
        withUnsafeBytes(of: UInt32(data.count).bigEndian) { png.append(contentsOf: $0) }
        png.append(contentsOf: typeBytes)
        png.append(data)
        var crc = typeBytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        crc = data.withUnsafeBytes { crc32(crc, $0.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt($0.count)) }
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: crc).bigEndian) { png.append(contentsOf: $0) }
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
