import SilkGeometry

// Gaussian-quality blur as three box blurs per axis (the approach of Apple's UIImage+ImageEffects
// that the Texture tutorial's `applyBlur(radius:tintColor:saturationDeltaFactor:)` uses).
//
// Cost is independent of the radius: each box pass keeps a running sum per channel. Rows are
// blurred, the image is transposed, rows are blurred again, and transposed back, so both axes
// walk memory sequentially. Edges clamp (the border pixel repeats), so a blurred photo has no
// dark halo. Work is in premultiplied ARGB32, integer arithmetic only (portable to ARM).

extension Bitmap {
    /// A blurred copy of this ARGB32 bitmap.
    ///
    /// - Parameters:
    ///   - radius: Gaussian-equivalent radius in pixels (≤ 0: no blur).
    ///   - tintColor: composited over the result (e.g. white at 30 % for a frosted look).
    ///   - saturationDeltaFactor: 1 keeps colours, 0 is grey, > 1 boosts (1.8 in the tutorial).
    ///   - isCancelled: checked between bands of 16 rows; when it returns true the blur stops
    ///     and throws `RasterError.cancelled` (a display job's sentinel changed).
    public func blurred(radius: Double, tintColor: Color? = nil, saturationDeltaFactor: Double = 1,
                        isCancelled: () -> Bool = { false }) throws(RasterError) -> Bitmap {
        guard format == .argb32 else { return try copy(format: .argb32).blurred(
            radius: radius, tintColor: tintColor, saturationDeltaFactor: saturationDeltaFactor, isCancelled: isCancelled) }
        let w = width, h = height
        var a = [UInt32](repeating: 0, count: w * h)
        for y in 0..<h {
            let row = (data + y * stride).assumingMemoryBound(to: UInt32.self)
            a.withUnsafeMutableBufferPointer { buf in
                buf.baseAddress!.advanced(by: y * w).update(from: row, count: w)
            }
        }
        if radius.isFinite, radius > 0.5 {
            // Apple's box size for a Gaussian of this radius: d = ⌊r·3·√(2π)/4 + 0.5⌋.
            var d = Int((radius * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down))
            d = max(1, min(d, 2 * max(w, h) + 1))
            let passes: [(Int, Int)] = d % 2 == 1
                ? [(d / 2, d / 2), (d / 2, d / 2), (d / 2, d / 2)]
                : [(d / 2, d / 2 - 1), (d / 2 - 1, d / 2), (d / 2, d / 2)]
            var b = [UInt32](repeating: 0, count: w * h)
            try BoxBlur.rows(&a, &b, width: w, height: h, passes: passes, isCancelled: isCancelled)
            BoxBlur.transpose(a, into: &b, width: w, height: h)
            try BoxBlur.rows(&b, &a, width: h, height: w, passes: passes, isCancelled: isCancelled)
            BoxBlur.transpose(b, into: &a, width: h, height: w)
        }
        if isCancelled() { throw .cancelled }
        let out = try Bitmap(width: w, height: h)
        let s = saturationDeltaFactor.isFinite ? saturationDeltaFactor : 1
        a.withUnsafeBufferPointer { src in
            for y in 0..<h {
                let row = (out.data + y * out.stride).assumingMemoryBound(to: UInt32.self)
                if s == 1 {
                    row.update(from: src.baseAddress!.advanced(by: y * w), count: w)
                    continue
                }
                // Saturation around Rec. 709 luminance, on premultiplied values (the matrix is
                // linear, so it commutes with premultiplication); clamped to [0, alpha].
                let sk = Int(s * 1024)
                for x in 0..<w {
                    let p = src[y * w + x]
                    let al = Int(p >> 24)
                    let r = Int((p >> 16) & 0xff), g = Int((p >> 8) & 0xff), bl = Int(p & 0xff)
                    let lum = (r * 218 + g * 732 + bl * 74) >> 10
                    func sat(_ c: Int) -> UInt32 { UInt32(min(al, max(0, lum + ((c - lum) * sk >> 10)))) }
                    row[x] = UInt32(al) << 24 | sat(r) << 16 | sat(g) << 8 | sat(bl)
                }
            }
        }
        if let tintColor, tintColor.alpha > 0 {
            Canvas(bitmap: out).fill(out.bounds, with: .color(tintColor))
        }
        return out
    }
}

enum BoxBlur {
    /// Applies each (left, right) box pass to every row, ping-ponging between `a` and `b`;
    /// the result ends in `a`.
    static func rows(_ a: inout [UInt32], _ b: inout [UInt32], width w: Int, height h: Int,
                     passes: [(Int, Int)], isCancelled: () -> Bool) throws(RasterError) {
        for (left, right) in passes {
            let n = left + right + 1
            let inv = UInt64((1 << 32) / n)
            var cancelled = false
            a.withUnsafeBufferPointer { src in
                b.withUnsafeMutableBufferPointer { dst in
                    for y in 0..<h {
                        if y % 16 == 0, isCancelled() { cancelled = true; return }
                        pass(src.baseAddress! + y * w, dst.baseAddress! + y * w, w, left, right, inv)
                    }
                }
            }
            if cancelled { throw .cancelled }
            swap(&a, &b)
        }
    }

    /// One box pass over one row with clamped edges: out[x] = mean(in[x-left … x+right]).
    @inline(__always)
    static func pass(_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt32>, _ w: Int,
                     _ left: Int, _ right: Int, _ inv: UInt64) {
        var sa: UInt64 = 0, sr: UInt64 = 0, sg: UInt64 = 0, sb: UInt64 = 0
        @inline(__always) func add(_ p: UInt32) {
            sa &+= UInt64(p >> 24); sr &+= UInt64((p >> 16) & 0xff); sg &+= UInt64((p >> 8) & 0xff); sb &+= UInt64(p & 0xff)
        }
        @inline(__always) func sub(_ p: UInt32) {
            sa &-= UInt64(p >> 24); sr &-= UInt64((p >> 16) & 0xff); sg &-= UInt64((p >> 8) & 0xff); sb &-= UInt64(p & 0xff)
        }
        let last = w - 1
        for k in -left...right { add(src[min(last, max(0, k))]) }
        let half: UInt64 = 1 << 31
        for x in 0..<w {
            dst[x] = UInt32((sa &* inv &+ half) >> 32) << 24 | UInt32((sr &* inv &+ half) >> 32) << 16
                | UInt32((sg &* inv &+ half) >> 32) << 8 | UInt32((sb &* inv &+ half) >> 32)
            add(src[min(last, x + right + 1)])
            sub(src[max(0, x - left)])
        }
    }

    /// Transposes a w×h image into an h×w one, in 32×32 tiles for cache locality.
    static func transpose(_ src: [UInt32], into dst: inout [UInt32], width w: Int, height h: Int) {
        src.withUnsafeBufferPointer { s in
            dst.withUnsafeMutableBufferPointer { d in
                let tile = 32
                for y0 in stride(from: 0, to: h, by: tile) {
                    for x0 in stride(from: 0, to: w, by: tile) {
                        for y in y0..<min(h, y0 + tile) {
                            for x in x0..<min(w, x0 + tile) { d[x * h + y] = s[y * w + x] }
                        }
                    }
                }
            }
        }
    }
}
