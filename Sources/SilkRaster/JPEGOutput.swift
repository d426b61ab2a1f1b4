import Foundation

// Public JPEG output for tools and demos (the raster-bench input, the feed demo's images).
extension Bitmap {
    /// Encodes the bitmap as a baseline 4:2:0 JPEG (alpha dropped), through `JPEGEncoder`.
    public func jpegData(quality: Int = 85, progressive: Bool = false) throws(RasterError) -> Data {
        try JPEGEncoder.encode(self, quality: quality, progressive: progressive)
    }
}
