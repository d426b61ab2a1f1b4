// Keys as keysyms and text: the protocol the evdev translator asks, the xkbcommon keyboard
// (`XKBKeyboard`) and a built-in US map for systems without XKB data.

/// Keys: what a press means under the current keymap and modifiers.
public protocol KeyMapper: AnyObject {
    /// Called for every key event (`value`: 1 press, 0 release, 2 repeat) with the evdev code;
    /// returns the keysym and the text it produces (empty for releases and non-printing keys).
    func key(code: UInt16, value: Int32) -> (keysym: UInt32, text: String)
    /// Modifiers held now.
    var modifiers: KeyModifiers { get }
}

/// A US layout built in, for systems without XKB data (a minimal image): letters, digits,
/// punctuation, editing, arrows, function keys and modifiers.
public final class BasicKeyMapper: KeyMapper {
    private var shift = 0, control = 0, alt = 0, meta = 0
    /// A US keymap with no modifier held.
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

    /// Updates the held modifiers from Shift/Control/Alt/Meta codes and returns the US keysym and
    /// text for evdev `code` (`value`: 1 press, 0 release, 2 repeat). Control suppresses text.
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

    /// The modifiers held now, from the presses and releases seen so far (no lock keys).
    public var modifiers: KeyModifiers {
        var m: KeyModifiers = []
        if shift > 0 { m.insert(.shift) }
        if control > 0 { m.insert(.control) }
        if alt > 0 { m.insert(.alt) }
        if meta > 0 { m.insert(.super) }
        return m
    }
}
