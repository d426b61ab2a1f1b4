import CFribidi

// The Unicode Bidirectional Algorithm, resolved by GNU FriBidi (UAX #9 including the bracket
// pairs of Unicode 6.3): explicit levels, weak and neutral types, per character. Silk applies
// rule L1's effect by not drawing a line's trailing white space, and L2 (reordering) per line on
// runs in `visualOrder(levels:)`.

enum Bidi {
    /// Embedding levels for each scalar of one paragraph and whether the paragraph is RTL.
    static func resolve(_ text: UnsafeBufferPointer<UInt32>, direction: WritingDirection) -> (levels: [UInt8], rightToLeft: Bool) {
        let n = text.count
        var base: FriBidiParType
        switch direction {
        case .natural: base = silk_fribidi_par_on
        case .leftToRight: base = silk_fribidi_par_ltr
        case .rightToLeft: base = silk_fribidi_par_rtl
        }
        guard n > 0, let start = text.baseAddress else {
            return ([], direction == .rightToLeft)
        }
        // Fast path: no right-to-left letters and no bidi controls means every level is 0 unless
        // the paragraph is forced right-to-left (most Latin and CJK text never calls FriBidi).
        if direction != .rightToLeft && !text.contains(where: mayNeedBidi) {
            return ([UInt8](repeating: 0, count: n), false)
        }
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: n)
        var brackets = [FriBidiBracketType](repeating: 0, count: n)
        var levels = [FriBidiLevel](repeating: 0, count: n)
        fribidi_get_bidi_types(start, FriBidiStrIndex(n), &types)
        fribidi_get_bracket_types(start, FriBidiStrIndex(n), types, &brackets)
        let ok = fribidi_get_par_embedding_levels_ex(types, brackets, FriBidiStrIndex(n), &base, &levels)
        let rtl = base == silk_fribidi_par_rtl
        guard ok != 0 else {
            return ([UInt8](repeating: rtl ? 1 : 0, count: n), rtl)
        }
        return (levels.map { UInt8(clamping: max(0, Int($0))) }, rtl)
    }

    /// Scalars of right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, NKo, …) and the explicit
    /// bidi formatting characters.
    @inline(__always) static func mayNeedBidi(_ c: UInt32) -> Bool {
        if c < 0x0590 { return false }
        return c <= 0x08FF || (c >= 0x200E && c <= 0x200F) || (c >= 0x202A && c <= 0x202E)
            || (c >= 0x2066 && c <= 0x2069) || (c >= 0xFB1D && c <= 0xFDFF) || (c >= 0xFE70 && c <= 0xFEFF)
            || (c >= 0x10800 && c <= 0x10FFF) || (c >= 0x1E800 && c <= 0x1EFFF)
    }

    /// UAX #9 rule L2: the visual order of items with the given levels (indices into `levels`).
    static func visualOrder(levels: [UInt8]) -> [Int] {
        var order = Array(levels.indices)
        guard let maxLevel = levels.max(), maxLevel > 0 else { return order }
        // Explicitly UInt8: Swift 6.0 and 6.2 infer an optional from `min() ?? (maxLevel + 1)`.
        let minOdd: UInt8 = levels.filter { $0 & 1 == 1 }.min() ?? (maxLevel + 1)
        var level = maxLevel
        while level >= minOdd && level > 0 {
            var i = 0
            while i < order.count {
                if levels[order[i]] >= level {
                    var j = i
                    while j + 1 < order.count && levels[order[j + 1]] >= level { j += 1 }
                    order[i...j].reverse()
                    i = j + 1
                } else {
                    i += 1
                }
            }
            level -= 1
        }
        return order
    }
}
