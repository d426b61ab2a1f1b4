import Foundation

/// EXIF orientation (TIFF tag 0x0112) of a JPEG, and turning a decoded bitmap upright.
///
/// The parser walks the JPEG's marker segments up to the first scan, looks for an APP1 segment
/// starting with "Exif\0\0", and reads IFD0 of its TIFF structure in either byte order. Every
/// offset is bounds-checked: malformed EXIF means orientation 1, never a crash.
public enum ExifOrientation {
    /// 1…8 as EXIF defines them; 1 when absent or malformed.
    public static func read(from data: Data) -> Int {
        let b = [UInt8](data.prefix(1 << 20))  // EXIF lives in the first 64 KiB segments
        var i = 2
        while i + 4 <= b.count, b[i] == 0xFF {
            let marker = b[i + 1]
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
            if marker == 0xDA || marker == 0xD9 { break }
            let len = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard len >= 2, i + 2 + len <= b.count else { break }
            if marker == 0xE1, len >= 16, Array(b[(i + 4)..<(i + 10)]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                if let o = parseTIFF(Array(b[(i + 10)..<(i + 2 + len)])) { return o }
            }
            i += 2 + len
        }
        return 1
    }

    static func parseTIFF(_ t: [UInt8]) -> Int? {
        guard t.count >= 8 else { return nil }
        let little: Bool
        switch (t[0], t[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= t.count else { return nil }
            return little ? Int(t[o]) | Int(t[o + 1]) << 8 : Int(t[o]) << 8 | Int(t[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let a = u16(o), let b = u16(o + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for k in 0..<min(count, 512) {
            let e = ifd + 2 + k * 12
            guard let tag = u16(e) else { return nil }
            if tag == 0x0112, let value = u16(e + 8), (1...8).contains(value) { return value }
        }
        return nil
    }

    /// Returns `bitmap` turned upright for `orientation` (the same object for 1).
    public static func apply(_ orientation: Int, to src: Bitmap) throws(RasterError) -> Bitmap {
        guard (2...8).contains(orientation) else { return src }
        let w = src.width, h = src.height
        let swaps = orientation >= 5
        let out = try Bitmap(width: swaps ? h : w, height: swaps ? w : h)
        for y in 0..<out.height {
            let row = (out.data + y * out.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<out.width {
                let (sx, sy): (Int, Int)
                switch orientation {
                case 2: (sx, sy) = (w - 1 - x, y)
                case 3: (sx, sy) = (w - 1 - x, h - 1 - y)
                case 4: (sx, sy) = (x, h - 1 - y)
                case 5: (sx, sy) = (y, x)
                case 6: (sx, sy) = (y, h - 1 - x)
                case 7: (sx, sy) = (w - 1 - y, h - 1 - x)
                default: (sx, sy) = (w - 1 - y, x)  // 8
                }
                row[x] = (src.data + sy * src.stride).load(fromByteOffset: sx * 4, as: UInt32.self)
            }
        }
        return out
    }
}
