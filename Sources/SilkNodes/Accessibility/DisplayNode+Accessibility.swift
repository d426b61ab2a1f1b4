import Foundation
import SilkGeometry

/// A node's accessibility properties, stored under its lock (`DisplayNode._accessibility`).
struct AccessibilityStorage: Sendable {
    var isElement = false
    var role: AccessibilityRole = .none
    var label: String?
    var defaultLabel: String?
    var value: String?
    var defaultValue: String?
    var hint: String?
    var states: AccessibilityStates = []
    var actions: [AccessibilityAction] = []
    var valueRange: AccessibilityValueRange?
    var itemCount: Int?
}

extension DisplayNode {
    /// Whether assistive technologies see this node as an element of its own (Texture's
    /// `isAccessibilityElement`). Default false: the node is skipped and its subnodes stand in
    /// its place. Controls, text, labelled images and editable text turn it on. Setting it posts
    /// a `.role` change. Any thread.
    public var isAccessibilityElement: Bool {
        get { lock.withLock { _accessibility.isElement } }
        set { updateAccessibility(.role) { $0.isElement = newValue } }
    }

    /// What the element is (default `.none`; controls fill in `.button`, text `.label` …).
    /// Setting it posts a `.role` change. Any thread.
    public var accessibilityRole: AccessibilityRole {
        get { lock.withLock { _accessibility.role } }
        set { updateAccessibility(.role) { $0.role = newValue } }
    }

    /// The element's name, spoken first ("Next", "Volume"). Nil falls back to what the node
    /// shows (a button's title, a text node's text); set a label to override that, nil to go back
    /// to it. Setting it posts a `.label` change. Any thread.
    public var accessibilityLabel: String? {
        get { lock.withLock { _accessibility.label ?? _accessibility.defaultLabel } }
        set { updateAccessibility(.label) { $0.label = newValue } }
    }

    /// The element's value ("50 %", a text field's text). Nil falls back to what the node shows
    /// (an editable text node's text); set one to override that. Setting it posts a `.value`
    /// change. Any thread.
    public var accessibilityValue: String? {
        get { lock.withLock { _accessibility.value ?? _accessibility.defaultValue } }
        set { updateAccessibility(.value) { $0.value = newValue } }
    }

    /// What activating the element does, spoken after a pause ("Shows the next photo").
    /// Setting it posts a `.hint` change. Any thread.
    public var accessibilityHint: String? {
        get { lock.withLock { _accessibility.hint } }
        set { updateAccessibility(.hint) { $0.hint = newValue } }
    }

    /// The element's states. Controls keep `.disabled`, `.selected` and `.focusable` current
    /// themselves, and the window's input dispatcher `.focused`; set the rest (a switch's
    /// `.checked`). Setting it posts a `.states` change when it changed. Any thread.
    public var accessibilityStates: AccessibilityStates {
        get { lock.withLock { _accessibility.states } }
        set { updateAccessibilityStates { $0 = newValue } }
    }

    /// What an assistive technology may ask the element to do (`performAccessibilityAction`
    /// carries it out). Controls start with `[.activate]`. Setting it posts an `.actions` change.
    /// Any thread.
    public var accessibilityActions: [AccessibilityAction] {
        get { lock.withLock { _accessibility.actions } }
        set { updateAccessibility(.actions) { $0.actions = newValue } }
    }

    /// The element's numeric value, for sliders, progress bars and spin buttons (nil: none).
    /// Setting it posts a `.valueRange` change. Any thread.
    public var accessibilityValueRange: AccessibilityValueRange? {
        get { lock.withLock { _accessibility.valueRange } }
        set { updateAccessibility(.valueRange) { $0.valueRange = newValue } }
    }

    /// For a container that loads only some of its items (a table, a collection, a pager): how
    /// many items it has in all, exported beside the loaded ones (AT-SPI2's child count of a
    /// list). Containers keep it current; nil for anything else. Setting it posts a `.children`
    /// change. Any thread.
    public var accessibilityItemCount: Int? {
        get { lock.withLock { _accessibility.itemCount } }
        set { updateAccessibility(.children) { $0.itemCount = newValue.map { max(0, $0) } } }
    }

    /// The label used while the app set none: subclasses call it when what they show changes (a
    /// button's title, a text node's text). Posts a `.label` change when the effective label
    /// changed. Any thread.
    public func setDefaultAccessibilityLabel(_ label: String?) {
        updateAccessibility(.label) { $0.defaultLabel = label }
    }

    /// The value used while the app set none: subclasses call it when their content changes (an
    /// editable text node's text). Posts a `.value` change when the effective value changed.
    /// Any thread.
    public func setDefaultAccessibilityValue(_ value: String?) {
        updateAccessibility(.value) { $0.defaultValue = value }
    }

    /// Inserts or removes `states` (`on`), posting a `.states` change when that changed them:
    /// what subclasses call as their state changes (a switch toggling `.checked`). Any thread.
    public func setAccessibilityStates(_ states: AccessibilityStates, _ on: Bool) {
        updateAccessibilityStates { s in if on { s.formUnion(states) } else { s.subtract(states) } }
    }

    /// Posts `kind` for this node to the accessibility observers (`AccessibilityNotifications`):
    /// for subclasses whose exported content changed in a way no property setter saw (a
    /// container's item count, its selection). Any thread, outside the node's lock.
    public func postAccessibilityChange(_ kind: AccessibilityChangeKind) {
        AccessibilityNotifications.post(kind, for: self)
    }

    private func updateAccessibility(_ kind: AccessibilityChangeKind, _ body: (inout AccessibilityStorage) -> Void) {
        let changed = lock.withLock { () -> Bool in
            let before = _accessibility
            body(&_accessibility)
            switch kind {
            case .label: return (before.label ?? before.defaultLabel) != (_accessibility.label ?? _accessibility.defaultLabel)
            case .value: return (before.value ?? before.defaultValue) != (_accessibility.value ?? _accessibility.defaultValue)
            case .role: return before.role != _accessibility.role || before.isElement != _accessibility.isElement
            case .hint: return before.hint != _accessibility.hint
            case .actions: return before.actions != _accessibility.actions
            case .valueRange: return before.valueRange != _accessibility.valueRange
            case .children: return before.itemCount != _accessibility.itemCount
            default: return true
            }
        }
        if changed { AccessibilityNotifications.post(kind, for: self) }
    }

    private func updateAccessibilityStates(_ body: (inout AccessibilityStates) -> Void) {
        let (old, new) = lock.withLock { () -> (AccessibilityStates, AccessibilityStates) in
            let old = _accessibility.states
            body(&_accessibility.states)
            return (old, _accessibility.states)
        }
        if old != new { AccessibilityNotifications.post(.states(old: old, new: new), for: self) }
    }
}
