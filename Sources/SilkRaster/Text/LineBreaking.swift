// Line-break opportunities: a deliberate subset of UAX #14, enough for Latin, CJK and
// right-to-left text without a dependency (libunibreak in Debian 12 is from Unicode 6.0):
//
// - after a run of spaces (U+0020, tab, U+3000 and other Zs except no-break spaces);
// - after U+200B ZERO WIDTH SPACE;
// - after hyphens (U+002D, U+2010, U+2012, U+2013, U+00AD soft hyphen) when a letter precedes
//   them and a non-digit follows (so "-5" and "a-1" stay whole); before and after U+2014 em dash;
// - after "/" unless a digit, closing punctuation or another slash follows (paths, URLs);
// - before and after CJK ideographs, kana, Hangul syllables, fullwidth forms and emoji
//   (UAX #14 class ID), except before closing punctuation and small kana that must not start a
//   line (、。，．」』）… — the "kinsoku" rule) and after opening punctuation that must not end one;
// - never before a combining mark, ZWJ, variation selector or emoji modifier, nor after no-break spaces
//   (U+00A0, U+202F, U+2060, U+FEFF).
//
// A word wider than the line is broken between grapheme clusters by the layout (see TextLayout).
// Hard breaks (newlines) split paragraphs before this runs.

enum LineBreaking {
    /// `result[i]` is true when a line may start at scalar `i` (index 0 is always false).
    static func opportunities(_ text: UnsafeBufferPointer<UInt32>) -> [Bool] {
        let n = text.count
        var out = [Bool](repeating: false, count: n + 1)
        guard n > 1 else { return out }
        for i in 1..<n {
            let prev = text[i - 1], cur = text[i]
            if isAttaching(cur) || isGlue(prev) || isGlue(cur) { continue }
            if isSpace(prev) {
                out[i] = !isSpace(cur)
                continue
            }
            if isSpace(cur) { continue }
            if prev == 0x200B { out[i] = true; continue }
            if prev == 0x2014 || cur == 0x2014 { out[i] = true; continue }
            // After a slash before a letter (UAX #14 SY): paths and URLs wrap at their separators.
            if prev == 0x2F && !isDigit(cur) && !isClosing(cur) && cur != 0x2F { out[i] = true; continue }
            if isHyphen(prev) {
                let before = i >= 2 ? text[i - 2] : 0
                if isLetter(before) && !isDigit(cur) && !isClosing(cur) { out[i] = true }
                continue
            }
            if isIdeographic(prev) || isIdeographic(cur) {
                if isClosing(cur) || isNoStart(cur) || isOpening(prev) { continue }
                out[i] = true
                continue
            }
            // After CJK closing punctuation (。」…) before a non-closing character.
            if isClosing(prev) && prev >= 0x3000 && !isClosing(cur) { out[i] = true }
        }
        return out
    }

    static func isSpace(_ c: UInt32) -> Bool {
        c == 0x20 || c == 0x09 || c == 0x3000 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A && c != 0x2007) || c == 0x205F
    }
    static func isGlue(_ c: UInt32) -> Bool { c == 0xA0 || c == 0x202F || c == 0x2060 || c == 0xFEFF || c == 0x2007 }
    static func isHyphen(_ c: UInt32) -> Bool { c == 0x2D || c == 0x2010 || c == 0x2012 || c == 0x2013 || c == 0xAD }
    static func isDigit(_ c: UInt32) -> Bool { c >= 0x30 && c <= 0x39 }
    static func isLetter(_ c: UInt32) -> Bool {
        if c < 0x80 { return (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
        guard let s = Unicode.Scalar(c) else { return false }
        return s.properties.isAlphabetic
    }

    /// Marks, joiners, variation selectors, emoji modifiers and tags: they stick to what precedes.
    static func isAttaching(_ c: UInt32) -> Bool {
        if c < 0x300 { return false }  // no marks or joiners below the combining diacriticals
        if c == 0x200D || c == 0x200C || c == 0x20E3 { return true }
        if (c >= 0xFE00 && c <= 0xFE0F) || (c >= 0xE0100 && c <= 0xE01EF) || (c >= 0xE0020 && c <= 0xE007F) { return true }
        if c >= 0x1F3FB && c <= 0x1F3FF { return true }
        guard let s = Unicode.Scalar(c) else { return false }
        switch s.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// UAX #14 class ID, roughly: CJK ideographs, kana, Hangul, Yi, fullwidth forms, emoji.
    static func isIdeographic(_ c: UInt32) -> Bool {
        if c < 0x2E80 { return false }
        switch c {
        case 0x2E80...0x2FFF, 0x3003...0x3007, 0x3012...0x3013, 0x3020...0x3029, 0x3030...0x303E,
             0x3040...0x309F, 0x30A0...0x30FF, 0x3100...0x31FF, 0x3200...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF01...0xFF60,
             0xFFE0...0xFFE6, 0x1F000...0x1FAFF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// Closing punctuation (UAX #14 CL, CP, EX, IS and friends) that must not start a line.
    static func isClosing(_ c: UInt32) -> Bool {
        switch c {
        case 0x21, 0x29, 0x2C, 0x2E, 0x3A, 0x3B, 0x3F, 0x5D, 0x7D, 0x2019, 0x201D, 0x2026,
             0x3001, 0x3002, 0x3009, 0x300B, 0x300D, 0x300F, 0x3011, 0x3015, 0x3017, 0x3019, 0x301B, 0x301E, 0x301F,
             0xFF01, 0xFF09, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF1F, 0xFF3D, 0xFF5D, 0xFF60, 0xFF61, 0xFF63, 0xFF64,
             0xFE50...0xFE57:
            return true
        default:
            return false
        }
    }

    /// Small kana, prolonged sound mark, iteration marks (UAX #14 NS/CJ): no line starts with them.
    static func isNoStart(_ c: UInt32) -> Bool {
        switch c {
        case 0x3005, 0x303B, 0x309B...0x309E, 0x30A0, 0x30FB...0x30FE,
             0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063, 0x3083, 0x3085, 0x3087, 0x308E, 0x3095, 0x3096,
             0x30A1, 0x30A3, 0x30A5, 0x30A7, 0x30A9, 0x30C3, 0x30E3, 0x30E5, 0x30E7, 0x30EE, 0x30F5, 0x30F6,
             0x31F0...0x31FF, 0x301C, 0xFF67...0xFF70:
            return true
        default:
            return false
        }
    }

    /// Opening punctuation (UAX #14 OP) that must not end a line.
    static func isOpening(_ c: UInt32) -> Bool {
        switch c {
        case 0x28, 0x5B, 0x7B, 0x2018, 0x201C, 0x3008, 0x300A, 0x300C, 0x300E, 0x3010, 0x3014, 0x3016,
             0x3018, 0x301A, 0x301D, 0xFF08, 0xFF3B, 0xFF5B, 0xFF5F, 0xFF62:
            return true
        default:
            return false
        }
    }
}
