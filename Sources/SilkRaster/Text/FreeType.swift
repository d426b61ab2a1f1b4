import CFreeType
import CHarfBuzz
import CPixman
import Foundation
import SilkSystem

// One loaded font face: the FreeType face that rasterizes glyphs and the HarfBuzz font that
// shapes text, both made from the same file.
//
// Threading (see docs/text.md): FreeType objects are not thread-safe, so every FontFace owns a
// private FT_Library + FT_Face pair and serialises all FreeType calls on it with `ftLock`.
// Shaping never touches FreeType: the HarfBuzz font is built from the file's bytes with
// HarfBuzz's own OpenType functions (hb_font_create → hb-ot funcs) and made immutable, and an
// immutable hb_font_t may be used by any number of threads at once. The glyph cache means the
// lock is taken only on cache misses.

/// A font face (one file, one face index) loaded once per process by `FontDatabase`.
public final class FontFace: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// Small process-unique number, used in glyph-cache keys.
    public let id: Int
    /// The font file's path.
    public let path: String
    /// The face's index in the file (collections hold several).
    public let faceIndex: Int
    /// The family name the file declares.
    public let familyName: String
    /// True when the face is bold by design (not synthesized).
    public let isBold: Bool
    /// True when the face is italic or oblique by design.
    public let isItalic: Bool
    /// The face carries colour bitmaps (CBDT/sbix, e.g. Noto Color Emoji).
    public let hasColorGlyphs: Bool
    /// False for bitmap-only faces, which are drawn by scaling their nearest strike.
    let isScalable: Bool
    let unitsPerEm: Double
    /// Vertical metrics as fractions of the em (multiply by the point size); `descender` is positive down.
    let ascender: Double, descender: Double, lineGap: Double
    let underlinePosition: Double, underlineThickness: Double
    let strikeoutPosition: Double, strikeoutThickness: Double
    /// Pixel sizes of the bitmap strikes (bitmap-only faces).
    let strikes: [Int]

    /// The immutable HarfBuzz font (`hb_font_t *`) at a scale of one font unit per unit.
    let hbFont: OpaquePointer
    /// HarfBuzz's units per em (shaping results are in these units).
    let hbUnitsPerEm: Double
    private let hbFace: OpaquePointer

    private let ftLock = Lock()
    private var library: FT_Library?
    private var face: FT_Face?
    private var currentSize26_6: Int = -1
    private var currentStrike: Int = -1

    private static let idLock = Lock()
    nonisolated(unsafe) private static var nextID = 1

    /// Loads face `index` of the font file at `path` (FT_New_Face, hb_face_create).
    init(path: String, index: Int = 0) throws(RasterError) {
        self.path = path
        faceIndex = index
        var lib: FT_Library?
        guard FT_Init_FreeType(&lib) == 0, let lib else { throw .font("FT_Init_FreeType failed") }
        var f: FT_Face?
        guard FT_New_Face(lib, path, index, &f) == 0, let f else {
            FT_Done_FreeType(lib)
            throw .font("\(path): FT_New_Face could not open face \(index)")
        }
        library = lib
        face = f
        let rec = f.pointee
        isScalable = rec.face_flags & 1 != 0          // FT_FACE_FLAG_SCALABLE
        hasColorGlyphs = rec.face_flags & (1 << 14) != 0  // FT_FACE_FLAG_COLOR
        isItalic = rec.style_flags & 1 != 0            // FT_STYLE_FLAG_ITALIC
        isBold = rec.style_flags & 2 != 0              // FT_STYLE_FLAG_BOLD
        familyName = rec.family_name.map { String(cString: $0) } ?? "?"
        let upem = rec.units_per_EM > 0 ? Double(rec.units_per_EM) : 1000
        unitsPerEm = upem
        var strikes: [Int] = []
        for i in 0..<Int(rec.num_fixed_sizes) {
            strikes.append(Int((rec.available_sizes[i].y_ppem + 32) >> 6))
        }
        self.strikes = strikes
        var asc = Double(rec.ascender) / upem, desc = -Double(rec.descender) / upem
        var gap = Double(rec.height) / upem - asc - desc
        if asc <= 0 && desc <= 0 { asc = 0.9; desc = 0.25; gap = 0 }
        ascender = asc; descender = desc; lineGap = max(0, gap)
        let ut = Double(rec.underline_thickness) / upem
        underlineThickness = ut > 0 ? ut : 0.06
        let up = -Double(rec.underline_position) / upem
        underlinePosition = up > 0 ? up : 0.1
        if let os2 = FT_Get_Sfnt_Table(f, FT_SFNT_OS2)?.assumingMemoryBound(to: TT_OS2.self).pointee,
           os2.yStrikeoutSize > 0 {
            strikeoutPosition = Double(os2.yStrikeoutPosition) / upem
            strikeoutThickness = Double(os2.yStrikeoutSize) / upem
        } else {
            strikeoutPosition = asc * 0.3
            strikeoutThickness = underlineThickness
        }

        let blob = hb_blob_create_from_file(path)
        let hface = hb_face_create(blob, UInt32(index))
        hb_blob_destroy(blob)
        let hfont = hb_font_create(hface)
        let hupem = Int32(hb_face_get_upem(hface))
        hb_font_set_scale(hfont, hupem, hupem)
        hbUnitsPerEm = Double(max(1, hupem))
        hb_font_make_immutable(hfont)
        hbFace = hface!
        hbFont = hfont!

        FontFace.idLock.lock()
        id = FontFace.nextID
        FontFace.nextID += 1
        FontFace.idLock.unlock()
    }

    deinit {
        for (_, g) in outlines { FT_Done_Glyph(g) }
        hb_font_destroy(hbFont)
        hb_face_destroy(hbFace)
        if let face { FT_Done_Face(face) }
        if let library { FT_Done_FreeType(library) }
    }

    /// True when the face maps `scalar` to a glyph (hb_font_get_nominal_glyph; lock-free).
    func covers(_ scalar: UInt32) -> Bool {
        var g: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(hbFont, scalar, &g) != 0 && g != 0
    }

    /// Rasterizes `glyph` at `size26_6` pixels (26.6 fixed point) shifted right by
    /// `subpixel`/4 px, optionally emboldened and slanted. Returns nil when FreeType fails.
    /// Takes the face lock; callers go through `GlyphCache`.
    func rasterize(glyph: UInt32, size26_6: Int, subpixel: Int, bold: Bool, oblique: Bool) -> GlyphImage? {
        ftLock.lock()
        defer { ftLock.unlock() }
        guard let face else { return nil }
        return isScalable
            ? rasterizeOutline(face, glyph, size26_6, subpixel, bold, oblique)
            : rasterizeStrike(face, glyph, size26_6)
    }

    private struct OutlineKey: Hashable {
        var size26_6: Int
        var glyph: UInt32
        var bold: Bool
        var oblique: Bool
    }
    /// Loaded (hinted, slanted, emboldened) outlines, so the four sub-pixel phases of a glyph
    /// load and hint it once (FT_Get_Glyph copies). Guarded by `ftLock`; emptied at 1024.
    private var outlines: [OutlineKey: FT_Glyph] = [:]

    /// Frees the loaded outlines (memory pressure, cold-cache measurements; `keepingCapacity`
    /// keeps the map's table, see `GlyphCache.removeAll(keepingCapacity:)`).
    func removeCachedOutlines(keepingCapacity: Bool = false) {
        ftLock.lock()
        defer { ftLock.unlock() }
        for (_, g) in outlines { FT_Done_Glyph(g) }
        outlines.removeAll(keepingCapacity: keepingCapacity)
    }

    private func rasterizeOutline(_ face: FT_Face, _ glyph: UInt32, _ size26_6: Int, _ subpixel: Int,
                                  _ bold: Bool, _ oblique: Bool) -> GlyphImage? {
        let key = OutlineKey(size26_6: size26_6, glyph: glyph, bold: bold, oblique: oblique)
        var outline = outlines[key]
        if outline == nil {
            if currentSize26_6 != size26_6 {
                guard FT_Set_Char_Size(face, 0, FT_F26Dot6(size26_6), 72, 72) == 0 else { return nil }
                currentSize26_6 = size26_6
            }
            // FT_Set_Transform slants the outline at load time, after hinting.
            var matrix = FT_Matrix(xx: 0x10000, xy: oblique ? 0x366A : 0, yx: 0, yy: 0x10000)  // ≈ 12° like FT_GlyphSlot_Oblique
            FT_Set_Transform(face, &matrix, nil)
            // FT_LOAD_TARGET_LIGHT (1 << 16): vertical-only hinting sharpens small text and keeps
            // sub-pixel x positions honest. (FT_LOAD_NO_HINTING, 1 << 1, would make a miss about
            // twice as cheap — the auto-hinter is most of it — at sizes where snapping no longer
            // shows; not done yet because it changes the recorded golden images.)
            // FT_LOAD_NO_BITMAP (1 << 3): ignore embedded bitmap strikes of outline fonts.
            let flags: Int32 = (1 << 16) | (1 << 3)
            guard FT_Load_Glyph(face, glyph, flags) == 0, let slot = face.pointee.glyph else { return nil }
            if bold, slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE {
                // The strength FT_GlyphSlot_Embolden uses: 1/24 em.
                let strength = FT_Pos(max(16, size26_6 / 24))
                FT_Outline_Embolden(&slot.pointee.outline, strength)
                FT_Outline_Translate(&slot.pointee.outline, strength / 2, 0)  // the shaper added `strength` to the advance
            }
            var copy: FT_Glyph?
            guard FT_Get_Glyph(slot, &copy) == 0, let copy else { return nil }
            if outlines.count >= 1024 {
                for (_, g) in outlines { FT_Done_Glyph(g) }
                outlines.removeAll(keepingCapacity: true)
            }
            outlines[key] = copy
            outline = copy
        }
        // FT_Glyph_To_Bitmap with an origin renders the outline shifted by the sub-pixel phase
        // (and shifts it back, as `destroy` is 0); the same pixels FT_Set_Transform's delta gave.
        var delta = FT_Vector(x: FT_Pos(subpixel * 16), y: 0)
        var rendered = outline
        guard FT_Glyph_To_Bitmap(&rendered, FT_RENDER_MODE_NORMAL, &delta, 0) == 0, let rendered,
              rendered != outline else { return nil }
        defer { FT_Done_Glyph(rendered) }
        let bitmap = UnsafeMutableRawPointer(rendered).assumingMemoryBound(to: FT_BitmapGlyphRec.self).pointee
        return GlyphImage(copying: bitmap.bitmap, left: Int(bitmap.left), top: Int(bitmap.top))
    }

    /// Bitmap-only (colour emoji) faces: load the nearest strike and scale it to the size.
    private func rasterizeStrike(_ face: FT_Face, _ glyph: UInt32, _ size26_6: Int) -> GlyphImage? {
        guard !strikes.isEmpty else { return nil }
        let px = Double(size26_6) / 64
        // The smallest strike at least as large as wanted (downscaling looks better), else the largest.
        let order = strikes.indices.sorted { strikes[$0] < strikes[$1] }
        let best = order.first { Double(strikes[$0]) >= px } ?? order.last!
        if currentStrike != best {
            guard FT_Select_Size(face, Int32(best)) == 0 else { return nil }
            currentStrike = best
        }
        FT_Set_Transform(face, nil, nil)
        let flags: Int32 = 1 << 20  // FT_LOAD_COLOR
        guard FT_Load_Glyph(face, glyph, flags) == 0, let slot = face.pointee.glyph else { return nil }
        let source = GlyphImage(copying: slot.pointee.bitmap, left: Int(slot.pointee.bitmap_left),
                                top: Int(slot.pointee.bitmap_top))
        return source?.scaled(by: px / Double(strikes[best]))
    }

    public static func == (a: FontFace, b: FontFace) -> Bool { a === b }
    public func hash(into h: inout Hasher) { h.combine(id) }
    public var description: String { "FontFace(\(familyName) #\(id) \(URL(fileURLWithPath: path).lastPathComponent))" }
}
