import Foundation
import SilkGeometry

/// A control's state; `normal` is the empty set.
public struct ControlState: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The state bits: `highlighted` 1, `disabled` 2, `selected` 4.
    public let rawValue: UInt8
    /// Creates a state from its bits (see `rawValue`).
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// No state bit: enabled, not highlighted, not selected. The fallback of every per-state lookup
    /// (`ButtonNode`).
    public static let normal: ControlState = []
    /// A touch is down on the control (or Space is held while it has focus).
    public static let highlighted = ControlState(rawValue: 1)
    /// `isEnabled` is false: the control sends no events and cannot take focus.
    public static let disabled = ControlState(rawValue: 2)
    /// `isSelected` is true: a toggled or chosen control (set by the app).
    public static let selected = ControlState(rawValue: 4)
    /// "normal", or the states joined by `|` ("highlighted|selected").
    public var description: String {
        isEmpty ? "normal" : [(Self.highlighted, "highlighted"), (.disabled, "disabled"), (.selected, "selected")]
            .filter { contains($0.0) }.map(\.1).joined(separator: "|")
    }
}

/// What happened to a control (Texture's `ASControlNodeEvent`, UIKit's `UIControl.Event`).
public struct ControlEvents: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The event bits, one per event in declaration order.
    public let rawValue: UInt16
    /// Creates a set of events from its bits (see `rawValue`).
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// A touch began on the enabled control (the first tap of a series).
    public static let touchDown = ControlEvents(rawValue: 1 << 0)
    /// A touch down that is the second (third …) tap in a row.
    public static let touchDownRepeat = ControlEvents(rawValue: 1 << 1)
    /// A tracked touch moved, and is inside the hit area (bounds plus `hitTestSlop`).
    public static let touchDragInside = ControlEvents(rawValue: 1 << 2)
    /// A tracked touch moved, and is outside the hit area.
    public static let touchDragOutside = ControlEvents(rawValue: 1 << 3)
    /// A tracked touch lifted inside the tracking area (the hit area plus `trackingMargin`).
    public static let touchUpInside = ControlEvents(rawValue: 1 << 4)
    /// A tracked touch lifted outside the tracking area.
    public static let touchUpOutside = ControlEvents(rawValue: 1 << 5)
    /// The tracked touch was cancelled (a scroll took it over, the seat went away, the control left
    /// the tree).
    public static let touchCancel = ControlEvents(rawValue: 1 << 6)
    /// Sent by subclasses whose value changed (a switch, a slider).
    public static let valueChanged = ControlEvents(rawValue: 1 << 7)
    /// The control was activated: a touch up inside, Enter, or Space released.
    public static let primaryActionTriggered = ControlEvents(rawValue: 1 << 8)

    /// Every touch event: `touchDown` through `touchCancel`.
    public static let allTouchEvents: ControlEvents = [.touchDown, .touchDownRepeat, .touchDragInside, .touchDragOutside,
                                                       .touchUpInside, .touchUpOutside, .touchCancel]
    /// Every event, touch events, `valueChanged` and `primaryActionTriggered` included.
    public static let allEvents: ControlEvents = [.allTouchEvents, .valueChanged, .primaryActionTriggered]

    static let names: [(ControlEvents, String)] = [
        (.touchDown, "touchDown"), (.touchDownRepeat, "touchDownRepeat"), (.touchDragInside, "touchDragInside"),
        (.touchDragOutside, "touchDragOutside"), (.touchUpInside, "touchUpInside"), (.touchUpOutside, "touchUpOutside"),
        (.touchCancel, "touchCancel"), (.valueChanged, "valueChanged"), (.primaryActionTriggered, "primaryActionTriggered"),
    ]
    /// The events' names joined by `|` ("touchUpInside|primaryActionTriggered").
    public var description: String { Self.names.filter { contains($0.0) }.map(\.1).joined(separator: "|") }
}

/// A node that turns touches and keys into control events delivered to closure targets, with
/// enabled / highlighted / selected state (Texture's ASControlNode).
///
/// **Touches** (from the window's `InputDispatcher`, main thread): a touch down highlights the
/// control and sends `.touchDown` (`.touchDownRepeat` for a quick second tap); moves send
/// `.touchDragInside` / `.touchDragOutside` by the hit area (bounds plus `hitTestSlop`) and keep
/// the highlight while within the tracking area (the hit area plus `trackingMargin`, as UIKit
/// lets a finger stray); lifting there sends `.touchUpInside` and `.primaryActionTriggered`,
/// elsewhere `.touchUpOutside`; a cancelled touch sends `.touchCancel`. Only the first touch is
/// tracked. A disabled control still takes touches (so they do not fall through to what is
/// behind it) but sends nothing.
///
/// **Keys**: controls are focusable while enabled. Enter sends `.primaryActionTriggered` on key
/// down; Space highlights on key down and sends it on key up (as GTK and browsers do).
/// Listen to `.primaryActionTriggered` to be activated by touch and keyboard alike.
///
/// **Targets** run on the main thread, outside the node's lock, in the order they were added.
///
/// Subclasses react to state changes in `stateDidChange()`.
open class ControlNode: DisplayNode, @unchecked Sendable {
    /// A target: called on the main thread with the control and the one event that happened.
    public typealias Action = @Sendable (ControlNode, ControlEvents) -> Void
    /// Identifies an added target, for `removeTarget(_:)`.
    public struct TargetToken: Hashable, Sendable { let id: UInt64 }

