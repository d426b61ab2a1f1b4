// xkbcommon (xkbcommon.h): one keyboard wrapper for every backend. A keymap comes either from
// RMLVO names — the XKB_DEFAULT_RULES/MODEL/LAYOUT/VARIANT/OPTIONS environment variables when
// nothing is given, as libxkbcommon reads them (the framebuffer's evdev keyboards) — or from the
// text a compositor sends (`wl_keyboard.keymap`). xkb keycode = evdev code + 8 in both cases.
import CXKBCommon
import Glibc

/// Why a keymap could not be built: the xkbcommon call and what went wrong.
public struct XKBError: Error, CustomStringConvertible, Sendable {
    public let description: String
    /// An error explaining what failed, naming the xkbcommon call.
    public init(_ description: String) { self.description = description }
}

/// A keyboard's keymap and state. Owns the xkb context, keymap and state (unreferenced in
/// `deinit`). Not thread-safe: the thread that delivers key events (the main loop) uses it.
///
/// Two ways to drive the state: `key(code:value:)` updates it from key presses (evdev, where
/// Silk sees every key), while `updateMask(…)` takes the modifiers a compositor reports
/// (Wayland, where the compositor owns the state) and `translate(evdevKey:)` only reads.
public final class XKBKeyboard: KeyMapper {
    private let context: OpaquePointer
    private var keymap: OpaquePointer?
    private var state: OpaquePointer?
    private var modIndices: [(KeyModifiers, xkb_mod_index_t)] = []
    /// The layout names of the keymap ("English (US)", …), or "" before one is loaded.
    public private(set) var layoutDescription = ""
    /// Dead keys and Compose sequences for the locale (nil without the X11 locale data).
    public let composer: XKBComposer? = XKBComposer()

    /// A keyboard with no keymap yet (`loadKeymap(…)` gives it one). `xkb_context_new`.
    public init() throws(XKBError) {
        guard let c = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { throw XKBError("xkb_context_new failed") }
        context = c
    }

    /// The keymap from the environment's XKB_DEFAULT_* (or libxkbcommon's defaults):
    /// `xkb_keymap_new_from_names`. Nil when the XKB data files (/usr/share/X11/xkb) are
    /// missing or the names are invalid.
    public static func fromEnvironment() -> XKBKeyboard? {
        guard let keyboard = try? XKBKeyboard(),
              let km = xkb_keymap_new_from_names(keyboard.context, nil, XKB_KEYMAP_COMPILE_NO_FLAGS),
              (try? keyboard.adopt(km)) != nil else { return nil }
        return keyboard
    }

    deinit {
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        xkb_context_unref(context)
    }

    /// Compiles the keymap in `fd` (`size` bytes, XKB v1 text, mapped privately as the Wayland
    /// protocol requires from version 7) with `xkb_keymap_new_from_string`. Closes `fd`.
    public func loadKeymap(fd: Int32, size: Int) throws(XKBError) {
        defer { close(fd) }
        guard size > 0, let map = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else {
            throw XKBError("mmap of the \(size)-byte keymap failed: \(String(cString: strerror(errno)))")
        }
        defer { munmap(map, size) }
        guard let km = xkb_keymap_new_from_string(context, map.assumingMemoryBound(to: CChar.self),
                                                   XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS) else {
            throw XKBError("xkb_keymap_new_from_string: the keymap does not compile")
        }
        try adopt(km)
    }

    /// Makes `km` (one reference, taken over) the keymap, with a fresh state.
    private func adopt(_ km: OpaquePointer) throws(XKBError) {
        guard let st = xkb_state_new(km) else {
            xkb_keymap_unref(km)
            throw XKBError("xkb_state_new failed")
        }
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        keymap = km
        state = st
        let names: [(KeyModifiers, String)] = [(.shift, "Shift"), (.control, "Control"), (.alt, "Mod1"),
                                               (.super, "Mod4"), (.capsLock, "Lock"), (.numLock, "Mod2")]
        modIndices = names.map { ($0.0, xkb_keymap_mod_get_index(km, $0.1)) }
        let n = xkb_keymap_num_layouts(km)
        layoutDescription = (0..<n).compactMap { xkb_keymap_layout_get_name(km, $0).map { String(cString: $0) } }
            .joined(separator: ", ")
    }

    /// Whether a keymap is loaded.
    public var isReady: Bool { state != nil }

    /// The compositor's modifier state (`wl_keyboard.modifiers`) → `xkb_state_update_mask`.
    public func updateMask(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        guard let state else { return }
        xkb_state_update_mask(state, depressed, latched, locked, 0, 0, group)
    }

    /// The modifiers in effect (`xkb_state_mod_index_is_active`).
    public var modifiers: KeyModifiers {
        guard let state else { return [] }
        var m: KeyModifiers = []
        for (flag, index) in modIndices where index != XKB_MOD_INVALID {
            if xkb_state_mod_index_is_active(state, index, XKB_STATE_MODS_EFFECTIVE) > 0 { m.insert(flag) }
        }
        return m
    }

    /// The keysym and UTF-8 text of an evdev key code in the current state, without changing
    /// it (`xkb_state_key_get_one_sym`, `xkb_state_key_get_utf8`). Control characters are not
    /// text. Nil before a keymap is loaded.
    public func translate(evdevKey key: UInt32) -> (keysym: UInt32, text: String)? {
        guard let state else { return nil }
        let code = key + 8
        let sym = xkb_state_key_get_one_sym(state, code)
        var buffer = [CChar](repeating: 0, count: 64)
        let n = xkb_state_key_get_utf8(state, code, &buffer, buffer.count)
        var text = n > 0 ? String(decoding: buffer.prefix(Int(min(n, 63))).map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        if let s = text.unicodeScalars.first, s.value < 0x20 || s.value == 0x7f { text = "" }
        return (sym, text)
    }

    /// Whether holding the key repeats it (`xkb_keymap_key_repeats`): not for modifiers.
    public func repeats(evdevKey key: UInt32) -> Bool {
        guard let keymap else { return false }
        return xkb_keymap_key_repeats(keymap, key + 8) != 0
    }

    /// `KeyMapper`: a key event seen by Silk itself (evdev; `value` 1 press, 0 release, 2
    /// repeat). Translates in the state before the key changes it, feeds presses to the
    /// composer (a dead key types nothing; the key that completes a sequence types the composed
    /// text), then updates the state with `xkb_state_update_key`.
    public func key(code: UInt16, value: Int32) -> (keysym: UInt32, text: String) {
        guard let state, let (sym, typed) = translate(evdevKey: UInt32(code)) else { return (0, "") }
        var text = value != 0 ? typed : ""
        if value == 1, let composer {
            switch composer.feed(keysym: sym) {
            case .passThrough: break
            case .composing, .cancelled: text = ""
            case let .composed(s): text = s
            }
        }
        if value != 2 { xkb_state_update_key(state, UInt32(code) + 8, value == 1 ? XKB_KEY_DOWN : XKB_KEY_UP) }
        return (sym, text)
    }
}
