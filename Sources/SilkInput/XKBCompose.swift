// xkbcommon-compose (xkbcommon-compose.h): dead keys and Compose sequences — dead_acute then e
// gives "é" — from the locale's Compose table (/usr/share/X11/locale/<locale>/Compose, or
// $XCOMPOSEFILE, or ~/.XCompose), shared by the Wayland seat and the evdev keyboard.
import CXKBCommon
import Glibc
import SilkSystem

/// A compose table and the state of the sequence being typed. Owns its context, table and state
/// (unreferenced in deinit). One per keyboard; the thread that reads the keyboard only.
public final class XKBComposer {
    /// What a key press did to the sequence.
    public enum Result: Equatable, Sendable {
        /// Not part of a sequence: use the key's own text.
        case passThrough
        /// A sequence is under way (a dead key): the key types nothing yet.
        case composing
        /// The sequence finished: type this instead of the key's text.
        case composed(String)
        /// The sequence was abandoned (no entry for it): the key types nothing.
        case cancelled
    }

    private let context: OpaquePointer
    private let table: OpaquePointer
    private let state: OpaquePointer
    /// The locale whose table was loaded.
    public let locale: String

    /// Loads the Compose table for `locale`, or for the environment's (LC_ALL, LC_CTYPE, LANG).
    /// A missing, "C" or "POSIX" locale — the usual case for services and tests — uses
    /// en_US.UTF-8, so dead keys work there too. Nil when no table can be loaded
    /// (`xkb_compose_table_new_from_locale`: the X11 locale data, package libx11-data, is missing).
    public init?(locale: String? = nil) {
        guard let ctx = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        var candidates: [String] = []
        if let l = XKBComposer.usable(locale ?? XKBComposer.environmentLocale()) { candidates.append(l) }
        candidates.append("en_US.UTF-8")
        var found: (OpaquePointer, String)?
        for name in candidates {
            if let t = xkb_compose_table_new_from_locale(ctx, name, XKB_COMPOSE_COMPILE_NO_FLAGS) { found = (t, name); break }
        }
        guard let (t, name) = found else { xkb_context_unref(ctx); return nil }
        guard let st = xkb_compose_state_new(t, XKB_COMPOSE_STATE_NO_FLAGS) else {
            xkb_compose_table_unref(t); xkb_context_unref(ctx); return nil
        }
        context = ctx; table = t; state = st; self.locale = name
    }

    deinit {
        xkb_compose_state_unref(state)
        xkb_compose_table_unref(table)
        xkb_context_unref(context)
    }

    /// The environment's character-type locale (LC_ALL, then LC_CTYPE, then LANG).
    static func environmentLocale() -> String? {
        SilkConfiguration.current.locale
    }

    /// `locale` when its Compose table produces UTF-8 (not C, POSIX or a legacy charset).
    static func usable(_ locale: String?) -> String? {
        guard let locale else { return nil }
        let lower = locale.lowercased()
        return lower.contains("utf-8") || lower.contains("utf8") ? locale : nil
    }

    /// Feeds the keysym of a key press (`xkb_compose_state_feed`), never of a release or repeat.
    /// Modifier keys are ignored by xkbcommon and pass through.
    public func feed(keysym: UInt32) -> Result {
        guard xkb_compose_state_feed(state, keysym) == XKB_COMPOSE_FEED_ACCEPTED else { return .passThrough }
        switch xkb_compose_state_get_status(state) {
        case XKB_COMPOSE_COMPOSING:
            return .composing
        case XKB_COMPOSE_COMPOSED:
            var buffer = [CChar](repeating: 0, count: 64)
            let n = xkb_compose_state_get_utf8(state, &buffer, buffer.count)
            let text = n > 0 ? String(decoding: buffer.prefix(Int(min(n, 63))).map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
            xkb_compose_state_reset(state)
            return text.isEmpty ? .cancelled : .composed(text)
        case XKB_COMPOSE_CANCELLED:
            xkb_compose_state_reset(state)
            return .cancelled
        default:
            return .passThrough
        }
    }

    /// Drops a sequence under way (focus left the window).
    public func reset() { xkb_compose_state_reset(state) }
}
