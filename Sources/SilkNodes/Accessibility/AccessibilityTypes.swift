import Foundation
import SilkGeometry

/// What an accessibility element is, as a screen reader announces it ("button", "slider" …).
/// The statics follow AT-SPI2's roles (`AtspiRole`), which the exporter maps them to; an app may
/// make its own with `init(rawValue:)`, which exporters announce as a generic element.
public struct AccessibilityRole: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The role's name, lower camel case ("toggleButton").
    public let rawValue: String
    /// Creates a role from its name (see `rawValue`).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The name, for logs and tests.
    public var description: String { rawValue }

    /// Not an element of its own: exporters skip it and show its children in its place.
    public static let none = AccessibilityRole(rawValue: "none")
    /// A push button: activating it performs one action.
    public static let button = AccessibilityRole(rawValue: "button")
    /// A button that stays pressed or not (`.checkable`, `.checked` in the states).
    public static let toggleButton = AccessibilityRole(rawValue: "toggleButton")
    /// A check box (`.checkable`; `.checked` or `.mixed`).
    public static let checkBox = AccessibilityRole(rawValue: "checkBox")
    /// One choice of a radio group (`.checkable`, `.checked` when chosen).
    public static let radioButton = AccessibilityRole(rawValue: "radioButton")
    /// The group holding radio buttons.
    public static let radioGroup = AccessibilityRole(rawValue: "radioGroup")
    /// An on/off switch (`.checkable`, `.checked` when on).
    public static let `switch` = AccessibilityRole(rawValue: "switch")
    /// A slider: a value in a range (`accessibilityValueRange`), increment and decrement actions.
    public static let slider = AccessibilityRole(rawValue: "slider")
    /// A progress bar: a value in a range that the user cannot change.
    public static let progressBar = AccessibilityRole(rawValue: "progressBar")
    /// A number field with up and down steps.
    public static let spinButton = AccessibilityRole(rawValue: "spinButton")
    /// A field with a drop-down list of choices.
    public static let comboBox = AccessibilityRole(rawValue: "comboBox")
    /// A list of items (a scrolling list, a collection): its children are the loaded items.
    public static let list = AccessibilityRole(rawValue: "list")
    /// One item of a list.
    public static let listItem = AccessibilityRole(rawValue: "listItem")
    /// Static text.
    public static let label = AccessibilityRole(rawValue: "label")
    /// A heading: static text that titles a section.
    public static let heading = AccessibilityRole(rawValue: "heading")
    /// An editable text field.
    public static let textField = AccessibilityRole(rawValue: "textField")
    /// A text field whose text is not spoken (its value is withheld).
    public static let passwordField = AccessibilityRole(rawValue: "passwordField")
    /// A picture (exposed when it has a label).
    public static let image = AccessibilityRole(rawValue: "image")
    /// A moving picture (an animated image).
    public static let animation = AccessibilityRole(rawValue: "animation")
    /// A window: the root of a window's tree.
    public static let window = AccessibilityRole(rawValue: "window")
    /// A scrolling viewport.
    public static let scrollPane = AccessibilityRole(rawValue: "scrollPane")
    /// The strip of tabs of a tab bar.
    public static let pageTabList = AccessibilityRole(rawValue: "pageTabList")
    /// One tab of a tab bar (`.selectable`, `.selected` when current).
    public static let pageTab = AccessibilityRole(rawValue: "pageTab")
    /// A dialog: a window-like panel over the content.
    public static let dialog = AccessibilityRole(rawValue: "dialog")
    /// An alert: a dialog that asks for attention.
    public static let alert = AccessibilityRole(rawValue: "alert")
    /// A transient message (a toast).
    public static let notification = AccessibilityRole(rawValue: "notification")
    /// A group of related elements (a panel, a toolbar).
    public static let group = AccessibilityRole(rawValue: "group")
    /// A table of rows and columns.
    public static let table = AccessibilityRole(rawValue: "table")
    /// One cell of a table.
    public static let cell = AccessibilityRole(rawValue: "cell")
    /// A chart (its label or value describes it).
    public static let chart = AccessibilityRole(rawValue: "chart")
    /// A status indicator (a battery level, a connection light).
    public static let statusIndicator = AccessibilityRole(rawValue: "statusIndicator")
}

