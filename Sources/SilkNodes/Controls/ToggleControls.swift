import Foundation
import SilkGeometry
import SilkRaster
import SilkRender

/// An on/off switch: a rounded track with a round thumb, the track in the theme's accent when on.
///
/// A tap, Enter or Space toggles it and sends `.valueChanged` (then `.primaryActionTriggered`);
/// the thumb slides to its new end (`setOn(_:animated:)`: a layer animation of its position,
/// run by the render thread on the frame clock, so the main thread does no per-frame work and a
/// second toggle mid-slide turns back from where the thumb is). `isSelected` mirrors `isOn`.
/// Sized by `Theme.Metrics.switchSize`. Any thread unless noted.
open class SwitchNode: ThemedControlNode, @unchecked Sendable {
    private var _isOn = false
    /// The thumb: a layer colour and shadow, moved (and animated) over the drawn track.
    let thumbNode = DisplayNode()

    /// How long the thumb takes to slide from one end to the other, in seconds.
    public static let toggleDuration = 0.18

    /// An off switch. Any thread.
    public init(isOn: Bool = false) {
        super.init()
        _isOn = isOn
        isSelected = isOn
        thumbNode.isUserInteractionEnabled = false
        thumbNode.name = "switch-thumb"
        addSubnode(thumbNode)
        accessibilityRole = .`switch`
        updateAccessibility()
    }

    /// Role `switch`, states `checkable` and `checked` while on.
    open override func updateAccessibility() {
        setAccessibilityStates(.checkable, true)
        setAccessibilityStates(.checked, isOn)
    }

    /// Whether the switch is on. Setting it moves the thumb without animation and does not send
    /// `.valueChanged` (the app set it). Any thread.
    public var isOn: Bool {
        get { lock.withLock { _isOn } }
        set { setOn(newValue, animated: false) }
    }

    /// Turns the switch on or off; `animated`: the thumb slides there in `toggleDuration`
    /// seconds (eased), from where it is shown now. Sends nothing. Any thread.
    public func setOn(_ on: Bool, animated: Bool) {
        lock.withLock { _isOn = on }
        isSelected = on
        appearanceDidChange()
        styleThumb()
        placeThumb(animated: animated)
    }

    /// Toggles (the thumb slides) and sends `.valueChanged`. Main thread.
    open override func performPrimaryAction() {
        setOn(!isOn, animated: true)
        sendActions(for: .valueChanged)
    }

    /// The theme's switch size.
    open override func calculateSizeThatFits(_ constrainedSize: Size) -> Size {
        let m = measuringTheme().metrics
        return Size(width: Theme.metric(m.switchSize.width, 52), height: Theme.metric(m.switchSize.height, 32))
    }

    struct Appearance: Hashable, Sendable {
        var track: Color
    }

    /// The track's colour for the state (the thumb is a layer: `placeThumb`).
    open override func appearance(theme: Theme) -> any Hashable & Sendable {
        var track = isOn ? theme.colors.accent : theme.colors.track
        if state.contains(.disabled) { track = theme.disabled(track) }
        return Appearance(track: track)
    }

    /// The track in `bounds` (a pill as tall as the bounds, at most width / 1.4), and the thumb's
    /// rest frame at one end.
    static func geometry(bounds b: Rect, isOn: Bool) -> (track: Rect, thumb: Rect) {
        let h = min(b.height, b.width / 1.4)
        let track = Rect(x: b.minX, y: b.midY - h / 2, width: b.width, height: h)
        let inset = max(2, h * 0.1)
        let d = max(0, h - 2 * inset)
        let x = isOn ? track.maxX - inset - d : track.minX + inset
        return (track, Rect(x: x, y: track.minY + inset, width: d, height: d))
    }

    /// Draws the track, centred in the bounds.
    open override class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {
        guard let a = parameters as? Appearance else { return }
        let track = geometry(bounds: context.bounds, isOn: false).track
        context.canvas.fillRoundedRect(track, cornerRadius: track.height / 2, with: .color(a.track))
    }