    /// Shows every control's hit area as a translucent tint (see `HitTestDebugOverlay.swift`). Set
    /// on the main thread.
    nonisolated(unsafe) public static var showsHitTestDebugOverlay = false
    /// The tint of `showsHitTestDebugOverlay` (default translucent green). Set on the main thread.
    nonisolated(unsafe) public static var hitTestDebugOverlayColor = Color(red: 0, green: 0.8, blue: 0.3, alpha: 0.35)

    private var _isEnabled = true
    private var _isHighlighted = false
    private var _isSelected = false
    private var _trackingMargin = 25.0
    private var _targets: [(token: TargetToken, events: ControlEvents, action: Action)] = []
    private var _nextTargetID: UInt64 = 0

    // Main-thread tracking state.
    private var trackedSource: Touch.Source?
    /// Whether a touch is being tracked. Main thread.
    public private(set) var isTracking = false
    /// Whether the tracked touch is inside the tracking area (so the control is highlighted). Main
    /// thread.
    public private(set) var isTouchInside = false
    private var isSpacePressed = false

    /// Creates an enabled, focusable control with no targets. Any thread.
    public override init() {
        super.init()
        isFocusable = true
        lock.withLock {
            _accessibility.isElement = true
            _accessibility.role = .button
            _accessibility.states = [.focusable]
            _accessibility.actions = [.activate]
        }
    }

    // MARK: State

    /// Whether the control responds: when false it sends no events, drops its highlight, and leaves
    /// the focus chain (touches on it still stop there). Any thread.
    public var isEnabled: Bool {
        get { lock.withLock { _isEnabled } }
        set {
            let changed = lock.withLock { () -> Bool in
                defer { _isEnabled = newValue; if !newValue { _isHighlighted = false } }
                return _isEnabled != newValue
            }
            if changed {
                setAccessibilityStates(.disabled, !newValue)
                setAccessibilityStates(.focusable, newValue && super.isFocusable)
                stateDidChange()
            }
        }
    }
    /// Whether the control shows as pressed; set by touch tracking and Space, or by the app. Any
    /// thread.
    public var isHighlighted: Bool {
        get { lock.withLock { _isHighlighted } }
        set {
            let changed = lock.withLock { () -> Bool in defer { _isHighlighted = newValue }; return _isHighlighted != newValue }
            if changed { stateDidChange() }
        }
    }
    /// Whether the control is selected (a toggle that is on, the current tab); the app sets it,
    /// touches do not. Any thread.
    public var isSelected: Bool {
        get { lock.withLock { _isSelected } }
        set {
            let changed = lock.withLock { () -> Bool in defer { _isSelected = newValue }; return _isSelected != newValue }
            if changed { setAccessibilityStates(.selected, newValue); stateDidChange() }
        }
    }
    /// The current state as a set (`.normal` when none applies). Any thread.
    public var state: ControlState {
        lock.withLock {
            var s: ControlState = []
            if _isHighlighted { s.insert(.highlighted) }
            if !_isEnabled { s.insert(.disabled) }
            if _isSelected { s.insert(.selected) }
            return s
        }
    }
    /// How far (points) a tracked touch may stray beyond the hit area and still count as inside
    /// (UIKit: 25 on an iPad, 70 on a phone). Default 25. Any thread.
    public var trackingMargin: Double {
        get { lock.withLock { _trackingMargin } }
        set { lock.withLock { _trackingMargin = max(0, newValue) } }
    }

    /// Focusable while enabled.
    open override var isFocusable: Bool {
        get { super.isFocusable && isEnabled }
        set { super.isFocusable = newValue; setAccessibilityStates(.focusable, newValue && isEnabled) }
    }

    /// `.activate` on an enabled control with a target for `.primaryActionTriggered` sends
    /// that event (as a tap or Enter would) and returns true; anything else returns false.
    /// Main thread.
    open override func performAccessibilityAction(_ action: AccessibilityAction) -> Bool {
        guard action == .activate, isEnabled,
              lock.withLock({ _targets.contains { $0.events.contains(.primaryActionTriggered) } }) else { return false }
        sendActions(for: .primaryActionTriggered)
        return true
    }

    /// What the control itself does when activated (a touch up inside, Enter, Space, or
    /// `sendActions(for: .primaryActionTriggered)`), before the targets hear
    /// `.primaryActionTriggered`: a switch toggles, a checkbox checks. Main thread. Default:
    /// nothing.
    open func performPrimaryAction() {}

