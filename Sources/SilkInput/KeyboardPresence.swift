import Foundation
import SilkSystem

/// Whether the on-screen keyboard is wanted: presenters report physical keyboards (evdev devices
/// that have letter keys; a Wayland seat's keyboard capability), and `SILK_OSK` overrides:
/// `always`, `never`, or `auto` (the default: only when no physical keyboard is present).
/// Main thread.
public enum KeyboardPresence {
    public enum Policy: String, Sendable, CaseIterable {
        case auto, always, never
    }

    nonisolated(unsafe) public static var policy: Policy =
        Policy(rawValue: SilkConfiguration.current.onScreenKeyboardPolicy ?? "") ?? .auto

    /// Set by presenters. Starts false: a touch-only kiosk has no keyboard to report.
    nonisolated(unsafe) public private(set) static var hasPhysicalKeyboard = false
    /// Called after `hasPhysicalKeyboard` changes (a `KeyboardAvoidingNode` hides or shows).
    nonisolated(unsafe) private static var observers: [(id: Int, body: () -> Void)] = []
    nonisolated(unsafe) private static var nextObserver = 0

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

    public static func removeObserver(_ token: Int) { observers.removeAll { $0.id == token } }
}
