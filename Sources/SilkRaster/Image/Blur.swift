import SilkGeometry
#if canImport(Glibc)
import Glibc
#endif

// Gaussian-quality blur as three box blurs per axis — the method of Apple's UIImage+ImageEffects,
// which the Texture tutorial's `applyBlur(radius:tintColor:saturationDeltaFactor:)` uses — then
// a saturation matrix, then a tint composited over.
//
// Why it is fast (this runs per card while scrolling, on a Raspberry Pi):
// - Cost is independent of the radius: each box pass slides a running sum.
// - Every pass runs *down the columns of a whole row at once*: one accumulator per byte of a
//   row, `acc[i] += in[y+r+1][i] − in[y−r][i]`, `out[y][i] = acc[i] / d`. The inner loop walks
//   memory sequentially and is the same for every byte (premultiplied ARGB32 channels are
//   independent), so the compiler vectorises it — NEON on aarch64, SSE on x86, no intrinsics.
// - Horizontal passes are the same vertical passes on the transposed image (transposed in
//   cache-sized tiles), so both axes stream memory.
// - Integer arithmetic only: the division by d is a multiply by ⌈2²⁴/d⌉ and a shift, exact
//   to within rounding for every 8-bit mean. Box filtering premultiplied values keeps them
//   valid (each channel ≤ alpha), since the same weights apply to colour and alpha.
// - One scratch image (the output's memory is the other) and one accumulator row per call;
//   nothing is allocated per pixel.
//
// Edges clamp (the border pixel repeats), so a blurred photo has no dark halo.

extension Bitmap {
    /// A blurred copy of this bitmap, as premultiplied ARGB32.
    ///
    /// - Parameters:
    ///   - radius: Gaussian-equivalent radius in this bitmap's pixels (multiply points by the
    ///     scale, as Apple's category does). The box size is Apple's
    ///     d = ⌊radius·3·√(2π)/4 + 0.5⌋, made odd; d ≤ 1 (radius below ~0.45) means no blur.
    ///   - tintColor: composited over the result (the tutorial uses 50 % grey at 30 % alpha).
    ///   - saturationDeltaFactor: 1 keeps colours, 0 is grey, > 1 boosts (the tutorial uses
    ///     1.8): c' = lum + s·(c − lum) with Rec. 709 luminance, clamped to [0, alpha].
    ///   - isCancelled: called before each band of 16 rows of every pass (and once more before
    ///     the colour pass); when it returns true the blur stops at once and throws
    ///     `RasterError.cancelled` (a display job's sentinel changed).
    public func blurred(radius: Double, tintColor: Color? = nil, saturationDeltaFactor: Double = 1,
                        isCancelled: () -> Bool = { false }) throws(RasterError) -> Bitmap {
        guard format == .argb32 else {
            return try copy(format: .argb32).blurred(radius: radius, tintColor: tintColor,
                                                    saturationDeltaFactor: saturationDeltaFactor,
                                                    isCancelled: isCancelled)
        }
        let out = try Bitmap(width: width, height: height)
        let d = BoxBlur.boxSize(radius: radius)
        if d > 1 {
            try BoxBlur.blur(self, into: out, boxSize: d, isCancelled: isCancelled)
        } else {
            for y in 0..<height { (out.data + y * out.stride).copyMemory(from: data + y * stride, byteCount: width * 4) }
        }
        if isCancelled() { throw .cancelled }
        let s = saturationDeltaFactor.isFinite ? saturationDeltaFactor : 1
        let tint = tintColor.map(\.premultipliedARGB32) ?? 0
        if s != 1 || tint != 0 { BoxBlur.adjustColors(out, saturation: s, tint: tint) }
        return out
    }
}

enum BoxBlur {
    /// Rows per cancellation check.
    static let band = 16
    /// Largest box: keeps `sum × ⌈2²⁴/d⌉ + 2²³` inside 32 bits.
    static let maxBoxSize = 32_767

    /// Apple's box size for a Gaussian of `radius` pixels, forced odd so the box is centred.
    static func boxSize(radius: Double) -> Int {
        guard radius.isFinite, radius > 0 else { return 1 }
        let d = Int(min(Double(maxBoxSize), (radius * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down)))
        return min(maxBoxSize, d % 2 == 1 ? d : d + 1)
    }

