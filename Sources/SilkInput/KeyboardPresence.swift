import Foundation
import SilkSystem

/// Whether the on-screen keyboard is wanted: presenters report physical keyboards (evdev devices
/// that have letter keys; a Wayland seat's keyboard capability), and `SILK_OSK` overrides:
/// `always`, `never`, or `auto` (the default: only when no physical keyboard is present).
/// Main thread.
public enum KeyboardPresence {
    /// When to show the on-screen keyboard (`SILK_OSK`): `auto` only when no physical keyboard is
    /// present, `always`, or `never`.
    public enum Policy: String, Sendable, CaseIterable {
        case auto, always, never
    }

    /// The policy in force: `SILK_OSK` at launch (`auto` when unset or unknown); an app may set it
    /// (main thread).
    nonisolated(unsafe) public static var policy: Policy =
        Policy(rawValue: SilkConfiguration.current.onScreenKeyboardPolicy ?? "") ?? .auto

    /// Set by presenters. Starts false: a touch-only kiosk has no keyboard to report.
    nonisolated(unsafe) public private(set) static var hasPhysicalKeyboard = false
    /// Called after `hasPhysicalKeyboard` changes (a `KeyboardAvoidingNode` hides or shows).
    nonisolated(unsafe) private static var observers: [(id: Int, body: () -> Void)] = []
    nonisolated(unsafe) private static var nextObserver = 0

    /// Whether an editable field should bring up the on-screen keyboard now, under ``policy``.
    public static var wantsOnScreenKeyboard: Bool {
        switch policy {
        case .always: true
        case .never: false
        case .auto: !hasPhysicalKeyboard
        }
    }

    /// A presenter found (or lost its last) physical keyboard.
    public static func setPhysicalKeyboard(_ present: Bool) {
        guard present != hasPhysicalKeyboard else { return }
        hasPhysicalKeyboard = present
        for o in observers { o.body() }
    }

    /// Calls `body` after every change; returns a token for `removeObserver`.
    @discardableResult
    public static func addObserver(_ body: @escaping () -> Void) -> Int {
        nextObserver += 1
        observers.append((nextObserver, body))
        return nextObserver
    }

    /// Stops calling the observer that ``addObserver(_:)`` returned `token` for.
    public static func removeObserver(_ token: Int) { observers.removeAll { $0.id == token } }
}
