import CTurboJPEG
import Foundation

/// JPEG through libjpeg-turbo's TurboJPEG API (errors by return code, no longjmp), decoding
/// straight to BGRA at the smallest M/8 scale that still covers the target size.
/// `TJFLAG_STOPONWARNING` turns libjpeg's "premature end of data" warning into an error, so a
/// truncated file is reported as `.truncated` instead of showing a grey lower half.
enum JPEGDecoder {
    static func probe(_ data: Data) throws(RasterError) -> ImageDecoder.Info {
        let segments = JPEGSegments.scan(data)
        let h = try Handle()
        let header = try h.header(data, segments: segments)
        return ImageDecoder.Info(format: .jpeg, width: header.width, height: header.height, orientation: segments.orientation)
    }

    /// `tolerateWarnings` (the progressive-prefix decode) lets libjpeg finish through its
    /// warnings ("premature end of data", which fills the missing refinement with what it has)
    /// instead of stopping on the first one; errors still throw.
    static func decode(_ data: Data, targetSize: (width: Int, height: Int)?, maxPixels: Int,
                       tolerateWarnings: Bool = false) throws(RasterError) -> DecodedImage {
        // One walk over the marker segments (no libjpeg): the frame size is checked against the
        // limit before libjpeg reads any further, and the EXIF orientation and Adobe marker noted.
        let segments = JPEGSegments.scan(data)
        if let (fw, fh) = segments.frame, fw > 0, fh > 0, fw > maxPixels / fh {
            throw .tooManyPixels(width: fw, height: fh, limit: maxPixels)
        }
        let h = try Handle()
        let header = try h.header(data, segments: segments)
        let (w, hgt) = (header.width, header.height)
        guard w <= maxPixels / hgt else { throw .tooManyPixels(width: w, height: hgt, limit: maxPixels) }
        let orientation = segments.orientation
        let swaps = ExifOrientation.swapsAxes(orientation)
        // The target is upright; the decoder works in stored orientation.
        var target = targetSize.map { swaps ? (width: $0.height, height: $0.width) : $0 }
        if let t = target, t.width <= 0 || t.height <= 0 { target = nil }
        let (num, den) = chooseScale(width: w, height: hgt, target: target)
        let sw = (w * num + den - 1) / den, sh = (hgt * num + den - 1) / den
        let isCMYK = header.colorspace == Int32(TJCS_CMYK.rawValue) || header.colorspace == Int32(TJCS_YCCK.rawValue)
        let bitmap = try Bitmap(width: sw, height: sh)
        let flags = Int32(tolerateWarnings ? TJFLAG_ACCURATEDCT : TJFLAG_STOPONWARNING | TJFLAG_ACCURATEDCT)
        // BGRA bytes are the little-endian 0xAARRGGBB words pixman's a8r8g8b8 expects; CMYK
        // (which libjpeg cannot convert to RGB itself) also has 4 bytes a pixel, so it is
        // decoded into the same memory and converted in place.
        try h.decompress(data, into: bitmap.data, width: sw, pitch: bitmap.stride, height: sh,
                         format: Int32((isCMYK ? TJPF_CMYK : TJPF_BGRA).rawValue), flags: flags,
                         tolerateWarnings: tolerateWarnings)
        if isCMYK { convertCMYK(bitmap, inverted: segments.hasAdobeMarker) }
        let upright = try ExifOrientation.apply(orientation, to: bitmap)
        return DecodedImage(bitmap: upright, format: .jpeg,
                            originalWidth: swaps ? hgt : w, originalHeight: swaps ? w : hgt,
                            orientation: orientation, decodeScale: Double(num) / Double(den))
    }

