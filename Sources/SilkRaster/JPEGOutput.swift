import CTurboJPEG
import Foundation

// Public JPEG output for tools and demos (the raster-bench input, the feed demo's server).
extension Bitmap {
    /// Encodes the bitmap as a baseline 4:2:0 JPEG (alpha is dropped: pixels are composited on
    /// black, as premultiplied values already are). Uses TurboJPEG's `tjCompress2`.
    public func jpegData(quality: Int = 85) throws(RasterError) -> Data {
        guard format == .argb32 || format == .xrgb32 else { return try copy(format: .argb32).jpegData(quality: quality) }
        guard let handle = tjInitCompress() else { throw .allocationFailed(bytes: 0) }
        defer { tjDestroy(handle) }
        var out: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let rc = tjCompress2(handle, data.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(stride), Int32(height),
                             Int32(TJPF_BGRX.rawValue), &out, &size, Int32(TJSAMP_420.rawValue),
                             Int32(max(1, min(100, quality))), 0)
        defer { if let out { tjFree(out) } }
        guard rc == 0, let out else { throw .io(path: "<jpeg>", reason: String(cString: tjGetErrorStr2(handle))) }
        return Data(bytes: out, count: Int(size))
    }
}