    /// Three box passes down the columns, transpose, three more (the rows), transpose back.
    /// Ping-pongs between one scratch image and `out`'s own memory (viewed as w·h packed
    /// pixels, which fits because out.stride ≥ 4w), so a blur allocates one scratch image.
    static func blur(_ src: Bitmap, into out: Bitmap, boxSize d: Int, isCancelled: () -> Bool) throws(RasterError) {
        let w = src.width, h = src.height
        // malloc, not UnsafeMutableRawPointer.allocate: a failed allocation must be an error,
        // not a trap (the output bitmap of the same size was just allocated, so this is rare).
        guard let scratch = malloc(w * h * 4) else { throw .allocationFailed(bytes: w * h * 4) }
        let acc = UnsafeMutableRawPointer.allocate(byteCount: (max(w, h) * 4 + 16) * 4, alignment: 64)
            .bindMemory(to: UInt32.self, capacity: max(w, h) * 4 + 16)
        defer { free(scratch); acc.deallocate() }
        let r = d / 2
        let mul = UInt32((1 << 24) / d + ((1 << 24) % d == 0 ? 0 : 1))
        let rowW = w * 4, rowH = h * 4
        let packed = out.data

        // Vertical: the columns of the image (h rows of w pixels).
        guard columns(src.data, src.stride, scratch, rowW, w, h, r, mul, acc, isCancelled),
              columns(scratch, rowW, packed, rowW, w, h, r, mul, acc, isCancelled),
              columns(packed, rowW, scratch, rowW, w, h, r, mul, acc, isCancelled) else { throw .cancelled }
        transpose(scratch, rowW, into: packed, rowH, width: w, height: h)
        // Horizontal: the columns of the transposed image (w rows of h pixels).
        guard columns(packed, rowH, scratch, rowH, h, w, r, mul, acc, isCancelled),
              columns(scratch, rowH, packed, rowH, h, w, r, mul, acc, isCancelled),
              columns(packed, rowH, scratch, rowH, h, w, r, mul, acc, isCancelled) else { throw .cancelled }
        transpose(scratch, rowH, into: out.data, out.stride, width: h, height: w)
    }

    /// One box pass of width 2r+1 down every column of `count` rows of `pixels` pixels:
    /// `dst[y][x] = mean(src[clamp(y−r)…clamp(y+r)][x])` per channel. Returns false when cancelled.
    ///
    /// Four pixels at a time as `SIMD4<UInt32>` words, channels split with shifts and masks
    /// (LLVM does not vectorise the scalar loop itself: it cannot prove that the rows and the
    /// accumulators do not alias). Accumulators for a group of four pixels are four vectors, one
    /// per channel; pixels after the last whole group use scalar accumulators after them.
    static func columns(_ src: UnsafeMutableRawPointer, _ srcStride: Int,
                        _ dst: UnsafeMutableRawPointer, _ dstStride: Int,
                        _ pixels: Int, _ count: Int, _ r: Int, _ mul: UInt32,
                        _ acc: UnsafeMutablePointer<UInt32>, _ isCancelled: () -> Bool) -> Bool {
        typealias V = SIMD4<UInt32>
        let groups = pixels / 4
        let vacc = UnsafeMutableRawPointer(acc)
        @inline(__always) func row(_ y: Int) -> UnsafeRawPointer { UnsafeRawPointer(src + y * srcStride) }
        @inline(__always) func accumulate(_ p: UnsafeRawPointer, _ times: UInt32) {
            for g in 0..<groups {
                let w = p.loadUnaligned(fromByteOffset: g * 16, as: V.self)
                let a = vacc + g * 64
                a.storeBytes(of: a.load(as: V.self) &+ (w & 0xff) &* times, as: V.self)
                a.storeBytes(of: a.load(fromByteOffset: 16, as: V.self) &+ ((w &>> 8) & 0xff) &* times, toByteOffset: 16, as: V.self)
                a.storeBytes(of: a.load(fromByteOffset: 32, as: V.self) &+ ((w &>> 16) & 0xff) &* times, toByteOffset: 32, as: V.self)
                a.storeBytes(of: a.load(fromByteOffset: 48, as: V.self) &+ (w &>> 24) &* times, toByteOffset: 48, as: V.self)
            }
            for x in groups * 4..<pixels {
                let w = p.load(fromByteOffset: x * 4, as: UInt32.self)
                for c in 0..<4 { acc[x * 4 + c] &+= ((w >> UInt32(8 * c)) & 0xff) &* times }
            }
        }
        // Window centred on row 0: row 0 repeated r + 1 times (the clamped top edge), then rows
        // 1…r, the last row standing in for any beyond the bottom.
        acc.update(repeating: 0, count: pixels * 4)
        accumulate(row(0), UInt32(r + 1))
        var k = 1
        while k <= r {
            if k < count {
                accumulate(row(k), 1)
                k += 1
            } else {
                accumulate(row(count - 1), UInt32(r - k + 1))
                break
            }
        }
        let half: UInt32 = 1 << 23
        for y in 0..<count {
            if y % band == 0, isCancelled() { return false }
            let o = dst + y * dstStride
            let incoming = row(min(y + r + 1, count - 1)), outgoing = row(max(y - r, 0))
            for g in 0..<groups {
                let a = vacc + g * 64
                var s0 = a.load(as: V.self), s1 = a.load(fromByteOffset: 16, as: V.self)
                var s2 = a.load(fromByteOffset: 32, as: V.self), s3 = a.load(fromByteOffset: 48, as: V.self)
                let m0: V = (s0 &* mul &+ half) &>> 24, m1: V = (s1 &* mul &+ half) &>> 24
                let m2: V = (s2 &* mul &+ half) &>> 24, m3: V = (s3 &* mul &+ half) &>> 24
                let mean: V = m0 | m1 &<< 8 | m2 &<< 16 | m3 &<< 24
                o.storeBytes(of: mean, toByteOffset: g * 16, as: V.self)
                let i = incoming.loadUnaligned(fromByteOffset: g * 16, as: V.self)
                let u = outgoing.loadUnaligned(fromByteOffset: g * 16, as: V.self)
                s0 = s0 &+ (i & 0xff) &- (u & 0xff)
                s1 = s1 &+ ((i &>> 8) & 0xff) &- ((u &>> 8) & 0xff)
                s2 = s2 &+ ((i &>> 16) & 0xff) &- ((u &>> 16) & 0xff)
                s3 = s3 &+ (i &>> 24) &- (u &>> 24)
                a.storeBytes(of: s0, as: V.self); a.storeBytes(of: s1, toByteOffset: 16, as: V.self)
                a.storeBytes(of: s2, toByteOffset: 32, as: V.self); a.storeBytes(of: s3, toByteOffset: 48, as: V.self)
            }
            for x in groups * 4..<pixels {
                let iw = incoming.load(fromByteOffset: x * 4, as: UInt32.self)
                let uw = outgoing.load(fromByteOffset: x * 4, as: UInt32.self)
                var word: UInt32 = 0
                for c in 0..<4 {
                    let shift = UInt32(8 * c), s = acc[x * 4 + c]
                    word |= ((s &* mul &+ half) >> 24) << shift
                    acc[x * 4 + c] = s &+ ((iw >> shift) & 0xff) &- ((uw >> shift) & 0xff)
                }
                o.storeBytes(of: word, toByteOffset: x * 4, as: UInt32.self)
            }
        }
        return true
    }

