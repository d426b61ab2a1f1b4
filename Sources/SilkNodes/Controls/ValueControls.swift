import Foundation
import SilkGeometry
import SilkInput
import SilkRaster
import SilkRender

/// A value in a range with an optional step, shared by `SliderNode` and `StepperNode`: absurd
/// input is made sane here once (NaN is ignored, bounds are ordered, values clamped and snapped).
struct SteppedRange: Hashable, Sendable {
    private(set) var minimum = 0.0
    private(set) var maximum = 1.0
    /// 0: continuous.
    private(set) var step = 0.0
    private(set) var value = 0.0

    init(value: Double, minimum: Double, maximum: Double, step: Double) {
        setBounds(minimum: minimum, maximum: maximum)
        setStep(step)
        setValue(value)
    }

    mutating func setBounds(minimum lo: Double, maximum hi: Double) {
        let lo = lo.isFinite ? lo : 0, hi = hi.isFinite ? hi : max(lo, 1)
        minimum = min(lo, hi); maximum = max(lo, hi)
        setValue(value)
    }
    mutating func setStep(_ s: Double) {
        step = s.isFinite && s > 0 ? s : 0
        setValue(value)
    }
    /// Clamps and snaps `v` to the step (counted from the minimum); NaN leaves the value as is.
    mutating func setValue(_ v: Double) {
        guard !v.isNaN else { return }
        var v = min(maximum, max(minimum, v))
        if step > 0 {
            let n = ((v - minimum) / step).rounded()
            v = min(maximum, max(minimum, minimum + n * step))
        }
        value = v
    }
    /// The step the keys move by: the step, or a twentieth of the range when continuous.
    var keyStep: Double { step > 0 ? step : (maximum - minimum) / 20 }
    /// Ticks a stepped range shows (none beyond 100).
    var tickCount: Int {
        guard step > 0, maximum > minimum else { return 0 }
        let n = (maximum - minimum) / step
        return n.isFinite && n <= 100 ? Int(n.rounded(.down)) + 1 : 0
    }
}

/// A slider: drag its thumb (or touch anywhere on its track) to pick a value between
/// `minimumValue` and `maximumValue`, continuously or in steps of `step` (ticks are drawn for up to
/// 101 steps).
///
/// The value is shown by layer geometry, not drawing: the filled part of the track and the
/// thumb are subnodes whose frames follow the value (the thumb's outline and shadow are layer
/// border and shadow), so dragging at 60 Hz redraws nothing; the track and ticks are drawn once
/// per size, theme and state.
///
/// Touches set the value under the finger and send `.valueChanged` on every change while
/// dragging. Keys: left/down and right/up move by `step` (a twentieth of the range when
/// continuous), Page Up/Down by a tenth, Home/End to the ends; each change sends
/// `.valueChanged`. Any thread unless noted.
open class SliderNode: ThemedControlNode, @unchecked Sendable {
    private var _range: SteppedRange
    /// The filled part of the track (a layer colour).
    let fillNode = DisplayNode()
    /// The thumb (a layer colour, border and shadow).
    let thumbNode = DisplayNode()

    /// A slider over `minimum…maximum` (ordered if reversed; non-finite bounds become 0…1) at
    /// `value`, continuous (`step` 0) or stepped. Any thread.
    public init(value: Double = 0, minimum: Double = 0, maximum: Double = 1, step: Double = 0) {
        _range = SteppedRange(value: value, minimum: minimum, maximum: maximum, step: step)
        super.init()
        for n in [fillNode, thumbNode] { n.isUserInteractionEnabled = false; addSubnode(n) }
        accessibilityRole = .slider
        accessibilityActions = [.increment, .decrement]
        updateAccessibility()
    }

    /// Role `slider`: the value range, and the value as text (a percentage of the range when it is
    /// 0…1).
    open override func updateAccessibility() {
        let r = lock.withLock { _range }
        placeValueNodes()
        accessibilityValueRange = AccessibilityValueRange(current: r.value, minimum: r.minimum, maximum: r.maximum, step: r.step)
        setDefaultAccessibilityValue(r.minimum == 0 && r.maximum == 1 ? "\(Int((r.value * 100).rounded())) %"
                                                                     : String(format: "%g", r.value))
    }

