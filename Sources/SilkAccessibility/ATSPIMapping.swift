import Foundation
import SilkNodes

/// How Silk's roles and states appear in AT-SPI2 (the numbers are `AtspiRole` and
/// `AtspiStateType` of at-spi2-core's atspi-constants.h, stable since AT-SPI 2.0).
enum ATSPI {
    /// Role numbers and the names `GetRoleName` returns.
    static let application: UInt32 = 75
    static let frame: UInt32 = 23

    static func role(_ role: AccessibilityRole) -> (code: UInt32, name: String) {
        switch role {
        case .button: (43, "push button")
        case .toggleButton, .switch: (62, "toggle button")   // AT-SPI 2.46 has no switch role yet
        case .checkBox: (7, "check box")
        case .radioButton: (44, "radio button")
        case .radioGroup: (99, "grouping")
        case .slider: (51, "slider")
        case .progressBar: (42, "progress bar")
        case .spinButton: (52, "spin button")
        case .comboBox: (11, "combo box")
        case .list: (31, "list")
        case .listItem: (32, "list item")
        case .label: (29, "label")
        case .heading: (83, "heading")
        case .textField: (79, "entry")
        case .passwordField: (40, "password text")
        case .image: (27, "image")
        case .animation: (3, "animation")
        case .window: (frame, "frame")
        case .scrollPane: (49, "scroll pane")
        case .pageTabList: (38, "page tab list")
        case .pageTab: (37, "page tab")
        case .dialog: (16, "dialog")
        case .alert: (2, "alert")
        case .notification: (101, "notification")
        case .group: (39, "panel")
        case .table: (55, "table")
        case .cell: (56, "table cell")
        case .chart: (80, "chart")
        case .statusIndicator: (54, "status bar")
        case .none: (20, "filler")
        default: (67, "unknown")
        }
    }

    // AtspiStateType bit numbers.
    static let active: UInt32 = 1, busy: UInt32 = 3, checked: UInt32 = 4, editable: UInt32 = 7, enabled: UInt32 = 8
    static let expandable: UInt32 = 9, expanded: UInt32 = 10, focusable: UInt32 = 11, focused: UInt32 = 12
    static let multiLine: UInt32 = 17, selectable: UInt32 = 22, selected: UInt32 = 23, sensitive: UInt32 = 24
    static let showing: UInt32 = 25, singleLine: UInt32 = 26, visible: UInt32 = 30, indeterminate: UInt32 = 32
    static let checkable: UInt32 = 41, readOnly: UInt32 = 43

    /// Silk's states with their AT-SPI bit and the name `object:state-changed:NAME` uses.
    static let stateNames: [(AccessibilityStates, UInt32, String)] = [
        (.focusable, focusable, "focusable"), (.focused, focused, "focused"), (.selectable, selectable, "selectable"),
        (.selected, selected, "selected"), (.checkable, checkable, "checkable"), (.checked, checked, "checked"),
        (.mixed, indeterminate, "indeterminate"), (.expandable, expandable, "expandable"), (.expanded, expanded, "expanded"),
        (.editable, editable, "editable"), (.busy, busy, "busy"), (.multiLine, multiLine, "multi-line"),
        (.readOnly, readOnly, "read-only"),
    ]

    /// The AT-SPI state set of an element: its states, plus enabled/sensitive unless disabled,
    /// visible/showing when on screen, single-line for one-line text fields.
    static func stateBits(_ e: AccessibilityElement, onScreen: Bool) -> (UInt32, UInt32) {
        var bits: [UInt32] = []
        for (s, bit, _) in stateNames where e.states.contains(s) { bits.append(bit) }
        if !e.states.contains(.disabled) { bits += [enabled, sensitive] }
        if onScreen { bits += [visible, showing] }
        if (e.role == .textField || e.role == .passwordField) && !e.states.contains(.multiLine) { bits.append(singleLine) }
        if e.role == .window { bits.append(active) }
        var lo: UInt32 = 0, hi: UInt32 = 0
        for b in bits { if b < 32 { lo |= 1 << b } else { hi |= 1 << (b - 32) } }
        return (lo, hi)
    }

    /// The element's text for the Text interface: a field's value, otherwise its label.
    static func text(of e: AccessibilityElement) -> String? {
        switch e.role {
        case .textField, .passwordField: e.value ?? ""
        case .label, .heading: e.label ?? ""
        default: nil
        }
    }
}
