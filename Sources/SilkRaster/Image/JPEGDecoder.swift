import CTurboJPEG
import Foundation

/// JPEG through libjpeg-turbo's TurboJPEG API (errors by return code, no longjmp), decoding
/// straight to BGRA at the smallest M/8 scale that still covers the target size.
/// `TJFLAG_STOPONWARNING` turns libjpeg's "premature end of data" warning into an error, so a
/// truncated file is reported as `.truncated` instead of showing a grey lower half.
enum JPEGDecoder {
    static func probe(_ data: Data) throws(RasterError) -> ImageDecoder.Info {
        let h = try Handle()
        let header = try h.header(data)
        return ImageDecoder.Info(format: .jpeg, width: header.width, height: header.height)
    }

    static func decode(_ data: Data, targetSize: (width: Int, height: Int)?, maxPixels: Int) throws(RasterError) -> DecodedImage {
        // The size claimed by the frame header is checked before libjpeg reads any further.
        if let (fw, fh) = frameSize(data), fw > 0, fh > 0, fw > maxPixels / fh {
            throw .tooManyPixels(width: fw, height: fh, limit: maxPixels)
        }
        let h = try Handle()
        let header = try h.header(data)
        let (w, hgt) = (header.width, header.height)
        guard w > 0, hgt > 0 else { throw .corrupt("JPEG header has a zero dimension") }
        guard w <= maxPixels / hgt else { throw .tooManyPixels(width: w, height: hgt, limit: maxPixels) }
        let orientation = ExifOrientation.read(from: data)
        let swaps = orientation >= 5
        // The target is upright; the decoder works in stored orientation.
        var target = targetSize.map { swaps ? (width: $0.height, height: $0.width) : $0 }
        if let t = target, t.width <= 0 || t.height <= 0 { target = nil }
        let (num, den) = chooseScale(width: w, height: hgt, target: target)
        let sw = (w * num + den - 1) / den, sh = (hgt * num + den - 1) / den
        let isCMYK = header.colorspace == Int32(TJCS_CMYK.rawValue) || header.colorspace == Int32(TJCS_YCCK.rawValue)
        let bitmap = try Bitmap(width: sw, height: sh)
        let flags = Int32(TJFLAG_STOPONWARNING | TJFLAG_ACCURATEDCT)
        if isCMYK {
            // libjpeg cannot convert CMYK to RGB itself: decode CMYK and convert (Adobe's
            // inverted CMYK, which nearly every CMYK JPEG uses).
            var cmyk = [UInt8](repeating: 0, count: sw * sh * 4)
            try h.decompress(data, into: &cmyk, width: sw, pitch: sw * 4, height: sh,
                             format: Int32(TJPF_CMYK.rawValue), flags: flags)
            for y in 0..<sh {
                let row = (bitmap.data + y * bitmap.stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<sw {
                    let i = (y * sw + x) * 4
                    let k = UInt32(cmyk[i + 3])
                    let r = UInt32(cmyk[i]) * k / 255, g = UInt32(cmyk[i + 1]) * k / 255, b = UInt32(cmyk[i + 2]) * k / 255
                    row[x] = 0xff00_0000 | r << 16 | g << 8 | b
                }
            }
        } else {
            try h.decompress(data, into: bitmap.data, width: sw, pitch: bitmap.stride, height: sh,
                             format: Int32(TJPF_BGRA.rawValue), flags: flags)
        }
        let upright = try ExifOrientation.apply(orientation, to: bitmap)
        return DecodedImage(bitmap: upright, format: .jpeg,
                            originalWidth: swaps ? hgt : w, originalHeight: swaps ? w : hgt,
                            orientation: orientation, decodeScale: Double(num) / Double(den))
    }

    /// Width and height from the first SOFn segment, walking the marker segments (bounds-checked).
    static func frameSize(_ data: Data) -> (Int, Int)? {
        let b = [UInt8](data.prefix(1 << 20))
        var i = 2
        while i + 4 <= b.count, b[i] == 0xFF {
            let m = b[i + 1]
            if m == 0xFF { i += 1; continue }
            if m == 0xD8 || m == 0x01 || (0xD0...0xD7).contains(m) { i += 2; continue }
            if m == 0xDA || m == 0xD9 { return nil }
            let len = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard len >= 2 else { return nil }
            if (0xC0...0xCF).contains(m), m != 0xC4, m != 0xC8, m != 0xCC {
                guard i + 9 <= b.count else { return nil }
                return (Int(b[i + 7]) << 8 | Int(b[i + 8]), Int(b[i + 5]) << 8 | Int(b[i + 6]))
            }
            i += 2 + len
        }
        return nil
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

        func header(_ data: Data) throws(RasterError) -> (width: Int, height: Int, colorspace: Int32) {
            var w: Int32 = 0, h: Int32 = 0, sub: Int32 = 0, cs: Int32 = 0
            let rc = data.withUnsafeBytes { buf in
                tjDecompressHeader3(raw, buf.bindMemory(to: UInt8.self).baseAddress, UInt(buf.count), &w, &h, &sub, &cs)
            }
            guard rc == 0 else { throw classify(message) }
            return (Int(w), Int(h), cs)
        }

        func decompress(_ data: Data, into dst: UnsafeMutableRawPointer, width: Int, pitch: Int, height: Int,
                        format: Int32, flags: Int32) throws(RasterError) {
            let rc = data.withUnsafeBytes { buf in
                tjDecompress2(raw, buf.bindMemory(to: UInt8.self).baseAddress, UInt(buf.count),
                              dst.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(pitch), Int32(height), format, flags)
            }
            guard rc == 0 else { throw classify(message) }
        }

        func decompress(_ data: Data, into dst: inout [UInt8], width: Int, pitch: Int, height: Int,
                        format: Int32, flags: Int32) throws(RasterError) {
            var failure: RasterError?
            dst.withUnsafeMutableBytes { out in
                do throws(RasterError) {
                    try decompress(data, into: out.baseAddress!, width: width, pitch: pitch, height: height, format: format, flags: flags)
                } catch { failure = error }
            }
            if let failure { throw failure }
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