    /// Colours the thumb for the theme and state (layer properties only). Any thread.
    func styleThumb() {
        let t = effectiveTheme, s = state
        var color = t.colors.thumb
        if s.contains(.disabled) { color = t.disabled(color) }
        if s.contains(.highlighted) { color = color.mixed(with: t.colors.text, 0.12) }
        thumbNode.backgroundColor = color
        thumbNode.boxShadow = Shadow(color: Color(white: 0, alpha: 0.22), offset: Point(x: 0, y: 1), blurRadius: 1.5)
    }

    /// Moves the thumb to the end for the value, sliding there when `animated` (and it was
    /// already placed). Any thread.
    func placeThumb(animated: Bool) {
        let frame = Self.geometry(bounds: bounds, isOn: isOn).thumb
        thumbNode.cornerRadius = frame.height / 2
        guard thumbNode.frame != frame else { return }
        if animated && !bounds.isEmpty && !thumbNode.frame.isEmpty {
            thumbNode.animate(duration: Self.toggleDuration, timing: .easeInOut) { thumbNode.frame = frame }
        } else {
            thumbNode.frame = frame
        }
    }

    /// The thumb takes the new theme's colours.
    open override func effectiveThemeDidChange() {
        super.effectiveThemeDidChange()
        styleThumb()
    }

    /// The thumb shows the pressed and disabled states.
    open override func stateDidChange() {
        super.stateDidChange()
        styleThumb()
    }

    /// A pill-shaped focus ring; the thumb follows the new size.
    open override func layoutDidFinish() {
        super.layoutDidFinish()
        cornerRadius = bounds.height / 2
        styleThumb()
        placeThumb(animated: false)
    }
}

/// A checkbox with an optional label: a rounded box, filled with the accent and a checkmark when
/// checked, or a bar when mixed (`isMixed`: some of what it stands for are checked).
///
/// A tap (on the box or the label), Enter or Space checks or unchecks it (a mixed box becomes
/// checked) and sends `.valueChanged`. `isSelected` mirrors `isChecked`. Any thread unless noted.
open class CheckBoxNode: ThemedControlNode, @unchecked Sendable {
    private var _isChecked = false
    private var _isMixed = false
    private var _title: String

    /// A checkbox labelled `title` (empty: just the box). Any thread.
    public init(title: String = "", isChecked: Bool = false) {
        _title = title
        super.init()
        _isChecked = isChecked
        isSelected = isChecked
        accessibilityRole = .checkBox
        updateAccessibility()
    }

    /// Role `checkBox`, the title as the default label, states `checkable`, `checked`, `mixed`.
    open override func updateAccessibility() {
        let (checked, mixed, title) = lock.withLock { (_isChecked, _isMixed, _title) }
        setDefaultAccessibilityLabel(title.isEmpty ? nil : title)
        setAccessibilityStates(.checkable, true)
        setAccessibilityStates(.checked, checked && !mixed)
        setAccessibilityStates(.mixed, mixed)
    }

    /// Whether the box is checked. Setting it clears `isMixed` and sends nothing. Any thread.
    public var isChecked: Bool {
        get { lock.withLock { _isChecked } }
        set {
            lock.withLock { _isChecked = newValue; _isMixed = false }
            isSelected = newValue
            appearanceDidChange()
        }
    }
    /// The third state: neither checked nor unchecked (a "select all" over a partial selection).
    /// Any thread.
    public var isMixed: Bool {
        get { lock.withLock { _isMixed } }
        set { lock.withLock { _isMixed = newValue }; appearanceDidChange() }
    }
    /// The label right of the box. Any thread.
    public var title: String {
        get { lock.withLock { _title } }
        set { lock.withLock { _title = newValue }; appearanceDidChange(layout: true) }
    }