    /// Transposes a width×height image of 32-bit pixels in 16×16 tiles (both sides stay in cache).
    static func transpose(_ src: UnsafeMutableRawPointer, _ srcStride: Int,
                          into dst: UnsafeMutableRawPointer, _ dstStride: Int, width w: Int, height h: Int) {
        let tile = 16
        var y0 = 0
        while y0 < h {
            let y1 = min(h, y0 + tile)
            var x0 = 0
            while x0 < w {
                let x1 = min(w, x0 + tile)
                for y in y0..<y1 {
                    let s = (src + y * srcStride).assumingMemoryBound(to: UInt32.self)
                    for x in x0..<x1 { (dst + x * dstStride).assumingMemoryBound(to: UInt32.self)[y] = s[x] }
                }
                x0 = x1
            }
            y0 = y1
        }
    }

    /// Saturation around Rec. 709 luminance (Apple's matrix; linear, so it applies to
    /// premultiplied values directly), clamped to [0, alpha]; then `tint` (premultiplied
    /// ARGB32, 0 for none) composited over. Four pixels at a time, like `columns`.
    static func adjustColors(_ bitmap: Bitmap, saturation: Double, tint: UInt32) {
        typealias U = SIMD4<UInt32>
        typealias I = SIMD4<Int32>
        // Fixed point with 12 fraction bits; |s| ≤ 64 keeps (c − lum)·s inside Int32.
        let sk = Int32((max(-64, min(64, saturation)) * 4096).rounded())
        let saturate = saturation != 1
        let ta = tint >> 24, inv = 255 - ta
        let tr = (tint >> 16) & 0xff, tg = (tint >> 8) & 0xff, tb = tint & 0xff
        let zero = I(repeating: 0)
        @inline(__always) func over(_ c: U, _ t: UInt32) -> U {
            let x = c &* inv &+ 128
            return t &+ ((x &+ (x &>> 8)) &>> 8)
        }
        @inline(__always) func adjust(_ p: U) -> U {
            var a = p &>> 24, r = (p &>> 16) & 0xff, g = (p &>> 8) & 0xff, b = p & 0xff
            if saturate {
                let lum = unsafeBitCast((r &* 13933 &+ g &* 46871 &+ b &* 4732) &>> 16, to: I.self)
                let al = unsafeBitCast(a, to: I.self)
                @inline(__always) func sat(_ c: U) -> U {
                    let v = lum &+ ((unsafeBitCast(c, to: I.self) &- lum) &* sk) &>> 12
                    return unsafeBitCast(pointwiseMin(al, pointwiseMax(zero, v)), to: U.self)
                }
                r = sat(r); g = sat(g); b = sat(b)
            }
            if ta > 0 { a = over(a, ta); r = over(r, tr); g = over(g, tg); b = over(b, tb) }
            return a &<< 24 | r &<< 16 | g &<< 8 | b
        }
        let groups = bitmap.width / 4
        for y in 0..<bitmap.height {
            let row = bitmap.data + y * bitmap.stride
            for g in 0..<groups {
                row.storeBytes(of: adjust(row.load(fromByteOffset: g * 16, as: U.self)), toByteOffset: g * 16, as: U.self)
            }
            for x in groups * 4..<bitmap.width {
                let p = row.load(fromByteOffset: x * 4, as: UInt32.self)
                row.storeBytes(of: adjust(U(repeating: p))[0], toByteOffset: x * 4, as: UInt32.self)
            }
        }
    }
}