    /// Called after `isEnabled`, `isHighlighted` or `isSelected` changed, on the thread that
    /// changed it, outside the lock. Read `state` for the new state.
    open func stateDidChange() {}

    // MARK: Targets

    /// Calls `action` for each of `events` that happens. Any thread.
    @discardableResult
    public func addTarget(for events: ControlEvents, _ action: @escaping Action) -> TargetToken {
        lock.withLock {
            _nextTargetID += 1
            let token = TargetToken(id: _nextTargetID)
            _targets.append((token, events, action))
            return token
        }
    }
    /// Removes the target added with `token`; it is not called afterwards. Any thread.
    public func removeTarget(_ token: TargetToken) {
        lock.withLock { _targets.removeAll { $0.token == token } }
    }
    /// Removes every target. Any thread.
    public func removeAllTargets() { lock.withLock { _targets.removeAll() } }

    /// Calls the targets of each of `events`, event by event in declaration order. Call it on the
    /// main thread: targets run on the calling thread, and expect the main one.
    public func sendActions(for events: ControlEvents) {
        if events.contains(.primaryActionTriggered) { performPrimaryAction() }
        let targets = lock.withLock { _targets }
        for (single, _) in ControlEvents.names where events.contains(single) {
            for t in targets where t.events.contains(single) { t.action(self, single) }
        }
    }

    // MARK: Touch tracking (main thread)

    /// The area where a tracked touch keeps the control highlighted, node coordinates.
    private var trackingArea: Rect {
        let m = trackingMargin
        return bounds.inset(by: hitTestSlop).insetBy(dx: -m, dy: -m)
    }

    /// Takes every touch (so touches never fall through a control); an enabled control not already
    /// tracking one highlights and sends `.touchDown` or `.touchDownRepeat`.
    open override func touchesBegan(_ touches: [Touch], with event: InputEvent) -> Bool {
        guard isEnabled, !isTracking, let touch = touches.first else { return true }
        trackedSource = touch.source
        isTracking = true
        isTouchInside = true
        isHighlighted = true
        sendActions(for: touch.tapCount > 1 ? .touchDownRepeat : .touchDown)
        return true
    }

    /// Follows the tracked touch: highlighted while within the tracking area, and sends
    /// `.touchDragInside` or `.touchDragOutside` by the hit area.
    open override func touchesMoved(_ touches: [Touch], with event: InputEvent) {
        guard let touch = tracked(touches) else { return }
        guard isEnabled else { stopTracking(); return }
        let p = touch.location(in: self)
        isTouchInside = trackingArea.contains(p)
        isHighlighted = isTouchInside
        sendActions(for: pointInside(p) ? .touchDragInside : .touchDragOutside)
    }

    /// Ends tracking: `.touchUpInside` and `.primaryActionTriggered` when lifted within the
    /// tracking area, else `.touchUpOutside`.
    open override func touchesEnded(_ touches: [Touch], with event: InputEvent) {
        guard let touch = tracked(touches) else { return }
        guard isEnabled else { stopTracking(); return }
        let inside = trackingArea.contains(touch.location(in: self))
        stopTracking()
        sendActions(for: inside ? [.touchUpInside, .primaryActionTriggered] : .touchUpOutside)
    }

    /// Ends tracking and sends `.touchCancel`.
    open override func touchesCancelled(_ touches: [Touch], with event: InputEvent?) {
        guard tracked(touches) != nil else { return }
        stopTracking()
        sendActions(for: .touchCancel)
    }

    private func tracked(_ touches: [Touch]) -> Touch? {
        guard isTracking else { return nil }
        return touches.first { $0.source == trackedSource }
    }

    private func stopTracking() {
        trackedSource = nil
        isTracking = false
        isTouchInside = false
        isHighlighted = false
    }

    // MARK: Keys (main thread)

    /// Enter sends `.primaryActionTriggered` (not on repeats); Space highlights. Other keys go on
    /// up the tree. A disabled control consumes nothing.
    open override func keyDown(_ key: KeyInput) -> Bool {
        guard isEnabled else { return false }
        switch key.key {
        case .enter:
            if !key.isRepeat { sendActions(for: .primaryActionTriggered) }
            return true
        case .space:
            if !key.isRepeat && !isSpacePressed { isSpacePressed = true; isHighlighted = true }
            return true
        default:
            return false
        }
    }

    /// Releasing Space that was pressed on this control removes the highlight and sends
    /// `.primaryActionTriggered`.
    open override func keyUp(_ key: KeyInput) -> Bool {
        guard key.key == .space, isSpacePressed else { return false }
        isSpacePressed = false
        if !isTracking { isHighlighted = false }
        if isEnabled { sendActions(for: .primaryActionTriggered) }
        return true
    }

    /// Losing focus with Space held drops the highlight without sending anything.
    open override func didResignFocus() {
        if isSpacePressed {
            isSpacePressed = false
            if !isTracking { isHighlighted = false }
        }
    }
}
