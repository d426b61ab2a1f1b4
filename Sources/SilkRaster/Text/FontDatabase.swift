import CFontconfig
import Foundation
import SilkSystem

// Font discovery and per-character fallback.
//
// For each requested (family, weight, italic) the database asks fontconfig once for the sorted
// fallback list (FcConfigSubstitute + FcDefaultSubstitute + FcFontSort with trimming): the best
// match first, then fonts that add coverage. Each candidate keeps its fontconfig charset, so
// choosing the font for a character is a charset test, cached per character. Faces are opened
// lazily, once per file and face index, and shared by all lists.
//
// When fontconfig is unavailable, finds nothing, or the database was made with
// `useSystemFonts: false`, the list is the built-in DejaVu Sans (regular/bold) from
// `Assets.font(_:)`; the built-in face also ends every system list as the last resort, so text
// renders on a machine without any fonts installed.
//
// Threading: FcConfig is not thread-safe, so every fontconfig call happens under the database
// lock; lists guard their per-character caches with their own lock.

/// What a run of text asks for; resolved to concrete faces by `FontDatabase`.
public struct FontDescriptor: Hashable, Sendable {
    /// The fontconfig family name asked for.
    public var family: String
    /// The weight asked for.
    public var weight: FontWeight
    /// Whether an italic face is asked for.
    public var italic: Bool
    /// A request for `family` at `weight`, upright unless `italic`.
    public init(family: String, weight: FontWeight = .regular, italic: Bool = false) {
        self.family = family; self.weight = weight; self.italic = italic
    }
}

/// A face chosen for some characters, with the synthesis its style needs.
struct FontSelection: Hashable, Sendable {
    let face: FontFace
    let syntheticBold: Bool
    let syntheticOblique: Bool
}

/// Finds fonts through fontconfig; one shared instance serves the process.
public final class FontDatabase: @unchecked Sendable {
    /// The database `TextLayout` uses by default: system fonts through fontconfig, then the built-in font.
    public static let shared = FontDatabase(useSystemFonts: true)

    /// Whether fontconfig's installed fonts are searched (false: only the built-in assets font,
    /// for reproducible tests).
    public let usesSystemFonts: Bool
    private let lock = Lock()
    private var config: OpaquePointer?
    private var faces: [String: FontFace] = [:]
    private var failedPaths: Set<String> = []
    private var lists: [FontDescriptor: FontFallbackList] = [:]

    /// - Parameter useSystemFonts: false ignores fontconfig entirely (tests; embedded images
    ///   with only Silk's built-in font).
    public init(useSystemFonts: Bool = true) {
        usesSystemFonts = useSystemFonts
        if useSystemFonts { config = FcInitLoadConfigAndFonts() }
    }

    deinit {
        if let config { FcConfigDestroy(config) }
    }

    /// The built-in DejaVu Sans face (bold or regular), nil only when the assets are missing.
    func builtinFace(bold: Bool) -> FontFace? {
        guard let url = Assets.font(bold ? "DejaVuSans-Bold.ttf" : "DejaVuSans.ttf")
                ?? Assets.font("DejaVuSans.ttf") else { return nil }
        return face(path: url.path, index: 0)
    }

    /// Frees every loaded face's cached glyph outlines (see FontFace); with
    /// `GlyphCache.removeAll()` this returns the text stack to a cold state, fonts still open.
    /// `keepingCapacity` keeps each face's table of outlines allocated (cold measurements).
    public func removeCachedOutlines(keepingCapacity: Bool = false) {
        lock.lock()
        let all = Array(faces.values)
        lock.unlock()
        for f in all { f.removeCachedOutlines(keepingCapacity: keepingCapacity) }
    }

    /// The face for a file and face index, opened on first use (nil when FreeType cannot open it).
    func face(path: String, index: Int) -> FontFace? {
        let key = "\(path)#\(index)"
        lock.lock()
        defer { lock.unlock() }
        if let f = faces[key] { return f }
        if failedPaths.contains(key) { return nil }
        guard let f = try? FontFace(path: path, index: index) else {
            failedPaths.insert(key)
            return nil
        }
        faces[key] = f
        return f
    }

    /// The fallback list for `descriptor`, built once.
    func fallbackList(for descriptor: FontDescriptor) -> FontFallbackList {
        lock.lock()
        if let l = lists[descriptor] { lock.unlock(); return l }
        let candidates = sortedCandidatesLocked(descriptor)
        lock.unlock()

        var all = candidates
        let wantsBold = descriptor.weight.value >= 600
        if let builtin = builtinFace(bold: wantsBold) {
            all.append(.init(path: builtin.path, index: 0, charset: nil, isBold: builtin.isBold,
                             isItalic: false, isColor: false, face: builtin))
        }
        let list = FontFallbackList(database: self, descriptor: descriptor, candidates: all)
        lock.lock()
        defer { lock.unlock() }
        if let raced = lists[descriptor] { return raced }
        lists[descriptor] = list
        return list
    }