/// The states of an accessibility element, as screen readers announce them ("checked",
/// "dimmed" …). Each maps to an AT-SPI2 state (`ATSPI_STATE_*`).
public struct AccessibilityStates: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The state bits, one per state in declaration order.
    public let rawValue: UInt32
    /// Creates a set of states from its bits (see `rawValue`).
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Keyboard focus can rest on it.
    public static let focusable = AccessibilityStates(rawValue: 1 << 0)
    /// It has keyboard focus.
    public static let focused = AccessibilityStates(rawValue: 1 << 1)
    /// It can be selected (a list item, a tab).
    public static let selectable = AccessibilityStates(rawValue: 1 << 2)
    /// It is selected (the current tab, a chosen item, a selected button).
    public static let selected = AccessibilityStates(rawValue: 1 << 3)
    /// It can be checked (a check box, a switch, a toggle button).
    public static let checkable = AccessibilityStates(rawValue: 1 << 4)
    /// It is checked (a switch that is on).
    public static let checked = AccessibilityStates(rawValue: 1 << 5)
    /// It is partly checked (a check box over a mixed selection).
    public static let mixed = AccessibilityStates(rawValue: 1 << 6)
    /// It does not respond now (a disabled control); announced as "dimmed".
    public static let disabled = AccessibilityStates(rawValue: 1 << 7)
    /// It can expand (a disclosure, a combo box).
    public static let expandable = AccessibilityStates(rawValue: 1 << 8)
    /// It is expanded.
    public static let expanded = AccessibilityStates(rawValue: 1 << 9)
    /// Its text can be edited.
    public static let editable = AccessibilityStates(rawValue: 1 << 10)
    /// It is loading or updating.
    public static let busy = AccessibilityStates(rawValue: 1 << 11)
    /// Its text has several lines.
    public static let multiLine = AccessibilityStates(rawValue: 1 << 12)
    /// Its value can be read but not changed.
    public static let readOnly = AccessibilityStates(rawValue: 1 << 13)

    static let names: [(AccessibilityStates, String)] = [
        (.focusable, "focusable"), (.focused, "focused"), (.selectable, "selectable"), (.selected, "selected"),
        (.checkable, "checkable"), (.checked, "checked"), (.mixed, "mixed"), (.disabled, "disabled"),
        (.expandable, "expandable"), (.expanded, "expanded"), (.editable, "editable"), (.busy, "busy"),
        (.multiLine, "multiLine"), (.readOnly, "readOnly"),
    ]
    /// The states' names joined by `|` ("focusable|focused"), or "none".
    public var description: String {
        isEmpty ? "none" : Self.names.filter { contains($0.0) }.map(\.1).joined(separator: "|")
    }
}

/// Something an assistive technology can ask an element to do (AT-SPI2's Action and Value
/// interfaces carry them out through `DisplayNode.performAccessibilityAction(_:)`).
public enum AccessibilityAction: Hashable, Sendable, CustomStringConvertible {
    /// Press it: the control's primary action (AT-SPI's "click").
    case activate
    /// Step the value up (a slider, a spin button).
    case increment
    /// Step the value down.
    case decrement
    /// Scroll the content forward (down or right) by about a page.
    case scrollForward
    /// Scroll the content backward (up or left) by about a page.
    case scrollBackward
    /// Close it (a dialog, a notification, a menu).
    case dismiss
    /// An action of the app's own, by name (exported under that name).
    case custom(String)

    /// The name exporters use: AT-SPI's conventional "click" for `activate`, the case name for
    /// the others, the given name for `custom`.
    public var name: String {
        switch self {
        case .activate: "click"
        case .increment: "increment"
        case .decrement: "decrement"
        case .scrollForward: "scrollForward"
        case .scrollBackward: "scrollBackward"
        case .dismiss: "dismiss"
        case .custom(let n): n
        }
    }
    /// `name`.
    public var description: String { name }
}

/// The numeric value of a slider, progress bar or spin button (AT-SPI2's Value interface).
/// Non-finite numbers become 0, `maximum` is at least `minimum`, `current` is clamped between
/// them, and a negative or non-finite `step` becomes 0.
public struct AccessibilityValueRange: Hashable, Sendable {
    /// The value now, between `minimum` and `maximum`.
    public var current: Double
    /// The smallest value.
    public var minimum: Double
    /// The largest value.
    public var maximum: Double
    /// The smallest change the control makes (increment and decrement move by it); 0: continuous.
    public var step: Double

    /// Creates a range, sanitizing absurd numbers as described on the type.
    public init(current: Double, minimum: Double, maximum: Double, step: Double = 0) {
        let lo = minimum.isFinite ? minimum : 0
        let hi = maximum.isFinite ? max(lo, maximum) : lo
        self.minimum = lo
        self.maximum = hi
        self.current = current.isFinite ? min(hi, max(lo, current)) : lo
        self.step = step.isFinite && step > 0 ? step : 0
    }
}
