// xkbcommon (xkbcommon.h): keymaps from RMLVO names — the XKB_DEFAULT_RULES/MODEL/LAYOUT/VARIANT/
// OPTIONS environment variables when nothing is given, as libxkbcommon reads them — and a state
// that tracks modifiers from evdev key codes (xkb keycode = evdev code + 8).
import CXKBCommon
import SilkNodes
import SilkXKB

/// A keyboard's keymap and state. Owns the xkb context, keymap and state (unreferenced in deinit).
public final class XKBKeyboard: KeyMapper {
    private let context: OpaquePointer
    private let keymap: OpaquePointer
    private let state: OpaquePointer
    /// The layout names used ("us", or the XKB_DEFAULT_LAYOUT value).
    public let layoutDescription: String
    /// Dead keys and Compose sequences (nil without the X11 locale data).
    public let composer: XKBComposer? = XKBComposer()

    /// Builds the keymap from the environment's XKB_DEFAULT_* (or libxkbcommon's defaults).
    /// Nil when the XKB data files (/usr/share/X11/xkb) are missing or the names are invalid.
    public init?() {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        guard let keymap = xkb_keymap_new_from_names(context, nil, XKB_KEYMAP_COMPILE_NO_FLAGS) else {
            xkb_context_unref(context); return nil
        }
        guard let state = xkb_state_new(keymap) else {
            xkb_keymap_unref(keymap); xkb_context_unref(context); return nil
        }
        self.context = context; self.keymap = keymap; self.state = state
        let n = xkb_keymap_num_layouts(keymap)
        layoutDescription = (0..<n).compactMap { xkb_keymap_layout_get_name(keymap, $0).map { String(cString: $0) } }.joined(separator: ", ")
    }

    deinit {
        xkb_state_unref(state); xkb_keymap_unref(keymap); xkb_context_unref(context)
    }

    public func key(code: UInt16, value: Int32) -> (keysym: UInt32, text: String) {
        let keycode = UInt32(code) + 8
        // The keysym and text come from the state before this key changes it.
        let sym = xkb_state_key_get_one_sym(state, keycode)
        var text = ""
        if value != 0 {
            var buffer = [CChar](repeating: 0, count: 16)
            let n = xkb_state_key_get_utf8(state, keycode, &buffer, buffer.count)
            if n > 0 { text = String(decoding: buffer.prefix(Int(n)).map { UInt8(bitPattern: $0) }, as: UTF8.self) }
            // Control characters are not text.
            if let s = text.unicodeScalars.first, s.value < 0x20 || s.value == 0x7f { text = "" }
            // A dead key starts a sequence; the key that ends it types the composed text.
            if value == 1, let composer {
                switch composer.feed(keysym: sym) {
                case .passThrough: break
                case .composing, .cancelled: text = ""
                case let .composed(s): text = s
                }
            }
        }
        if value != 2 { xkb_state_update_key(state, keycode, value == 1 ? XKB_KEY_DOWN : XKB_KEY_UP) }
        return (sym, text)
    }

    public var modifiers: KeyModifiers {
        var m: KeyModifiers = []
        func on(_ name: String) -> Bool { xkb_state_mod_name_is_active(state, name, XKB_STATE_MODS_EFFECTIVE) == 1 }
        if on("Shift") { m.insert(.shift) }
        if on("Control") { m.insert(.control) }
        if on("Mod1") { m.insert(.alt) }
        if on("Mod4") { m.insert(.super) }
        if on("Lock") { m.insert(.capsLock) }
        if on("Mod2") { m.insert(.numLock) }
        return m
    }
}

/// A US layout built in, for systems without XKB data (a minimal image): letters, digits,
/// punctuation, editing, arrows, function keys and modifiers.
public final class BasicKeyMapper: KeyMapper {
    private var shift = 0, control = 0, alt = 0, meta = 0
    public init() {}

    static let printable: [UInt16: (Character, Character)] = {
        var m: [UInt16: (Character, Character)] = [:]
        let rows: [(UInt16, String, String)] = [(2, "1234567890-=", "!@#$%^&*()_+"), (16, "qwertyuiop[]", "QWERTYUIOP{}"),
                                                (30, "asdfghjkl;'`", "ASDFGHJKL:\"~"), (43, "\\zxcvbnm,./", "|ZXCVBNM<>?")]
        for (start, lower, upper) in rows {
            for (i, (l, u)) in zip(lower, upper).enumerated() { m[start + UInt16(i)] = (l, u) }
        }
        return m
    }()

    static let special: [UInt16: UInt32] = [
        1: 0xff1b, 14: 0xff08, 15: 0xff09, 28: 0xff0d, 29: 0xffe3, 42: 0xffe1, 54: 0xffe2, 56: 0xffe9, 57: 0x20,
        58: 0xffe5, 96: 0xff8d, 97: 0xffe4, 100: 0xffea, 102: 0xff50, 103: 0xff52, 104: 0xff55, 105: 0xff51,
        106: 0xff53, 107: 0xff57, 108: 0xff54, 109: 0xff56, 110: 0xff63, 111: 0xffff, 125: 0xffeb, 126: 0xffec,
        59: 0xffbe, 60: 0xffbf, 61: 0xffc0, 62: 0xffc1, 63: 0xffc2, 64: 0xffc3, 65: 0xffc4, 66: 0xffc5,
        67: 0xffc6, 68: 0xffc7, 87: 0xffc8, 88: 0xffc9,
    ]

    public func key(code: UInt16, value: Int32) -> (keysym: UInt32, text: String) {
        let d = value == 0 ? -1 : value == 1 ? 1 : 0
        switch code {
        case 42, 54: shift = max(0, shift + d)
        case 29, 97: control = max(0, control + d)
        case 56, 100: alt = max(0, alt + d)
        case 125, 126: meta = max(0, meta + d)
        default: break
        }
        if let (l, u) = BasicKeyMapper.printable[code] {
            let c = shift > 0 ? u : l
            let sym = c.unicodeScalars.first!.value
            return (sym, value == 0 || control > 0 ? "" : String(c))
        }
        let sym = BasicKeyMapper.special[code] ?? 0
        return (sym, sym == 0x20 && value != 0 ? " " : "")
    }

    public var modifiers: KeyModifiers {
        var m: KeyModifiers = []
        if shift > 0 { m.insert(.shift) }
        if control > 0 { m.insert(.control) }
        if alt > 0 { m.insert(.alt) }
        if meta > 0 { m.insert(.super) }
        return m
    }
}
