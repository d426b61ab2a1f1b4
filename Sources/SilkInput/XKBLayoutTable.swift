// What the keys of one xkb layout type, read from the compiled keymap (not from a table of our
// own): for the on-screen keyboard. `xkb_keymap_new_from_names` compiles the layout ("de",
// "fr(bepo)", …) from /usr/share/X11/xkb; `xkb_keymap_key_get_syms_by_level` gives each key's
// keysym at levels 1–4 (plain, Shift, AltGr, Shift+AltGr) and `xkb_keysym_to_utf8` its text.
// Dead keys (dead_acute, …) type nothing by themselves: their compositions with every other
// key of the layout come from the locale's Compose table (`XKBComposer`), computed once here so
// the table is a plain value that any thread can read.
import CXKBCommon
import Glibc
import SilkSystem

/// One symbol a key types at one level: its keysym and UTF-8 text ("" for a dead key).
public struct XKBKeySymbol: Hashable, Sendable {
    /// The keysym (`xkb_keysym_t`).
    public var keysym: UInt32
    /// What the symbol types (`xkb_keysym_to_utf8`); "" for dead keys and non-printing symbols.
    public var text: String
    /// Whether this is a dead key (keysyms dead_grave … dead_greek, 0xfe50–0xfe8f).
    public var isDead: Bool { (0xfe50...0xfe8f).contains(keysym) }

    /// A symbol with its keysym and text. Any thread.
    public init(keysym: UInt32, text: String) { self.keysym = keysym; self.text = text }

    /// What a key cap shows: the text, or for a dead key its spacing accent ("´" for dead_acute).
    public var label: String {
        if !text.isEmpty { return text }
        return XKBKeySymbol.deadKeyLabels[keysym] ?? ""
    }

    /// Spacing forms of the common dead keys (keysyms from xkbcommon-keysyms.h).
    static let deadKeyLabels: [UInt32: String] = [
        0xfe50: "`", 0xfe51: "´", 0xfe52: "^", 0xfe53: "~", 0xfe54: "¯", 0xfe55: "˘", 0xfe56: "˙",
        0xfe57: "¨", 0xfe58: "˚", 0xfe59: "˝", 0xfe5a: "ˇ", 0xfe5b: "¸", 0xfe5c: "˛", 0xfe64: "᾿",
        0xfe65: "῾", 0xfe8c: "µ",
    ]
}

/// One key of the alphanumeric block: its evdev code and its symbols at levels 1–4 (fewer when
/// the key has fewer levels).
public struct XKBLayoutKey: Hashable, Sendable {
    /// The evdev key code (xkb keycode − 8).
    public var code: UInt32
    /// Level 1 (plain), 2 (Shift), 3 (AltGr), 4 (Shift+AltGr); missing levels are absent.
    public var levels: [XKBKeySymbol]

    /// A key with its code and levels. Any thread.
    public init(code: UInt32, levels: [XKBKeySymbol]) { self.code = code; self.levels = levels }

    /// The symbol at `level` (0-based), if the key has it.
    public func symbol(_ level: Int) -> XKBKeySymbol? { level < levels.count ? levels[level] : nil }
}

/// A layout's keys read from xkb: the letter rows an on-screen keyboard shows, the dead-key
/// compositions, and each letter's accented variants. An immutable value: any thread.
public struct XKBLayoutTable: Sendable {
    /// The name as given ("de", "fr(bepo)").
    public let name: String
    /// The short name a layout switch key shows: the layout without its variant, upper-cased
    /// ("DE").
    public let shortName: String
    /// xkb's description of the layout ("German").
    public let description: String
    /// Whether the layout's letters are written right to left (Arabic, Hebrew, Persian, …): the
    /// first letter's Unicode script.
    public let isRightToLeft: Bool
    /// The rows of keys whose plain level types a letter or is a dead key, top to bottom: the Q,
    /// A and Z rows of the block; letters of the digit row and the key left of 1 (German ß, French
    /// é è ç à, Russian ё) end the Z row.
    public let letterRows: [[XKBLayoutKey]]
    /// Every key of the alphanumeric block, by row (the digit row first).
    public let allKeys: [[XKBLayoutKey]]
    /// What a dead key followed by a symbol composes to (from the Compose table): keyed by the
    /// dead keysym, then the following keysym. Space gives the spacing accent.
    public let deadKeyCompositions: [UInt32: [UInt32: String]]
    /// Long-press variants of each letter (plain and shifted): the same key's AltGr levels, then
    /// the letter composed with each dead key of the layout, then `XKBLayoutTable.latinAccents`
    /// for Latin letters. Without the letter itself; at most 8.
    public let variants: [String: [String]]