    /// CMYK bytes (C, M, Y, K in memory order) to opaque RGB, in place. Adobe's encoders (marked
    /// by an APP14 "Adobe" segment — nearly every CMYK JPEG) store the channels inverted, so
    /// R = C·K/255; plain CMYK gives R = (255 − C)(255 − K)/255. No colour management.
    static func convertCMYK(_ bitmap: Bitmap, inverted: Bool) {
        @inline(__always) func mul(_ a: UInt32, _ b: UInt32) -> UInt32 { let t = a * b + 128; return (t + (t >> 8)) >> 8 }
        for y in 0..<bitmap.height {
            let row = (bitmap.data + y * bitmap.stride).assumingMemoryBound(to: UInt8.self)
            for x in 0..<bitmap.width {
                let px = row + x * 4
                var c = UInt32(px[0]), m = UInt32(px[1]), ye = UInt32(px[2]), k = UInt32(px[3])
                if !inverted { c = 255 - c; m = 255 - m; ye = 255 - ye; k = 255 - k }
                let word = 0xff00_0000 | mul(c, k) << 16 | mul(m, k) << 8 | mul(ye, k)
                UnsafeMutableRawPointer(px).storeBytes(of: word, as: UInt32.self)
            }
        }
    }

    /// The smallest libjpeg-turbo scale whose output still covers `target` (1/1 without one).
    static func chooseScale(width: Int, height: Int, target: (width: Int, height: Int)?) -> (Int, Int) {
        guard let target else { return (1, 1) }
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count), count > 0 else { return (1, 1) }
        var best = (1, 1)
        var bestPixels = Int.max
        for i in 0..<Int(count) {
            let f = factors[i]
            let (n, d) = (Int(f.num), Int(f.denom))
            guard n <= d else { continue }  // never upscale while decoding
            let sw = (width * n + d - 1) / d, sh = (height * n + d - 1) / d
            if sw >= min(target.width, width), sh >= min(target.height, height), sw * sh < bestPixels {
                best = (n, d); bestPixels = sw * sh
            }
        }
        return best
    }

    /// Owns a TurboJPEG decompressor handle.
    final class Handle {
        let raw: tjhandle
        init() throws(RasterError) {
            guard let h = tjInitDecompress() else { throw .allocationFailed(bytes: 0) }
            raw = h
        }
        deinit { tjDestroy(raw) }

        /// `tjDecompressHeader3`. A file cut inside its header segments is `.truncated`
        /// whatever libjpeg says (it reports "no image" or zero sizes for those).
        func header(_ data: Data, segments: JPEGSegments) throws(RasterError) -> (width: Int, height: Int, colorspace: Int32) {
            var w: Int32 = 0, h: Int32 = 0, sub: Int32 = 0, cs: Int32 = 0
            let rc = data.withUnsafeBytes { buf in
                tjDecompressHeader3(raw, buf.bindMemory(to: UInt8.self).baseAddress, UInt(buf.count), &w, &h, &sub, &cs)
            }
            if segments.endsInHeader, rc != 0 || w <= 0 || h <= 0 {
                throw .truncated("JPEG: the data ends inside the header, after \(data.count) bytes")
            }
            guard rc == 0 else { throw classify(message) }
            guard w > 0, h > 0 else { throw .corrupt("JPEG header has a zero dimension") }
            return (Int(w), Int(h), cs)
        }

        func decompress(_ data: Data, into dst: UnsafeMutableRawPointer, width: Int, pitch: Int, height: Int,
                        format: Int32, flags: Int32, tolerateWarnings: Bool = false) throws(RasterError) {
            let rc = data.withUnsafeBytes { buf in
                tjDecompress2(raw, buf.bindMemory(to: UInt8.self).baseAddress, UInt(buf.count),
                              dst.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(pitch), Int32(height), format, flags)
            }
            // Without TJFLAG_STOPONWARNING a warning still returns -1, but the output is complete.
            if rc != 0, tolerateWarnings, tjGetErrorCode(raw) == Int32(TJERR_WARNING.rawValue) { return }
            guard rc == 0 else { throw classify(message) }
        }

        var message: String { String(cString: tjGetErrorStr2(raw)) }
    }

    static func classify(_ message: String) -> RasterError {
        let m = message.lowercased()
        if m.contains("premature end") || m.contains("truncated") || m.contains("insufficient") {
            return .truncated("JPEG: \(message)")
        }
        return .corrupt("JPEG: \(message)")
    }
}