    /// Checks an unchecked or mixed box, unchecks a checked one, and sends `.valueChanged`. Main
    /// thread.
    open override func performPrimaryAction() {
        let wasChecked = isChecked && !isMixed
        isChecked = !wasChecked
        sendActions(for: .valueChanged)
    }

    /// The box, the spacing and the label; at least the theme's mark size tall (and 32 points,
    /// for touch).
    open override func calculateSizeThatFits(_ constrainedSize: Size) -> Size {
        let t = measuringTheme()
        let mark = Theme.metric(t.metrics.markSize, 22)
        let title = self.title
        let text = ControlDrawing.measureLine(title, t.bodyText())
        let w = mark + (title.isEmpty ? 0 : Theme.metric(t.metrics.spacing, 10) + text.width)
        return Size(width: min(w, constrainedSize.width.isFinite ? max(mark, constrainedSize.width) : w),
                    height: max(mark, text.height, 32))
    }

    struct Appearance: Hashable, Sendable {
        var checked: Bool, mixed: Bool
        var fill: Color, border: Color, mark: Color
        var overlay: Color?
        var title: String
        var text: TextAttributes
        var markSize: Double, spacing: Double, radius: Double, borderWidth: Double
    }

    /// The box's colours for the state, and the label.
    open override func appearance(theme t: Theme) -> any Hashable & Sendable {
        let s = state
        let (checked, mixed, title) = lock.withLock { (_isChecked, _isMixed, _title) }
        let on = checked || mixed
        var fill = on ? t.colors.accent : t.colors.surface
        var border = on ? t.colors.accent : t.colors.border
        var mark = t.colors.onAccent
        var text = t.colors.text
        if s.contains(.disabled) {
            fill = t.disabled(fill); border = t.disabled(border); mark = t.disabled(mark); text = t.disabled(text)
        }
        return Appearance(checked: checked, mixed: mixed, fill: fill, border: border, mark: mark,
                          overlay: s.contains(.highlighted) ? t.colors.pressedOverlay : nil, title: title,
                          text: t.bodyText(color: text), markSize: Theme.metric(t.metrics.markSize, 22),
                          spacing: Theme.metric(t.metrics.spacing, 10), radius: t.cornerRadii.small,
                          borderWidth: Theme.metric(t.metrics.borderWidth, 2))
    }

    /// Draws the box (with its mark) and the label.
    open override class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {
        guard let a = parameters as? Appearance else { return }
        let b = context.bounds, c = context.canvas
        let box = Rect(x: b.minX, y: (b.midY - a.markSize / 2).rounded(), width: a.markSize, height: a.markSize)
        c.fillRoundedRect(box, cornerRadius: a.radius, with: .color(a.fill))
        if !(a.checked || a.mixed) {
            let bw = a.borderWidth
            c.strokeRoundedRect(box.insetBy(dx: bw / 2, dy: bw / 2), cornerRadius: max(0, a.radius - bw / 2), lineWidth: bw,
                                with: .color(a.border))
        }
        if a.mixed {
            c.strokeLine(from: Point(x: box.minX + box.width * 0.25, y: box.midY),
                         to: Point(x: box.maxX - box.width * 0.25, y: box.midY), width: 2.5, with: .color(a.mark))
        } else if a.checked {
            c.stroke(ControlDrawing.checkmark(in: box), style: ControlDrawing.markStroke, with: .color(a.mark))
        }
        if let o = a.overlay { c.fillRoundedRect(box, cornerRadius: a.radius, with: .color(o)) }
        let textRect = Rect(x: box.maxX + a.spacing, y: b.minY, width: b.maxX - box.maxX - a.spacing, height: b.height)
        ControlDrawing.drawLine(a.title, a.text, in: textRect, alignment: -1, canvas: c)
    }

    /// A slightly rounded focus ring.
    open override func layoutDidFinish() {
        super.layoutDidFinish()
        cornerRadius = 4
    }
}