    /// The layouts of the user's physical keyboard: `XKB_DEFAULT_LAYOUT` ("us,de"), each with its
    /// `XKB_DEFAULT_VARIANT` entry ("de(nodeadkeys)"); empty when unset. Any thread.
    public static func environmentLayouts(_ configuration: SilkConfiguration = .current) -> [String] {
        guard let layouts = configuration.value("XKB_DEFAULT_LAYOUT") else { return [] }
        let variants = (configuration.value("XKB_DEFAULT_VARIANT") ?? "").split(separator: ",", omittingEmptySubsequences: false)
        return layouts.split(separator: ",", omittingEmptySubsequences: false).enumerated().compactMap { i, l in
            let layout = l.filter { $0 != " " }
            guard !layout.isEmpty else { return nil }
            let variant = i < variants.count ? variants[i].filter { $0 != " " } : ""
            return variant.isEmpty ? layout : "\(layout)(\(variant))"
        }
    }

    /// The alphanumeric block in evdev codes: the key left of 1 and the digit row, the Q row, the
    /// A row (and the key left of Return), the key right of left Shift and the Z row.
    public static let blockRows: [[UInt32]] = [
        [41] + Array(2...13),
        Array(16...27),
        Array(30...40) + [43],
        [86] + Array(44...53),
    ]

    /// Language codes that are not xkb layout names (xkb names most layouts by country), mapped
    /// to the layout for the language: `el` → `gr`, `he` → `il`, `ar` → `ara`, …
    public static let languageAliases: [String: String] = [
        "el": "gr", "he": "il", "iw": "il", "ar": "ara", "en": "us", "uk": "ua", "da": "dk", "sv": "se",
        "cs": "cz", "ja": "jp", "ko": "kr", "sr": "rs", "sl": "si", "fa": "ir", "ka": "ge", "hy": "am",
        "nb": "no", "kk": "kz",
    ]

    /// Accented forms of common Latin letters (a small table of our own, for layouts without
    /// dead keys such as us or fr's letters): Western and Central European accents.
    public static let latinAccents: [Character: String] = [
        "a": "àáâäãåāæą", "c": "çćč", "d": "ď", "e": "éèêëēėęě", "g": "ğ", "i": "íìîïīį",
        "l": "łľ", "n": "ñńň", "o": "óòôöõøōœ", "r": "ř", "s": "ßśš", "t": "ť", "u": "úùûüūů",
        "y": "ýÿ", "z": "žźż",
    ]

    /// Compiles layout `name` ("de", "fr(bepo)": layout and optional variant in parentheses; a
    /// language code in `languageAliases` stands for its layout) with
    /// xkbcommon and reads its keys, composing dead keys with `composer` (the locale's Compose
    /// table; nil: dead keys compose nothing). Throws for a layout xkb does not know and for one
    /// whose block types no letter. Any thread.
    public static func load(_ name: String, composer: XKBComposer? = XKBComposer()) throws(XKBError) -> XKBLayoutTable {
        let trimmed = String(name.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        var layout = trimmed, variant = ""
        if let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")") {
            layout = String(trimmed[..<open])
            variant = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
        }
        let given = layout
        layout = languageAliases[layout.lowercased()] ?? layout
        // xkb would take paths and include syntax from these names: accept plain identifiers only.
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
        guard !layout.isEmpty, layout.count <= 64, variant.count <= 64,
              layout.allSatisfy({ allowed.contains($0) }), variant.allSatisfy({ allowed.contains($0) }) else {
            throw XKBError("keyboard layout \"\(name)\" is not a layout name (like de or fr(bepo))")
        }
        // The layout named, not XKB_DEFAULT_VARIANT/OPTIONS meant for the physical keyboard.
        guard let ctx = xkb_context_new(XKB_CONTEXT_NO_ENVIRONMENT_NAMES) else { throw XKBError("xkb_context_new failed") }
        defer { xkb_context_unref(ctx) }
        // Our own error line says what failed; xkbcommon's include errors would only add noise.
        xkb_context_set_log_level(ctx, XKB_LOG_LEVEL_CRITICAL)
        let keymap: OpaquePointer? = "evdev".withCString { rules in
            layout.withCString { l in
                variant.withCString { v in
                    var names = xkb_rule_names(rules: rules, model: nil, layout: l, variant: v, options: nil)
                    return xkb_keymap_new_from_names(ctx, &names, XKB_KEYMAP_COMPILE_NO_FLAGS)
                }
            }
        }
        guard let keymap else {
            throw XKBError("keyboard layout \"\(name)\" is unknown to xkb (xkb_keymap_new_from_names failed; see /usr/share/X11/xkb/symbols)")
        }
        defer { xkb_keymap_unref(keymap) }
        let description = xkb_keymap_layout_get_name(keymap, 0).map { String(cString: $0) } ?? layout
        let all = blockRows.map { row in row.map { XKBLayoutKey(code: $0, levels: levels(keymap, code: $0)) } }
        func isLetterOrDead(_ k: XKBLayoutKey) -> Bool {
            guard let s = k.symbol(0) else { return false }
            return s.isDead || (s.text.count == 1 && s.text.first!.isLetter)
        }
        var rows = all.map { $0.filter(isLetterOrDead) }
        let top = rows.removeFirst()
        rows[2] += top
        rows = rows.filter { !$0.isEmpty }
        guard rows.contains(where: { $0.contains { !($0.symbol(0)?.isDead ?? true) } }) else {
            throw XKBError("keyboard layout \"\(name)\" types no letter on its alphanumeric keys; skipped")
        }
        let firstLetter = rows.lazy.flatMap { $0 }.compactMap { $0.symbol(0)?.text.unicodeScalars.first }.first
        let rtl = firstLetter.map { (0x0590...0x08ff).contains($0.value) || (0xfb1d...0xfeff).contains($0.value) } ?? false
        let compositions = composer.map { compose(all, $0) } ?? [:]
        return XKBLayoutTable(name: trimmed, shortName: given.uppercased(), description: description, isRightToLeft: rtl,
                              letterRows: rows, allKeys: all, deadKeyCompositions: compositions,
                              variants: makeVariants(rows, compositions))
    }

