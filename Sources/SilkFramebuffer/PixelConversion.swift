// Converting the compositor's back buffer (premultiplied ARGB32, 0xAARRGGBB words in native byte
// order) into device pixels, row by row, with rotation and optional ordered dithering for 16 bpp.
//
// Only the damaged rectangles are converted, and the destination is written strictly forwards,
// row after row: mapped display memory is write-combined (sequential writes are cheap, reads are
// ~70× slower), so nothing here ever reads the destination.
import SilkGeometry
import SilkRaster

/// How the picture is turned on the panel, clockwise: with 90 and 270 the application sees a
/// screen as wide as the panel is tall.
public enum Rotation: Int, Sendable, CaseIterable, CustomStringConvertible {
    case none = 0, clockwise90 = 90, upsideDown = 180, clockwise270 = 270

    public init?(degrees: Int) { self.init(rawValue: ((degrees % 360) + 360) % 360) }

    public var swapsAxes: Bool { self == .clockwise90 || self == .clockwise270 }

    /// The logical (application) size for a device of `width`×`height` pixels.
    public func logicalSize(deviceWidth w: Int, deviceHeight h: Int) -> (width: Int, height: Int) {
        swapsAxes ? (h, w) : (w, h)
    }

    /// The device rectangle showing logical pixel rectangle `r` (integral) on a `w`×`h` device.
    public func deviceRect(_ r: Rect, deviceWidth w: Int, deviceHeight h: Int) -> Rect {
        let W = Double(w), H = Double(h)
        switch self {
        case .none: return r
        case .clockwise90: return Rect(x: W - r.maxY, y: r.minX, width: r.height, height: r.width)
        case .upsideDown: return Rect(x: W - r.maxX, y: H - r.maxY, width: r.width, height: r.height)
        case .clockwise270: return Rect(x: r.minY, y: H - r.maxX, width: r.height, height: r.width)
        }
    }

    /// A point on the device (continuous coordinates, e.g. a touch) in logical coordinates.
    public func logicalPoint(fromDevice p: Point, deviceWidth w: Int, deviceHeight h: Int) -> Point {
        let W = Double(w), H = Double(h)
        switch self {
        case .none: return p
        case .clockwise90: return Point(x: p.y, y: W - p.x)
        case .upsideDown: return Point(x: W - p.x, y: H - p.y)
        case .clockwise270: return Point(x: H - p.y, y: p.x)
        }
    }

    public var description: String { "\(rawValue)°" }
}

/// Writes back-buffer pixels into device memory in one device format.
public struct PixelConverter: Sendable {
    public let format: FramebufferPixelFormat
    public let rotation: Rotation
    /// Ordered (4×4 Bayer) dithering when reducing to 16 bpp.
    public let dither: Bool

    public init(format: FramebufferPixelFormat, rotation: Rotation = .none, dither: Bool = false) {
        self.format = format; self.rotation = rotation; self.dither = dither
    }

