import Foundation
import SilkGeometry
import SilkInput
import SilkRaster

/// A control that picks one of several titled options: the base of `RadioGroupNode` (options
/// in a column) and `SegmentedControlNode` (options in a row).
///
/// A tap on an option selects it; the arrow keys select the previous or next option (wrapping,
/// as WAI-ARIA radio groups do), Home and End the first and last; Enter or Space selects the
/// first option when none is. Each change the user makes sends `.valueChanged`. Any thread
/// unless noted.
open class ChoiceControlNode: ThemedControlNode, @unchecked Sendable {
    private var _options: [String]
    private var _selectedIndex: Int?
    private var _disabledOptions: Set<Int> = []
    /// The option under the tracked touch (main thread).
    private var touchedIndex: Int?

    /// A control offering `options`, with `selectedIndex` selected (nil or out of range: none).
    /// Any thread.
    public init(options: [String], selectedIndex: Int? = nil) {
        _options = options
        super.init()
        _selectedIndex = selectedIndex.flatMap { options.indices.contains($0) ? $0 : nil }
        accessibilityRole = .radioGroup
        accessibilityActions = [.activate, .increment, .decrement]
        updateAccessibility()
    }

    /// Role `radioGroup`; the selected option's title as the default value, and its position as
    /// the value range (1…count).
    open override func updateAccessibility() {
        let (options, selected) = lock.withLock { (_options, _selectedIndex) }
        setDefaultAccessibilityValue(selected.map { options[$0] })
        accessibilityValueRange = selected.map {
            AccessibilityValueRange(current: Double($0 + 1), minimum: 1, maximum: Double(max(1, options.count)), step: 1)
        }
    }

    /// The next (`steps` > 0) or previous enabled option, wrapping, as the arrow keys.
    open override func increment(by steps: Int) -> Bool {
        keyDown(KeyInput(key: steps > 0 ? .right : .left))
    }

    /// The options' titles. Setting them keeps the selection if it is still in range. Any thread.
    public var options: [String] {
        get { lock.withLock { _options } }
        set {
            lock.withLock {
                _options = newValue
                if let s = _selectedIndex, !newValue.indices.contains(s) { _selectedIndex = nil }
            }
            appearanceDidChange(layout: true)
        }
    }
    /// The selected option's index, nil when none is. An index out of range selects nothing.
    /// Setting it sends nothing. Any thread.
    public var selectedIndex: Int? {
        get { lock.withLock { _selectedIndex } }
        set {
            lock.withLock { _selectedIndex = newValue.flatMap { _options.indices.contains($0) ? $0 : nil } }
            appearanceDidChange()
        }
    }
    /// Options that cannot be chosen (drawn faded; taps and arrows skip them). Any thread.
    public var disabledOptions: Set<Int> {
        get { lock.withLock { _disabledOptions } }
        set { lock.withLock { _disabledOptions = newValue }; appearanceDidChange() }
    }

    /// The option index at `point` (node coordinates), nil between or outside options.
    /// Subclasses give their geometry. Main thread.
    open func optionIndex(at point: Point) -> Int? { nil }

    /// The option the user picks: selects `index` if enabled and sends `.valueChanged` if the
    /// selection changed. Main thread.
    public func choose(_ index: Int) {
        let changed = lock.withLock { () -> Bool in
            guard _options.indices.contains(index), !_disabledOptions.contains(index), _selectedIndex != index else { return false }
            _selectedIndex = index
            return true
        }
        guard changed else { return }
        appearanceDidChange()
        sendActions(for: .valueChanged)
    }

    /// Remembers the touched option.
    open override func touchesBegan(_ touches: [Touch], with event: InputEvent) -> Bool {
        touchedIndex = touches.first.flatMap { optionIndex(at: $0.location(in: self)) }
        return super.touchesBegan(touches, with: event)
    }
    /// Forgets the touched option once the touch is over.
    open override func touchesEnded(_ touches: [Touch], with event: InputEvent) {
        if let t = touches.first, touchedIndex != optionIndex(at: t.location(in: self)) { touchedIndex = nil }
        super.touchesEnded(touches, with: event)
        touchedIndex = nil
    }
    /// Forgets the touched option.
    open override func touchesCancelled(_ touches: [Touch], with event: InputEvent?) {
        touchedIndex = nil
        super.touchesCancelled(touches, with: event)
    }

    /// A touch lifted on an option chooses it; Enter or Space with nothing selected chooses the
    /// first enabled option. Main thread.
    open override func performPrimaryAction() {
        if let t = touchedIndex { choose(t); return }
        if selectedIndex == nil, let first = enabledIndices.first { choose(first) }
    }

    private var enabledIndices: [Int] {
        lock.withLock { _options.indices.filter { !_disabledOptions.contains($0) } }
    }