    /// The keysyms and text of `code` at levels 1–4 of the first layout.
    private static func levels(_ keymap: OpaquePointer, code: UInt32) -> [XKBKeySymbol] {
        let keycode = code + 8
        let count = min(4, Int(xkb_keymap_num_levels_for_key(keymap, keycode, 0)))
        return (0..<max(0, count)).compactMap { level -> XKBKeySymbol? in
            var syms: UnsafePointer<xkb_keysym_t>?
            let n = xkb_keymap_key_get_syms_by_level(keymap, keycode, 0, xkb_level_index_t(level), &syms)
            guard n >= 1, let syms else { return nil }
            let sym = syms[0]
            return XKBKeySymbol(keysym: sym, text: text(of: sym))
        }
    }

    /// `xkb_keysym_to_utf8`, without control characters.
    static func text(of keysym: UInt32) -> String {
        var buffer = [CChar](repeating: 0, count: 16)
        let n = xkb_keysym_to_utf8(keysym, &buffer, buffer.count)
        guard n > 1 else { return "" }
        let s = String(decoding: buffer.prefix(Int(n) - 1).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if let c = s.unicodeScalars.first, c.value < 0x20 || c.value == 0x7f { return "" }
        return s
    }

    /// Every dead key of the block (any level) followed by every symbol of levels 1–2 and space,
    /// through the Compose table.
    private static func compose(_ rows: [[XKBLayoutKey]], _ composer: XKBComposer) -> [UInt32: [UInt32: String]] {
        let keys = rows.flatMap { $0 }
        let deads = Set(keys.flatMap { $0.levels.filter(\.isDead).map(\.keysym) })
        let bases = Set(keys.flatMap { $0.levels.prefix(2).filter { !$0.isDead && !$0.text.isEmpty }.map(\.keysym) } + [0x20])
        var out: [UInt32: [UInt32: String]] = [:]
        for dead in deads {
            var row: [UInt32: String] = [:]
            for base in bases {
                composer.reset()
                guard composer.feed(keysym: dead) == .composing else { continue }
                if case let .composed(s) = composer.feed(keysym: base) { row[base] = s }
            }
            composer.reset()
            out[dead] = row
        }
        return out
    }

    private static func makeVariants(_ rows: [[XKBLayoutKey]], _ compositions: [UInt32: [UInt32: String]]) -> [String: [String]] {
        var out: [String: [String]] = [:]
        let deadKeys = compositions.keys.sorted()
        for key in rows.flatMap({ $0 }) {
            let plainIsASCII = key.symbol(0)?.text.first?.isASCII ?? true
            for (level, symbol) in key.levels.prefix(2).enumerated() where !symbol.isDead && !symbol.text.isEmpty {
                // A Latin capital at level 2 of a non-Latin key (Hebrew's QWERTY) is never typed.
                if level == 1, !plainIsASCII, symbol.text.first?.isASCII == true { continue }
                var list: [String] = []
                func add(_ s: String) {
                    guard !s.isEmpty, s != symbol.text, !list.contains(s), s.count == 1, !s.first!.isWhitespace else { return }
                    list.append(s)
                }
                // The AltGr level of the same Shift state.
                if let alt = key.symbol(level + 2), !alt.isDead { add(alt.text) }
                for dead in deadKeys { if let s = compositions[dead]?[symbol.keysym], s.first?.isLetter == true { add(s) } }
                if let c = symbol.text.first, let accents = latinAccents[Character(c.lowercased())] {
                    for a in accents { add(level == 1 || c.isUppercase ? a.uppercased() : String(a)) }
                }
                if !list.isEmpty { out[symbol.text] = Array(list.prefix(8)) }
            }
        }
        return out
    }
}
