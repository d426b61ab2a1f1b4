import Foundation
import SilkGeometry
import SilkRaster

/// The base of the standard controls (switch, checkbox, radio group, segmented control,
/// slider, progress bar, activity indicator, stepper): a `ControlNode` that draws itself from
/// its `effectiveTheme` and its state.
///
/// A subclass describes what it draws as a value, `appearance(theme:)` (the colours it uses,
/// already resolved for its state, its value, its text), and draws that value in the class
/// method `draw(parameters:in:isCancelled:)` on a display queue. The base keeps the appearance
/// last drawn: when the inherited theme changes it builds the new one and redraws only if the
/// two differ, and relayouts only if the theme's fonts or metrics changed.
///
/// State changes (enabled, highlighted, selected) redraw. Threads: as `ControlNode`; subclass
/// setters are callable from any thread unless they say otherwise.
open class ThemedControlNode: ControlNode, ThemeObserver, @unchecked Sendable {
    private var _drawnAppearance: AnyHashable?
    private var _measuredWith: MeasuringKey?

    private struct MeasuringKey: Hashable {
        var fonts: Theme.Fonts
        var metrics: Theme.Metrics
    }

    /// A control with the default states (enabled, focusable). Any thread.
    public override init() {
        super.init()
        isOpaque = false
    }

    /// Themed controls draw their contents.
    open override class var drawsContent: Bool { true }

    /// What the control draws for `theme` in its current state: a value compared with the last
    /// drawn one to skip redraws. Subclasses override it (the default draws nothing). Any thread.
    open func appearance(theme: Theme) -> any Hashable & Sendable { 0 }

    /// The appearance for the effective theme, remembered as drawn. Main thread (the node pass).
    public final override func drawParameters() -> (any Sendable)? {
        let a = appearance(theme: effectiveTheme)
        let key = AnyHashable(a)
        lock.withLock { _drawnAppearance = key }
        return a
    }

    /// The theme a subclass measures itself with in `calculateSizeThatFits(_:)`: the effective
    /// theme, remembered so that a theme change with other fonts or metrics relayouts. Any thread.
    public func measuringTheme() -> Theme {
        let t = effectiveTheme
        lock.withLock { _measuredWith = MeasuringKey(fonts: t.fonts, metrics: t.metrics) }
        return t
    }

    /// Redraws when the new theme changes the appearance; relayouts when it changes the fonts
    /// or metrics the control measured with. Subclasses that override it call `super`.
    open func effectiveThemeDidChange() {
        let t = effectiveTheme
        let key = AnyHashable(appearance(theme: t))
        let (drawn, measured) = lock.withLock { (_drawnAppearance, _measuredWith) }
        if let measured, measured != MeasuringKey(fonts: t.fonts, metrics: t.metrics) { setNeedsLayout() }
        if drawn != key { setNeedsDisplay() }
    }

    /// A control moved into a tree (perhaps one with another theme) checks its appearance.
    open override func didEnterHierarchy() {
        super.didEnterHierarchy()
        effectiveThemeDidChange()
    }

    /// A change of the control's own value or content: redraws (when the appearance changed)
    /// and, with `layout`, relayouts. Any thread.
    public func appearanceDidChange(layout: Bool = false) {
        if layout { setNeedsLayout() }
        updateAccessibility()
        let key = AnyHashable(appearance(theme: effectiveTheme))
        if lock.withLock({ _drawnAppearance }) != key { setNeedsDisplay() }
    }

    /// Brings the accessibility properties (role, default label and value, states, value range)
    /// up to date with the control's value; called by `appearanceDidChange(layout:)`, so after
    /// every change of value or state. Subclasses override it (calling `super` is not needed).
    /// Any thread.
    open func updateAccessibility() {}

    /// `.activate` sends `.primaryActionTriggered` (the control's own action, then its
    /// targets), `.increment` and `.decrement` act as the arrow keys would (`increment(by:)`);
    /// anything else, or a disabled control, returns false. Main thread.
    open override func performAccessibilityAction(_ action: AccessibilityAction) -> Bool {
        guard isEnabled else { return false }
        switch action {
        case .activate:
            guard accessibilityActions.contains(.activate) else { return false }
            sendActions(for: .primaryActionTriggered)
            return true
        case .increment: return increment(by: 1)
        case .decrement: return increment(by: -1)
        default: return super.performAccessibilityAction(action)
        }
    }

    /// Moves the value one step up (`steps` > 0) or down, as the user did (sends
    /// `.valueChanged`); returns false when the control has no such value. Main thread.
    open func increment(by steps: Int) -> Bool { false }

    /// Redraws for the new state.
    open override func stateDidChange() {
        super.stateDidChange()
        appearanceDidChange()
    }

    /// `(value - minimum) / (maximum - minimum)` clamped to 0…1; 0 for an empty or absurd range.
    static func fraction(_ value: Double, _ minimum: Double, _ maximum: Double) -> Double {
        guard maximum > minimum, (maximum - minimum).isFinite, value.isFinite else { return 0 }
        return min(1, max(0, (value - minimum) / (maximum - minimum)))
    }
}

/// Drawing helpers shared by the controls (display queues).
enum ControlDrawing {
    /// One line of `text` in `attributes`, truncated with an ellipsis to `rect`'s width, centred
    /// vertically and placed horizontally by `alignment` (-1 leading, 0 centre, 1 trailing).
    static func drawLine(_ text: String, _ attributes: TextAttributes, in rect: Rect, alignment: Int = 0, canvas: Canvas) {
        guard !text.isEmpty, rect.width > 0 else { return }
        let layout = textLayout(text, attributes, width: rect.width)
        let x: Double
        switch alignment {
        case ..<0: x = rect.minX
        case 0: x = rect.midX - layout.size.width / 2
        default: x = rect.maxX - layout.size.width
        }
        canvas.draw(layout, at: Point(x: x.rounded(), y: (rect.midY - layout.size.height / 2).rounded()))
    }

    static func textLayout(_ text: String, _ attributes: TextAttributes, width: Double) -> TextLayout {
        TextLayout(text: AttributedText(text, attributes: attributes), constrainedTo: Size(width: max(1, width), height: .infinity),
                   maximumLines: 1, truncationToken: AttributedText("…", attributes: attributes))
    }

    /// The size of one line of `text` (untruncated, capped at 4,000 points wide).
    static func measureLine(_ text: String, _ attributes: TextAttributes) -> Size {
        let s = TextLayout(text: AttributedText(text.isEmpty ? " " : text, attributes: attributes),
                           constrainedTo: Size(width: 4000, height: .infinity), maximumLines: 1).size
        return Size(width: text.isEmpty ? 0 : s.width.rounded(.up), height: s.height.rounded(.up))
    }

    /// A checkmark inside `rect`.
    static func checkmark(in r: Rect) -> Path {
        var p = Path()
        p.move(to: Point(x: r.minX + r.width * 0.22, y: r.minY + r.height * 0.52))
        p.addLine(to: Point(x: r.minX + r.width * 0.42, y: r.minY + r.height * 0.72))
        p.addLine(to: Point(x: r.minX + r.width * 0.78, y: r.minY + r.height * 0.30))
        return p
    }

    static let markStroke = StrokeStyle(lineWidth: 2.5, lineCap: .round, lineJoin: .round)
}