    /// One key step up or down.
    open override func increment(by steps: Int) -> Bool {
        let r = lock.withLock { _range }
        userSetValue(r.value + Double(steps) * r.keyStep)
        return true
    }

    /// The value, clamped to the range and snapped to the step; NaN is ignored. Setting it sends
    /// nothing. Any thread.
    public var value: Double {
        get { lock.withLock { _range.value } }
        set { lock.withLock { _range.setValue(newValue) }; appearanceDidChange() }
    }
    /// The lower bound (the value is clamped). Any thread.
    public var minimumValue: Double {
        get { lock.withLock { _range.minimum } }
        set { lock.withLock { _range.setBounds(minimum: newValue, maximum: _range.maximum) }; appearanceDidChange() }
    }
    /// The upper bound (the value is clamped). Any thread.
    public var maximumValue: Double {
        get { lock.withLock { _range.maximum } }
        set { lock.withLock { _range.setBounds(minimum: _range.minimum, maximum: newValue) }; appearanceDidChange() }
    }
    /// The step (0, negative or non-finite: continuous). Any thread.
    public var step: Double {
        get { lock.withLock { _range.step } }
        set { lock.withLock { _range.setStep(newValue) }; appearanceDidChange() }
    }

    /// Sets the value as the user did: sends `.valueChanged` if it changed. Main thread.
    public func userSetValue(_ v: Double) {
        let changed = lock.withLock { () -> Bool in
            let old = _range.value
            _range.setValue(v)
            return _range.value != old
        }
        guard changed else { return }
        appearanceDidChange()
        sendActions(for: .valueChanged)
    }

    /// The thumb's diameter and the track's inset from the ends.
    private func thumbDiameter(_ t: Theme) -> Double { Theme.metric(t.metrics.thumbDiameter, 24) }

    /// The value under `x` (node coordinates).
    func value(atX x: Double) -> Double {
        let r = lock.withLock { _range }
        let inset = thumbDiameter(effectiveTheme) / 2
        let w = bounds.width - 2 * inset
        guard w > 0 else { return r.minimum }
        return r.minimum + Self.fraction(x - inset, 0, w) * (r.maximum - r.minimum)
    }

    /// Sets the value under the touch.
    open override func touchesBegan(_ touches: [Touch], with event: InputEvent) -> Bool {
        let took = super.touchesBegan(touches, with: event)
        if isTracking, let t = touches.first { userSetValue(value(atX: t.location(in: self).x)) }
        return took
    }
    /// Follows the tracked touch (anywhere: a finger may stray off the thin track).
    open override func touchesMoved(_ touches: [Touch], with event: InputEvent) {
        super.touchesMoved(touches, with: event)
        if isTracking, let t = touches.first { isHighlighted = true; userSetValue(value(atX: t.location(in: self).x)) }
    }

    /// Arrows, Page Up/Down, Home and End move the value. Main thread.
    open override func keyDown(_ key: KeyInput) -> Bool {
        guard isEnabled else { return false }
        let r = lock.withLock { _range }
        switch key.key {
        case .right, .up: userSetValue(r.value + r.keyStep)
        case .left, .down: userSetValue(r.value - r.keyStep)
        case .pageUp: userSetValue(r.value + max(r.keyStep, (r.maximum - r.minimum) / 10))
        case .pageDown: userSetValue(r.value - max(r.keyStep, (r.maximum - r.minimum) / 10))
        case .home: userSetValue(r.minimum)
        case .end: userSetValue(r.maximum)
        default: return super.keyDown(key)
        }
        return true
    }

    /// As wide as offered (200 points when unconstrained), the theme's control height.
    open override func calculateSizeThatFits(_ constrainedSize: Size) -> Size {
        let t = measuringTheme()
        return Size(width: constrainedSize.width.isFinite ? constrainedSize.width : 200,
                    height: max(Theme.metric(t.metrics.controlHeight, 40), thumbDiameter(t)))
    }

    struct Appearance: Hashable, Sendable {
        var ticks: Int
        var track: Color, tick: Color
        var thumbDiameter: Double, thickness: Double
    }