    /// The 4×4 Bayer matrix, 0…15, indexed [y & 3][x & 3].
    static let bayer: [UInt32] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]

    /// Converts logical rectangle `rect` (integral, inside `source`) of `source` into the device
    /// page at `page` (`lineLength` bytes per row, `deviceWidth`×`deviceHeight` pixels).
    public func copy(_ rect: Rect, from source: Bitmap, to page: UnsafeMutableRawPointer, lineLength: Int,
                     deviceWidth: Int, deviceHeight: Int) {
        let r = rect.integral.intersection(source.bounds)
        guard !r.isEmpty else { return }
        precondition(source.format == .argb32 || source.format == .xrgb32, "the back buffer is 32 bpp")
        let d = rotation.deviceRect(r, deviceWidth: deviceWidth, deviceHeight: deviceHeight)
        let dx0 = Int(d.minX), dy0 = Int(d.minY), dw = Int(d.width), dh = Int(d.height)
        let srcPixels = source.data.assumingMemoryBound(to: UInt32.self)
        let sp = source.stride / 4  // source stride in pixels
        let bpp = format.bytesPerPixel
        for row in 0..<dh {
            let dy = dy0 + row
            // Where this device row starts in the source, and the source step per device pixel.
            let start: Int, step: Int
            switch rotation {
            case .none: start = dy * sp + dx0; step = 1
            case .clockwise90: start = (deviceWidth - 1 - dx0) * sp + dy; step = -sp
            case .upsideDown: start = (deviceHeight - 1 - dy) * sp + (deviceWidth - 1 - dx0); step = -1
            case .clockwise270: start = dx0 * sp + (deviceHeight - 1 - dy); step = sp
            }
            let dst = page + dy * lineLength + dx0 * bpp
            convertRow(srcPixels + start, step: step, count: dw, to: dst, deviceX: dx0, deviceY: dy)
        }
    }

    /// One row: `count` source pixels `step` apart → consecutive device pixels.
    @inline(__always)
    func convertRow(_ src: UnsafeMutablePointer<UInt32>, step: Int, count: Int, to dst: UnsafeMutableRawPointer,
                    deviceX: Int, deviceY: Int) {
        switch format {
        case .xrgb8888:
            if step == 1 { dst.copyMemory(from: src, byteCount: count * 4); return }
            let o = dst.assumingMemoryBound(to: UInt32.self)
            for i in 0..<count { o[i] = src[i * step] }
        case .argb8888:
            let o = dst.assumingMemoryBound(to: UInt32.self)
            for i in 0..<count { o[i] = src[i * step] | 0xff00_0000 }
        case .bgrx8888:
            let o = dst.assumingMemoryBound(to: UInt32.self)
            for i in 0..<count { o[i] = (src[i * step] | 0xff00_0000).byteSwapped }
        case .xbgr8888:
            let o = dst.assumingMemoryBound(to: UInt32.self)
            for i in 0..<count {
                let p = src[i * step]
                o[i] = (p & 0xff00_ff00) | (p & 0xff) << 16 | (p >> 16) & 0xff
            }
        case .rgb565, .bgr565:
            let o = dst.assumingMemoryBound(to: UInt16.self)
            let swapRB = format == .bgr565
            if dither {
                let rowBase = (deviceY & 3) * 4
                for i in 0..<count {
                    let p = src[i * step]
                    let t = PixelConverter.bayer[rowBase + ((deviceX + i) & 3)]
                    // Add a threshold below one quantisation step before truncating.
                    let r = min(255, ((p >> 16) & 0xff) + (t >> 1)) >> 3
                    let g = min(255, ((p >> 8) & 0xff) + (t >> 2)) >> 2
                    let b = min(255, (p & 0xff) + (t >> 1)) >> 3
                    o[i] = UInt16(truncatingIfNeeded: swapRB ? (b << 11 | g << 5 | r) : (r << 11 | g << 5 | b))
                }
            } else if swapRB {
                for i in 0..<count {
                    let p = src[i * step]
                    o[i] = UInt16(truncatingIfNeeded: (p & 0xf8) << 8 | (p >> 5) & 0x7e0 | (p >> 19) & 0x1f)
                }
            } else {
                for i in 0..<count {
                    let p = src[i * step]
                    o[i] = UInt16(truncatingIfNeeded: (p >> 8) & 0xf800 | (p >> 5) & 0x7e0 | (p >> 3) & 0x1f)
                }
            }
        case .rgb888, .bgr888:
            let o = dst.assumingMemoryBound(to: UInt8.self)
            let swapRB = format == .bgr888
            for i in 0..<count {
                let p = src[i * step]
                let b = UInt8(truncatingIfNeeded: p), g = UInt8(truncatingIfNeeded: p >> 8), r = UInt8(truncatingIfNeeded: p >> 16)
                o[3 * i] = swapRB ? r : b
                o[3 * i + 1] = g
                o[3 * i + 2] = swapRB ? b : r
            }
        }
    }
}
