import CXKBCommon
import Glibc
import SilkNodes
import SilkSystem

/// xkbcommon: the keymap the compositor sends (`wl_keyboard.keymap`) and the state that turns
/// key codes into keysyms, text and modifiers. One context per keyboard; freed in `deinit`.
final class XKBKeyboard {
    private let context: OpaquePointer
    private var keymap: OpaquePointer?
    private var state: OpaquePointer?
    private var modIndices: [(KeyModifiers, xkb_mod_index_t)] = []

    init() throws(WaylandError) {
        guard let c = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else {
            throw WaylandError(call: "xkb_context_new", "failed")
        }
        context = c
    }

    deinit {
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        xkb_context_unref(context)
    }

    /// Compiles the keymap in `fd` (`size` bytes, XKB v1 text, mapped privately as the protocol
    /// requires from version 7) with `xkb_keymap_new_from_string`. Closes `fd`.
    func loadKeymap(fd: Int32, size: Int) throws(WaylandError) {
        defer { close(fd) }
        guard let map = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else {
            throw WaylandError.system("mmap(keymap, \(size))")
        }
        defer { munmap(map, size) }
        guard let km = xkb_keymap_new_from_string(context, map.assumingMemoryBound(to: CChar.self),
                                                   XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS) else {
            throw WaylandError(call: "xkb_keymap_new_from_string", "the compositor's keymap does not compile")
        }
        guard let st = xkb_state_new(km) else {
            xkb_keymap_unref(km)
            throw WaylandError(call: "xkb_state_new", "failed")
        }
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        keymap = km
        state = st
        let names: [(KeyModifiers, String)] = [(.shift, "Shift"), (.control, "Control"), (.alt, "Mod1"),
                                               (.super, "Mod4"), (.capsLock, "Lock"), (.numLock, "Mod2")]
        modIndices = names.map { ($0.0, xkb_keymap_mod_get_index(km, $0.1)) }
    }

    var isReady: Bool { state != nil }

    /// `wl_keyboard.modifiers` → `xkb_state_update_mask`.
    func updateMask(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        guard let state else { return }
        xkb_state_update_mask(state, depressed, latched, locked, 0, 0, group)
    }

    /// The modifiers in effect (`xkb_state_mod_index_is_active`).
    var modifiers: KeyModifiers {
        guard let state else { return [] }
        var m: KeyModifiers = []
        for (flag, index) in modIndices where index != XKB_MOD_INVALID {
            if xkb_state_mod_index_is_active(state, index, XKB_STATE_MODS_EFFECTIVE) > 0 { m.insert(flag) }
        }
        return m
    }

    /// The keysym and UTF-8 text of an evdev key code (`wl_keyboard.key` + 8 is the xkb code).
    func translate(evdevKey key: UInt32) -> (keysym: UInt32, text: String)? {
        guard let state else { return nil }
        let code = key + 8
        let sym = xkb_state_key_get_one_sym(state, code)
        var buffer = [CChar](repeating: 0, count: 64)
        let n = xkb_state_key_get_utf8(state, code, &buffer, buffer.count)
        let text = n > 0 ? String(decoding: buffer.prefix(Int(min(n, 63))).map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        return (sym, text)
    }

    /// Whether holding the key repeats it (`xkb_keymap_key_repeats`): not for modifiers.
    func repeats(evdevKey key: UInt32) -> Bool {
        guard let keymap else { return false }
        return xkb_keymap_key_repeats(keymap, key + 8) != 0
    }
}