    /// The track, the ticks and their colours for the state (the value is not drawn: see the
    /// type's description).
    open override func appearance(theme t: Theme) -> any Hashable & Sendable {
        let disabled = state.contains(.disabled)
        let r = lock.withLock { _range }
        return Appearance(ticks: r.tickCount, track: disabled ? t.disabled(t.colors.track) : t.colors.track,
                          tick: disabled ? t.disabled(t.colors.border) : t.colors.border,
                          thumbDiameter: thumbDiameter(t), thickness: Theme.metric(t.metrics.trackThickness, 6))
    }

    /// Draws the track and the ticks.
    open override class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {
        guard let a = parameters as? Appearance else { return }
        let c = context.canvas
        let track = Self.trackRect(bounds: context.bounds, thumbDiameter: a.thumbDiameter, thickness: a.thickness)
        c.fillRoundedRect(track, cornerRadius: track.height / 2, with: .color(a.track))
        if a.ticks > 1 {
            for i in 0..<a.ticks {
                let tx = track.minX + track.width * Double(i) / Double(a.ticks - 1)
                c.fill(Rect(x: tx - 1, y: track.maxY + 4, width: 2, height: 5), with: .color(a.tick))
            }
        }
    }

    /// The track in `bounds`: inset by half the thumb at both ends, centred vertically.
    static func trackRect(bounds b: Rect, thumbDiameter: Double, thickness: Double) -> Rect {
        let d = min(thumbDiameter, b.height), th = min(thickness, d)
        return Rect(x: b.minX + d / 2, y: b.midY - th / 2, width: max(0, b.width - d), height: th)
    }

    /// Moves the fill and the thumb to the value, coloured for the theme and state (layer
    /// properties only). Any thread.
    func placeValueNodes() {
        let t = effectiveTheme, s = state, b = bounds
        let r = lock.withLock { _range }
        let d = min(thumbDiameter(t), b.height)
        let track = Self.trackRect(bounds: b, thumbDiameter: d, thickness: Theme.metric(t.metrics.trackThickness, 6))
        let x = track.minX + Self.fraction(r.value, r.minimum, r.maximum) * track.width
        let disabled = s.contains(.disabled)
        fillNode.frame = Rect(x: track.minX, y: track.minY, width: x - track.minX, height: track.height)
        fillNode.cornerRadius = track.height / 2
        fillNode.backgroundColor = disabled ? t.disabled(t.colors.accent) : t.colors.accent
        thumbNode.frame = Rect(x: x - d / 2, y: b.midY - d / 2, width: d, height: d)
        thumbNode.cornerRadius = d / 2
        var thumb = disabled ? t.disabled(t.colors.thumb) : t.colors.thumb
        if s.contains(.highlighted) { thumb = thumb.mixed(with: t.colors.accent, 0.25) }
        thumbNode.backgroundColor = thumb
        thumbNode.borderColor = t.colors.border.withAlpha(0.5)
        thumbNode.borderWidth = 1
        thumbNode.boxShadow = Shadow(color: Color(white: 0, alpha: 0.25), offset: Point(x: 0, y: 1), blurRadius: 2)
    }

    /// The fill and thumb take the new theme's colours.
    open override func effectiveThemeDidChange() {
        super.effectiveThemeDidChange()
        placeValueNodes()
    }

    /// A pill-shaped focus ring; the fill and thumb follow the new size.
    open override func layoutDidFinish() {
        super.layoutDidFinish()
        cornerRadius = bounds.height / 2
        placeValueNodes()
    }
}

/// A stepper: "−" and "+" buttons either side of the value, in one rounded outline. A tap on a
/// button (or the up/right and down/left arrows, `+` and `-`) moves the value by `step` within
/// `minimumValue…maximumValue` and sends `.valueChanged`; a button at its limit is drawn faded and
/// does nothing. `format` turns the value into its text. Any thread unless noted.
open class StepperNode: ThemedControlNode, @unchecked Sendable {
    private var _range: SteppedRange
    private var _format: @Sendable (Double) -> String
    /// The button under the tracked touch: -1, +1, or 0 (main thread).
    private var touchedPart = 0