    /// Arrows move the selection (wrapping), Home and End go to the ends; other keys as
    /// `ControlNode`. Main thread.
    open override func keyDown(_ key: KeyInput) -> Bool {
        guard isEnabled else { return false }
        let enabled = enabledIndices
        guard !enabled.isEmpty else { return super.keyDown(key) }
        let current = selectedIndex.flatMap { enabled.firstIndex(of: $0) }
        switch key.key {
        case .left, .up:
            choose(enabled[((current ?? 0) + enabled.count - 1) % enabled.count])
        case .right, .down:
            choose(enabled[current.map { ($0 + 1) % enabled.count } ?? 0])
        case .home: choose(enabled[0])
        case .end: choose(enabled[enabled.count - 1])
        default: return super.keyDown(key)
        }
        return true
    }

    /// The option under the touch while it is pressed, for drawing. Main thread.
    var pressedIndex: Int? { state.contains(.highlighted) ? touchedIndex : nil }

    struct OptionLook: Hashable, Sendable {
        var title: String
        var selected: Bool
        var pressed: Bool
        var disabled: Bool
    }

    func optionLooks() -> [OptionLook] {
        let pressed = pressedIndex
        let disabledAll = state.contains(.disabled)
        return lock.withLock {
            _options.indices.map { i in
                OptionLook(title: _options[i], selected: _selectedIndex == i, pressed: pressed == i,
                           disabled: disabledAll || _disabledOptions.contains(i))
            }
        }
    }
}

/// Radio buttons in a column: one circle and title per option, the selected circle filled with
/// the accent. See `ChoiceControlNode` for touch and keys. Any thread unless noted.
open class RadioGroupNode: ChoiceControlNode, @unchecked Sendable {
    /// The height of each option's row (the theme's control height).
    func rowHeight(_ t: Theme) -> Double { Theme.metric(t.metrics.controlHeight, 40) }

    /// The option whose row holds `point`.
    open override func optionIndex(at point: Point) -> Int? {
        let h = rowHeight(effectiveTheme)
        guard point.y >= 0, point.x >= 0, point.x <= bounds.width else { return nil }
        let i = Int(point.y / h)
        return options.indices.contains(i) ? i : nil
    }

    /// A row per option, as wide as the widest title.
    open override func calculateSizeThatFits(_ constrainedSize: Size) -> Size {
        let t = measuringTheme()
        let mark = Theme.metric(t.metrics.markSize, 22), spacing = Theme.metric(t.metrics.spacing, 10)
        let widest = options.map { ControlDrawing.measureLine($0, t.bodyText()).width }.max() ?? 0
        let w = mark + spacing + widest
        return Size(width: constrainedSize.width.isFinite ? min(w, max(mark, constrainedSize.width)) : w,
                    height: rowHeight(t) * Double(options.count))
    }

    struct Appearance: Hashable, Sendable {
        var options: [OptionLook]
        var accent: Color, border: Color, surface: Color, overlay: Color
        var text: TextAttributes, disabledText: TextAttributes
        var disabledAccent: Color, disabledBorder: Color
        var rowHeight: Double, markSize: Double, spacing: Double, borderWidth: Double
    }

    /// The rows' looks and the theme's colours.
    open override func appearance(theme t: Theme) -> any Hashable & Sendable {
        Appearance(options: optionLooks(), accent: t.colors.accent, border: t.colors.border, surface: t.colors.surface,
                   overlay: t.colors.pressedOverlay, text: t.bodyText(), disabledText: t.bodyText(color: t.disabled(t.colors.text)),
                   disabledAccent: t.disabled(t.colors.accent), disabledBorder: t.disabled(t.colors.border),
                   rowHeight: rowHeight(t), markSize: Theme.metric(t.metrics.markSize, 22),
                   spacing: Theme.metric(t.metrics.spacing, 10), borderWidth: Theme.metric(t.metrics.borderWidth, 2))
    }

    /// Draws each row: the circle (a dot inside when selected) and the title.
    open override class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {
        guard let a = parameters as? Appearance else { return }
        let c = context.canvas, b = context.bounds
        for (i, o) in a.options.enumerated() {
            let row = Rect(x: b.minX, y: Double(i) * a.rowHeight, width: b.width, height: a.rowHeight)
            guard row.minY < b.maxY else { break }
            let circle = Rect(x: row.minX, y: (row.midY - a.markSize / 2).rounded(), width: a.markSize, height: a.markSize)
            let accent = o.disabled ? a.disabledAccent : a.accent
            let border = o.disabled ? a.disabledBorder : a.border
            c.fillEllipse(in: circle, with: .color(a.surface))
            c.strokeEllipse(in: circle.insetBy(dx: a.borderWidth / 2, dy: a.borderWidth / 2), lineWidth: a.borderWidth,
                            with: .color(o.selected ? accent : border))
            if o.selected { c.fillEllipse(in: circle.insetBy(dx: a.markSize * 0.27, dy: a.markSize * 0.27), with: .color(accent)) }
            if o.pressed { c.fillEllipse(in: circle, with: .color(a.overlay)) }
            let textRect = Rect(x: circle.maxX + a.spacing, y: row.minY, width: row.maxX - circle.maxX - a.spacing, height: row.height)
            ControlDrawing.drawLine(o.title, o.disabled ? a.disabledText : a.text, in: textRect, alignment: -1, canvas: c)
        }
    }
}

