import Foundation

/// EXIF orientation (TIFF tag 0x0112) of a JPEG, and turning a decoded bitmap upright.
///
/// The parser reads the APP1 segment that starts with "Exif\0\0" (found by `JPEGSegments`,
/// which walks the marker segments up to the first scan) and looks up the tag in IFD0 of its
/// TIFF structure, in either byte order ("II" little-endian, "MM" big-endian). Every offset is
/// bounds-checked: malformed EXIF means orientation 1, never a crash.
///
/// Orientation values, as the EXIF specification defines them (where the stored image's first
/// row and column go when shown upright):
///
/// | value | transform to upright | value | transform to upright |
/// |---|---|---|---|
/// | 1 | none | 5 | transpose (mirror across the main diagonal) |
/// | 2 | mirror horizontally | 6 | rotate 90° clockwise |
/// | 3 | rotate 180° | 7 | transverse (mirror across the other diagonal) |
/// | 4 | mirror vertically | 8 | rotate 90° counter-clockwise |
public enum ExifOrientation {
    /// 1…8 as EXIF defines them; 1 when absent or malformed (or when `data` is not a JPEG).
    public static func read(from data: Data) -> Int {
        JPEGSegments.scan(data).orientation
    }

    /// True for 5…8, whose upright image has width and height exchanged.
    public static func swapsAxes(_ orientation: Int) -> Bool { (5...8).contains(orientation) }

    /// The orientation in a TIFF structure (the APP1 payload after "Exif\0\0"), or nil.
    static func parseTIFF(_ t: UnsafeRawBufferPointer) -> Int? {
        guard t.count >= 8 else { return nil }
        let little: Bool
        switch (t[0], t[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o <= t.count - 2 else { return nil }
            return little ? Int(t[o]) | Int(t[o + 1]) << 8 : Int(t[o]) << 8 | Int(t[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let a = u16(o), let b = u16(o + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for k in 0..<min(count, 1024) {
            let e = ifd + 2 + k * 12
            guard let tag = u16(e) else { return nil }
            guard tag == 0x0112 else { continue }
            // Type SHORT (3), count 1: the value sits in the first two bytes of the value field
            // in the file's byte order. Anything else is malformed.
            guard u16(e + 2) == 3, u32(e + 4) == 1, let value = u16(e + 8), (1...8).contains(value) else { return nil }
            return value
        }
        return nil
    }

    /// Returns `src` turned upright for `orientation` (the same object for 1 or an unknown value).
    public static func apply(_ orientation: Int, to src: Bitmap) throws(RasterError) -> Bitmap {
        guard (2...8).contains(orientation), src.format == .argb32 || src.format == .xrgb32 else { return src }
        let w = src.width, h = src.height, s = src.stride / 4
        let swaps = swapsAxes(orientation)
        let out = try Bitmap(width: swaps ? h : w, height: swaps ? w : h, format: src.format)
        // Upright pixel (x, y) is stored at base + x·dx + y·dy (in 32-bit words).
        let (base, dx, dy): (Int, Int, Int)
        switch orientation {
        case 2: (base, dx, dy) = (w - 1, -1, s)
        case 3: (base, dx, dy) = ((h - 1) * s + w - 1, -1, -s)
        case 4: (base, dx, dy) = ((h - 1) * s, 1, -s)
        case 5: (base, dx, dy) = (0, s, 1)
        case 6: (base, dx, dy) = ((h - 1) * s, -s, 1)
        case 7: (base, dx, dy) = ((h - 1) * s + w - 1, -s, -1)
        default: (base, dx, dy) = (w - 1, s, -1)  // 8
        }
        let from = src.data.assumingMemoryBound(to: UInt32.self) + base
        // Tiles keep both sides in cache when a source column is walked (orientations 5–8).
        let tile = swaps ? 32 : max(out.width, 1)
        var y0 = 0
        while y0 < out.height {
            let y1 = min(out.height, y0 + tile)
            var x0 = 0
            while x0 < out.width {
                let x1 = min(out.width, x0 + tile)
                for y in y0..<y1 {
                    let row = (out.data + y * out.stride).assumingMemoryBound(to: UInt32.self)
                    var p = from + x0 * dx + y * dy
                    for x in x0..<x1 { row[x] = p.pointee; p += dx }
                }
                x0 = x1
            }
            y0 = y1
        }
        return out
    }
}

/// What Silk needs from a JPEG's marker segments before the first scan, read without libjpeg:
/// the frame size (for the pixel limit), the EXIF orientation, whether an Adobe APP14 segment is
/// present (it marks inverted CMYK), and whether the data ended inside the headers (a
/// truncated file, reported as `.truncated` rather than libjpeg's "no image").
struct JPEGSegments {
    var frame: (width: Int, height: Int)?
    var orientation = 1
    var hasAdobeMarker = false
    /// True when the data ends before a start-of-scan marker could be reached.
    var endsInHeader = false

    static func scan(_ data: Data) -> JPEGSegments {
        data.withUnsafeBytes { scan($0) }
    }

    static func scan(_ b: UnsafeRawBufferPointer) -> JPEGSegments {
        var result = walk(b)
        // A file that still ends with EOI was damaged, not cut: a segment length that runs past
        // the end is then corruption, not truncation.
        if b.count >= 4, b[b.count - 2] == 0xFF, b[b.count - 1] == 0xD9 { result.endsInHeader = false }
        return result
    }

    private static func walk(_ b: UnsafeRawBufferPointer) -> JPEGSegments {
        var result = JPEGSegments()
        guard b.count >= 2, b[0] == 0xFF, b[1] == 0xD8 else { return result }
        var i = 2
        while true {
            guard i + 4 <= b.count else { result.endsInHeader = true; return result }
            guard b[i] == 0xFF else { return result }  // not a marker: corrupt, libjpeg will say so
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }     // fill byte
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
            if marker == 0xDA || marker == 0xD9 { return result }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2 else { return result }
            guard i + 2 + length <= b.count else { result.endsInHeader = true; return result }
            let body = UnsafeRawBufferPointer(rebasing: b[(i + 4)..<(i + 2 + length)])
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                // SOFn: precision, height, width, components.
                if body.count >= 5, result.frame == nil {
                    result.frame = (Int(body[3]) << 8 | Int(body[4]), Int(body[1]) << 8 | Int(body[2]))
                }
            case 0xE1 where body.count >= 14 && body.starts(with: [0x45, 0x78, 0x69, 0x66, 0, 0]):
                if result.orientation == 1, let o = ExifOrientation.parseTIFF(UnsafeRawBufferPointer(rebasing: body[6...])) {
                    result.orientation = o
                }
            case 0xEE where body.count >= 5 && body.starts(with: [0x41, 0x64, 0x6F, 0x62, 0x65]):  // "Adobe"
                result.hasAdobeMarker = true
            default:
                break
            }
            i += 2 + length
        }
    }
}
