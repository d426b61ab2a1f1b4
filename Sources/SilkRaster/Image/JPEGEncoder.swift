import CTurboJPEG
import Foundation

/// Baseline (or progressive) JPEG output through TurboJPEG's `tjCompress2`. Silk does
/// not write JPEGs itself; the benchmark, demo server and tests use it to make large or unusual JPEGs
/// in memory instead of committing them.
public enum JPEGEncoder {
    /// Encodes an ARGB32 bitmap (alpha ignored: JPEG has none) with 4:2:0 chroma subsampling.
    public static func encode(_ bitmap: Bitmap, quality: Int = 85, progressive: Bool = false) throws(RasterError) -> Data {
        let source = bitmap.format == .argb32 || bitmap.format == .xrgb32 ? bitmap : try bitmap.copy(format: .argb32)
        guard let handle = tjInitCompress() else { throw .allocationFailed(bytes: 0) }
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let flags = Int32(progressive ? TJFLAG_PROGRESSIVE : 0)
        // BGRX bytes are the little-endian 0x..RRGGBB words; the padding byte is ignored.
        let rc = tjCompress2(handle, source.data.assumingMemoryBound(to: UInt8.self), Int32(source.width),
                             Int32(source.stride), Int32(source.height), Int32(TJPF_BGRX.rawValue),
                             &buffer, &size, Int32(TJSAMP_420.rawValue), Int32(max(1, min(100, quality))), flags)
        defer { if let buffer { tjFree(buffer) } }
        guard rc == 0, let buffer else {
            throw .io(path: "<jpeg>", reason: "TurboJPEG could not encode: " + String(cString: tjGetErrorStr2(handle)))
        }
        return Data(bytes: buffer, count: Int(size))
    }
}