/// A row of equal segments in one rounded outline; the selected segment is filled with the
/// accent. See `ChoiceControlNode` for touch and keys. Any thread unless noted.
open class SegmentedControlNode: ChoiceControlNode, @unchecked Sendable {
    /// The segment under `point`: the width divided equally.
    open override func optionIndex(at point: Point) -> Int? {
        let n = options.count
        guard n > 0, bounds.width > 0, point.x >= 0, point.x < bounds.width, point.y >= 0, point.y <= bounds.height else { return nil }
        return min(n - 1, Int(point.x / (bounds.width / Double(n))))
    }

    /// Equal segments as wide as the widest title plus padding, the theme's control height.
    open override func calculateSizeThatFits(_ constrainedSize: Size) -> Size {
        let t = measuringTheme()
        let pad = Theme.metric(t.metrics.padding, 14)
        let widest = options.map { ControlDrawing.measureLine($0, t.bodyText(weight: t.fonts.emphasisWeight)).width }.max() ?? 0
        let w = (widest + 2 * pad) * Double(options.count)
        return Size(width: constrainedSize.width.isFinite ? min(w, constrainedSize.width) : w,
                    height: Theme.metric(t.metrics.controlHeight, 40))
    }

    struct Appearance: Hashable, Sendable {
        var options: [OptionLook]
        var accent: Color, border: Color, surface: Color, overlay: Color
        var text: TextAttributes, selectedText: TextAttributes, disabledText: TextAttributes
        var disabledAccent: Color, radius: Double, borderWidth: Double
    }

    /// The segments' looks and the theme's colours.
    open override func appearance(theme t: Theme) -> any Hashable & Sendable {
        Appearance(options: optionLooks(), accent: t.colors.accent, border: t.colors.border, surface: t.colors.surface,
                   overlay: t.colors.pressedOverlay, text: t.bodyText(),
                   selectedText: t.bodyText(color: t.colors.onAccent, weight: t.fonts.emphasisWeight),
                   disabledText: t.bodyText(color: t.disabled(t.colors.text)), disabledAccent: t.disabled(t.colors.accent),
                   radius: t.cornerRadii.control, borderWidth: max(1, Theme.metric(t.metrics.borderWidth, 2) / 2))
    }

    /// Draws the outline, the selected fill, the dividers and the titles.
    open override class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {
        guard let a = parameters as? Appearance, !a.options.isEmpty else { return }
        let c = context.canvas, b = context.bounds
        let n = Double(a.options.count), w = b.width / n
        var outline = Path()
        outline.addRoundedRect(b.insetBy(dx: a.borderWidth / 2, dy: a.borderWidth / 2), cornerRadius: a.radius)
        c.fill(outline, with: .color(a.surface))
        for (i, o) in a.options.enumerated() {
            let seg = Rect(x: b.minX + Double(i) * w, y: b.minY, width: w, height: b.height)
            if o.selected || o.pressed {
                c.withSavedState {
                    c.clip(to: seg)
                    var p = Path()
                    p.addRoundedRect(b, cornerRadius: a.radius)
                    if o.selected { c.fill(p, with: .color(o.disabled ? a.disabledAccent : a.accent)) }
                    if o.pressed { c.fill(p, with: .color(a.overlay)) }
                }
            }
            if i > 0, !o.selected, !a.options[i - 1].selected {
                c.fill(Rect(x: seg.minX - a.borderWidth / 2, y: b.minY + 8, width: a.borderWidth, height: b.height - 16),
                       with: .color(a.border))
            }
            let attrs = o.selected ? a.selectedText : (o.disabled ? a.disabledText : a.text)
            ControlDrawing.drawLine(o.title, attrs, in: seg.insetBy(dx: 6, dy: 0), canvas: c)
        }
        c.stroke(outline, style: StrokeStyle(lineWidth: a.borderWidth), with: .color(a.border))
    }

    /// A focus ring with the outline's corners.
    open override func layoutDidFinish() {
        super.layoutDidFinish()
        cornerRadius = effectiveTheme.cornerRadii.control
    }
}