    /// FcFontSort for the descriptor; caller holds `lock`.
    private func sortedCandidatesLocked(_ d: FontDescriptor) -> [FontFallbackList.Candidate] {
        guard let config, let pattern = FcPatternCreate() else { return [] }
        defer { FcPatternDestroy(pattern) }
        _ = d.family.withCString { FcPatternAddString(pattern, "family", UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
        FcPatternAddDouble(pattern, "weight", FcWeightFromOpenTypeDouble(d.weight.value))
        FcPatternAddInteger(pattern, "slant", d.italic ? 100 : 0)  // FC_SLANT_ITALIC / FC_SLANT_ROMAN
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let set = FcFontSort(config, pattern, 1, nil, &result) else { return [] }
        defer { FcFontSetDestroy(set) }
        var out: [FontFallbackList.Candidate] = []
        var seen: Set<String> = []
        for i in 0..<Int(set.pointee.nfont) {
            guard let font = set.pointee.fonts[i] else { continue }
            var file: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(font, "file", 0, &file) == FcResultMatch, let file else { continue }
            let path = String(cString: file)
            var index: Int32 = 0
            _ = FcPatternGetInteger(font, "index", 0, &index)
            var color: FcBool = 0, scalable: FcBool = 1
            _ = FcPatternGetBool(font, "color", 0, &color)
            _ = FcPatternGetBool(font, "scalable", 0, &scalable)
            if scalable == 0 && color == 0 { continue }  // bitmap-only text fonts look wrong when scaled
            guard seen.insert("\(path)#\(index)").inserted else { continue }
            var weight: Int32 = 80, slant: Int32 = 0
            _ = FcPatternGetInteger(font, "weight", 0, &weight)
            _ = FcPatternGetInteger(font, "slant", 0, &slant)
            var charset: OpaquePointer?
            if FcPatternGetCharSet(font, "charset", 0, &charset) == FcResultMatch, let cs = charset {
                charset = FcCharSetCopy(cs)
            } else {
                charset = nil
            }
            out.append(.init(path: path, index: Int(index), charset: charset, isBold: weight >= 180,
                             isItalic: slant != 0, isColor: color != 0, face: nil))
            if out.count >= 64 { break }
        }
        return out
    }
}

/// The ordered fonts for one descriptor and the cached choice per character.
final class FontFallbackList: @unchecked Sendable {
    struct Candidate {
        let path: String
        let index: Int
        /// `FcCharSet *` (owned copy), nil for the built-in face (coverage asked of HarfBuzz).
        let charset: OpaquePointer?
        let isBold: Bool
        let isItalic: Bool
        let isColor: Bool
        var face: FontFace?
    }

    let descriptor: FontDescriptor
    private unowned let database: FontDatabase
    private let lock = Lock()
    private var candidates: [Candidate]
    private var unusable: Set<Int> = []
    private var choice: [UInt32: FontSelection] = [:]

    init(database: FontDatabase, descriptor: FontDescriptor, candidates: [Candidate]) {
        self.database = database
        self.descriptor = descriptor
        self.candidates = candidates
    }

    deinit {
        for c in candidates { if let cs = c.charset { FcCharSetDestroy(cs) } }
    }

    /// The font for text that has no characters of its own (empty lines' metrics): the best match.
    var primary: FontSelection? {
        lock.lock(); defer { lock.unlock() }
        for i in candidates.indices where !candidates[i].isColor {
            if let s = selectionLocked(i) { return s }
        }
        return nil
    }

    /// The first font covering `scalar` (colour fonts first when `preferColor`); the primary
    /// font (drawing its missing-glyph box) when none does.
    func selection(for scalar: UInt32, preferColor: Bool) -> FontSelection? {
        let key = preferColor ? scalar | 0x8000_0000 : scalar
        lock.lock(); defer { lock.unlock() }
        if let s = choice[key] { return s }
        var found: FontSelection?
        if preferColor {
            for i in candidates.indices where candidates[i].isColor && coversLocked(i, scalar) {
                if let s = selectionLocked(i) { found = s; break }
            }
        }
        if found == nil {
            for i in candidates.indices where coversLocked(i, scalar) {
                if let s = selectionLocked(i) { found = s; break }
            }
        }
        if found == nil {
            for i in candidates.indices where !candidates[i].isColor {
                if let s = selectionLocked(i) { found = s; break }
            }
        }
        if choice.count < 100_000 { choice[key] = found }
        return found
    }

    private func coversLocked(_ i: Int, _ scalar: UInt32) -> Bool {
        if unusable.contains(i) { return false }
        if let cs = candidates[i].charset { return FcCharSetHasChar(cs, scalar) != 0 }
        return candidates[i].face?.covers(scalar) ?? false
    }

    private func selectionLocked(_ i: Int) -> FontSelection? {
        if unusable.contains(i) { return nil }
        if candidates[i].face == nil {
            candidates[i].face = database.face(path: candidates[i].path, index: candidates[i].index)
        }
        guard let face = candidates[i].face else { unusable.insert(i); return nil }
        let c = candidates[i]
        let bold = descriptor.weight.value >= 600 && !c.isBold && !face.isBold && !face.hasColorGlyphs
        let oblique = descriptor.italic && !c.isItalic && !face.isItalic && !face.hasColorGlyphs
        return FontSelection(face: face, syntheticBold: bold, syntheticOblique: oblique)
    }
}