    /// A stepper over `minimum…maximum` in `step`s (non-positive: 1), at `value`, showing the value
    /// through `format` (default: no decimals when the step is whole, else two). Any thread.
    public init(value: Double = 0, minimum: Double = 0, maximum: Double = 10, step: Double = 1,
                format: (@Sendable (Double) -> String)? = nil) {
        let s = step.isFinite && step > 0 ? step : 1
        _range = SteppedRange(value: value, minimum: minimum, maximum: maximum, step: s)
        _format = format ?? { v in s.rounded() == s ? String(Int(v.rounded())) : String(format: "%.2f", v) }
        super.init()
        accessibilityRole = .spinButton
        accessibilityActions = [.increment, .decrement]
        updateAccessibility()
    }

    /// Role `spinButton`: the value range, the formatted value.
    open override func updateAccessibility() {
        let r = lock.withLock { _range }
        accessibilityValueRange = AccessibilityValueRange(current: r.value, minimum: r.minimum, maximum: r.maximum, step: r.step)
        setDefaultAccessibilityValue(formattedValue)
    }

    /// `steps` steps, as the buttons.
    open override func increment(by steps: Int) -> Bool {
        stepBy(steps)
        return true
    }

    /// The value, clamped and snapped; NaN is ignored. Setting it sends nothing. Any thread.
    public var value: Double {
        get { lock.withLock { _range.value } }
        set { lock.withLock { _range.setValue(newValue) }; appearanceDidChange() }
    }
    /// The lower bound. Any thread.
    public var minimumValue: Double { lock.withLock { _range.minimum } }
    /// The upper bound. Any thread.
    public var maximumValue: Double { lock.withLock { _range.maximum } }
    /// The step. Any thread.
    public var step: Double { lock.withLock { _range.step } }

    /// The value's text, as shown. Any thread.
    public var formattedValue: String {
        let (v, f) = lock.withLock { (_range.value, _format) }
        return f(v)
    }

    /// Moves the value by `steps` steps as the user did: sends `.valueChanged` if it changed.
    /// Main thread.
    public func stepBy(_ steps: Int) {
        let changed = lock.withLock { () -> Bool in
            let old = _range.value
            _range.setValue(old + Double(steps) * _range.step)
            return _range.value != old
        }
        guard changed else { return }
        appearanceDidChange()
        sendActions(for: .valueChanged)
    }

    private func part(at p: Point) -> Int {
        let w = buttonWidth(effectiveTheme)
        if p.x < w { return -1 }
        if p.x >= bounds.width - w { return 1 }
        return 0
    }
    private func buttonWidth(_ t: Theme) -> Double { Theme.metric(t.metrics.controlHeight, 40) * 1.1 }

    /// Remembers the touched button.
    open override func touchesBegan(_ touches: [Touch], with event: InputEvent) -> Bool {
        touchedPart = touches.first.map { part(at: $0.location(in: self)) } ?? 0
        return super.touchesBegan(touches, with: event)
    }
    /// A touch lifted on the button it went down on steps the value.
    open override func touchesEnded(_ touches: [Touch], with event: InputEvent) {
        if let t = touches.first, part(at: t.location(in: self)) != touchedPart { touchedPart = 0 }
        super.touchesEnded(touches, with: event)
        touchedPart = 0
        appearanceDidChange()
    }
    /// Forgets the touched button.
    open override func touchesCancelled(_ touches: [Touch], with event: InputEvent?) {
        touchedPart = 0
        super.touchesCancelled(touches, with: event)
    }
    /// Steps by the touched button (nothing for Enter or Space: use the arrows). Main thread.
    open override func performPrimaryAction() {
        if touchedPart != 0 { stepBy(touchedPart) }
    }

    /// Up/right and `+` step up, down/left and `-` down, Home/End go to the bounds. Main thread.
    open override func keyDown(_ key: KeyInput) -> Bool {
        guard isEnabled else { return false }
        switch key.key {
        case .right, .up: stepBy(1)
        case .left, .down: stepBy(-1)
        case .home: stepBy(-Int.max / 4)
        case .end: stepBy(Int.max / 4)
        default:
            if key.text == "+" || key.key == .character("+") { stepBy(1); return true }
            if key.text == "-" || key.key == .character("-") { stepBy(-1); return true }
            return super.keyDown(key)
        }
        return true
    }

    /// Two square-ish buttons and the widest of the bounds' texts.
    open override func calculateSizeThatFits(_ constrainedSize: Size) -> Size {
        let t = measuringTheme()
        let (lo, hi, f) = lock.withLock { (_range.minimum, _range.maximum, _format) }
        let text = max(ControlDrawing.measureLine(f(lo), t.bodyText()).width, ControlDrawing.measureLine(f(hi), t.bodyText()).width)
        return Size(width: 2 * buttonWidth(t) + max(40, text + 2 * Theme.metric(t.metrics.padding, 14) / 2),
                    height: Theme.metric(t.metrics.controlHeight, 40))
    }

    struct Appearance: Hashable, Sendable {
        var text: String
        var canDecrement: Bool, canIncrement: Bool
        var pressed: Int
        var surface: Color, border: Color, sign: Color, faded: Color, overlay: Color
        var attributes: TextAttributes
        var radius: Double, buttonWidth: Double
    }

    /// The value's text, which buttons work, and the theme's colours for the state.
    open override func appearance(theme t: Theme) -> any Hashable & Sendable {
        let s = state
        let (r, f) = lock.withLock { (_range, _format) }
        let disabled = s.contains(.disabled)
        return Appearance(text: f(r.value), canDecrement: !disabled && r.value > r.minimum,
                          canIncrement: !disabled && r.value < r.maximum,
                          pressed: s.contains(.highlighted) ? touchedPart : 0, surface: t.colors.surface,
                          border: disabled ? t.disabled(t.colors.border) : t.colors.border, sign: t.colors.accent,
                          faded: t.disabled(t.colors.secondaryText), overlay: t.colors.pressedOverlay,
                          attributes: t.bodyText(color: disabled ? t.disabled(t.colors.text) : t.colors.text, weight: t.fonts.emphasisWeight),
                          radius: t.cornerRadii.control, buttonWidth: buttonWidth(t))
    }

    /// Draws the outline, the two signs and the value.
    open override class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {
        guard let a = parameters as? Appearance else { return }
        let c = context.canvas, b = context.bounds
        var outline = Path()
        outline.addRoundedRect(b.insetBy(dx: 0.5, dy: 0.5), cornerRadius: a.radius)
        c.fill(outline, with: .color(a.surface))
        let bw = min(a.buttonWidth, b.width / 3)
        let minus = Rect(x: b.minX, y: b.minY, width: bw, height: b.height)
        let plus = Rect(x: b.maxX - bw, y: b.minY, width: bw, height: b.height)
        for (rect, sign) in [(minus, -1), (plus, 1)] where a.pressed == sign {
            c.withSavedState {
                c.clip(to: rect)
                var p = Path(); p.addRoundedRect(b, cornerRadius: a.radius)
                c.fill(p, with: .color(a.overlay))
            }
        }
        let arm = min(bw, b.height) * 0.18
        let signWidth = 2.5
        c.strokeLine(from: Point(x: minus.midX - arm, y: minus.midY), to: Point(x: minus.midX + arm, y: minus.midY), width: signWidth,
                     with: .color(a.canDecrement ? a.sign : a.faded))
        let plusColor = Paint.color(a.canIncrement ? a.sign : a.faded)
        c.strokeLine(from: Point(x: plus.midX - arm, y: plus.midY), to: Point(x: plus.midX + arm, y: plus.midY), width: signWidth, with: plusColor)
        c.strokeLine(from: Point(x: plus.midX, y: plus.midY - arm), to: Point(x: plus.midX, y: plus.midY + arm), width: signWidth, with: plusColor)
        c.fill(Rect(x: minus.maxX, y: b.minY + 8, width: 1, height: b.height - 16), with: .color(a.border))
        c.fill(Rect(x: plus.minX - 1, y: b.minY + 8, width: 1, height: b.height - 16), with: .color(a.border))
        ControlDrawing.drawLine(a.text, a.attributes, in: Rect(x: minus.maxX, y: b.minY, width: plus.minX - minus.maxX, height: b.height), canvas: c)
        c.stroke(outline, style: StrokeStyle(lineWidth: 1), with: .color(a.border))
    }

    /// A focus ring with the outline's corners.
    open override func layoutDidFinish() {
        super.layoutDidFinish()
        cornerRadius = effectiveTheme.cornerRadii.control
    }
}
