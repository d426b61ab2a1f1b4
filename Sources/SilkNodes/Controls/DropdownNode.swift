import Foundation
import SilkGeometry
import SilkInput
import SilkLayout
import SilkRaster
import SilkRender

/// A dropdown (picker): shows the selected option and a chevron; activating it presents the
/// options as a list from `presentingController` — for the pointer and the keyboard a popover
/// anchored under the control (above it when there is no room below; `ModalStyle.popover`), for
/// a finger a bottom sheet. Choosing a row selects it, dismisses the list and sends
/// `.valueChanged` (when the choice differs); Escape or a tap outside leaves the selection as
/// it was.
///
/// In the open list, Up and Down move the highlighted row (skipping disabled options), Home and
/// End go to the ends, Enter or Space chooses the highlighted row; the list traps the focus
/// while open and gives it back to the dropdown when it closes. Without opening the list, the
/// arrow keys step through the options, Home and End go to the ends (as a native select box
/// does). Any thread unless noted.
open class DropdownNode: ChoiceControlNode, @unchecked Sendable {
    /// The controller that presents the list (the screen the dropdown is on). Without one, the
    /// list cannot open (the keys still work). Main thread.
    public weak var presentingController: NodeController?
    /// The list while it is shown (main thread).
    public private(set) var presentedList: NodeController?
    /// Whether the last activation came from a finger (main thread).
    private var activatedByFinger = false
    private var _placeholder: String

    /// A dropdown offering `options`, with `placeholder` shown while none is selected. Any thread.
    public init(options: [String], selectedIndex: Int? = nil, placeholder: String = "Choose…") {
        _placeholder = placeholder
        super.init(options: options, selectedIndex: selectedIndex)
        accessibilityRole = .comboBox
        accessibilityActions = [.activate, .increment, .decrement]
        setAccessibilityStates(.expandable, true)
    }

    /// No option under a point: a touch opens the list.
    open override func optionIndex(at point: Point) -> Int? { nil }

    /// Remembers whether a finger or the pointer touched.
    open override func touchesBegan(_ touches: [Touch], with event: InputEvent) -> Bool {
        if let t = touches.first { if case .finger = t.source { activatedByFinger = true } else { activatedByFinger = false } }
        return super.touchesBegan(touches, with: event)
    }

    /// Enter and Space open the list (as a popover).
    open override func keyDown(_ key: KeyInput) -> Bool {
        if isEnabled, key.key == .enter || key.key == .space { activatedByFinger = false }
        return super.keyDown(key)
    }

    /// Opens the list: a popover under the control, or a bottom sheet after a finger's tap.
    /// Main thread.
    open override func performPrimaryAction() {
        guard presentedList == nil, let presenter = presentingController else { return }
        let theme = effectiveTheme
        let sheet = activatedByFinger
        let list = OptionListNode(options: options, selectedIndex: selectedIndex, disabledOptions: disabledOptions)
        list.theme = theme
        let card = DisplayNode()
        card.name = "dropdown-list"
        card.theme = theme
        card.backgroundColor = theme.colors.surface
        card.addSubnode(list)
        let insets: EdgeInsets
        if sheet {
            card.cornerRadius = 0
            insets = EdgeInsets(top: 12, left: 24, bottom: 12, right: 24)
        } else {
            card.cornerRadius = theme.cornerRadii.control
            card.borderColor = theme.colors.border
            card.borderWidth = 1
            card.boxShadow = Shadow(color: Color(white: 0, alpha: 0.22), offset: Point(x: 0, y: 4), blurRadius: 12)
            insets = EdgeInsets(top: 4, left: 0, bottom: 4, right: 0)
        }
        card.layoutSpecBlock = { _, _ in InsetLayoutSpec(insets: insets, child: list) }
        let controller = PickerListController(node: card)
        controller.list = list
        controller.onClose = { [weak self] in self?.listDidClose() }
        // `controller` weakly: the list holds this closure, the controller holds the list.
        list.picked = { [weak self, weak controller] index in
            guard let self else { return }
            _ = controller?.dismiss()
            self.listDidClose()
            self.choose(index)
        }
        let style: ModalStyle = sheet ? .sheet : .popover(anchor: convertToWindow(bounds))
        if presenter.present(controller, style: style) {
            presentedList = controller
            setAccessibilityStates(.expanded, true)
        }
    }

    /// Forgets a list that is no longer shown. Main thread.
    func listDidClose() {
        presentedList = nil
        setAccessibilityStates(.expanded, false)
    }

    /// The text shown while nothing is selected. Any thread.
    public var placeholder: String {
        get { lock.withLock { _placeholder } }
        set { lock.withLock { _placeholder = newValue }; appearanceDidChange() }
    }

    /// As wide as the widest option plus the chevron, the theme's control height.
    open override func calculateSizeThatFits(_ constrainedSize: Size) -> Size {
        let t = measuringTheme()
        let widest = (options + [placeholder]).map { ControlDrawing.measureLine($0, t.bodyText()).width }.max() ?? 0
        let w = widest + 2 * Theme.metric(t.metrics.padding, 14) + 24
        return Size(width: constrainedSize.width.isFinite ? min(w, constrainedSize.width) : w,
                    height: Theme.metric(t.metrics.controlHeight, 40))
    }

    struct Appearance: Hashable, Sendable {
        var text: String
        var attributes: TextAttributes
        var surface: Color, border: Color, chevron: Color
        var overlay: Color?
        var radius: Double, padding: Double
    }

    /// The selected title (or the placeholder) and the theme's colours for the state.
    open override func appearance(theme t: Theme) -> any Hashable & Sendable {
        let s = state, disabled = s.contains(.disabled)
        let title = selectedIndex.map { options[$0] }
        let color = disabled ? t.disabled(t.colors.text) : (title == nil ? t.colors.secondaryText : t.colors.text)
        return Appearance(text: title ?? placeholder, attributes: t.bodyText(color: color), surface: t.colors.surface,
                          border: disabled ? t.disabled(t.colors.border) : t.colors.border,
                          chevron: disabled ? t.disabled(t.colors.secondaryText) : t.colors.secondaryText,
                          overlay: s.contains(.highlighted) ? t.colors.pressedOverlay : nil,
                          radius: t.cornerRadii.control, padding: Theme.metric(t.metrics.padding, 14))
    }

    /// Draws the box, the title and the chevron.
    open override class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {
        guard let a = parameters as? Appearance else { return }
        let c = context.canvas, b = context.bounds
        var box = Path()
        box.addRoundedRect(b.insetBy(dx: 0.5, dy: 0.5), cornerRadius: a.radius)
        c.fill(box, with: .color(a.surface))
        if let o = a.overlay { c.fill(box, with: .color(o)) }
        c.stroke(box, style: StrokeStyle(lineWidth: 1), with: .color(a.border))
        ControlDrawing.drawLine(a.text, a.attributes, in: Rect(x: a.padding, y: 0, width: b.width - 2 * a.padding - 20, height: b.height),
                                alignment: -1, canvas: c)
        var chevron = Path()
        let cx = b.maxX - a.padding - 6, cy = b.midY
        chevron.move(to: Point(x: cx - 5, y: cy - 2.5))
        chevron.addLine(to: Point(x: cx, y: cy + 2.5))
        chevron.addLine(to: Point(x: cx + 5, y: cy - 2.5))
        c.stroke(chevron, style: StrokeStyle(lineWidth: 2, lineCap: .round, lineJoin: .round), with: .color(a.chevron))
    }

    /// A focus ring with the box's corners.
    open override func layoutDidFinish() {
        super.layoutDidFinish()
        cornerRadius = effectiveTheme.cornerRadii.control
    }
}

/// The dropdown's list, presented as a popover or a sheet: tells the dropdown when it is gone
/// (chosen, Escape, a tap outside). Main thread.
final class PickerListController: NodeController, @unchecked Sendable {
    var list: OptionListNode?
    var onClose: (@Sendable () -> Void)?

    /// The rows take the focus (and the arrow keys) while the list is open.
    override var preferredFocusedNode: DisplayNode? { list }

    override func didDisappear(animated: Bool) {
        super.didDisappear(animated: animated)
        onClose?()
    }
}

/// The rows of an open dropdown: one title per option, the selected one with a checkmark, the
/// highlighted one (the keyboard's place) tinted with the accent. Up and Down move the
/// highlight (stopping at the ends, skipping disabled options), Home and End jump; Enter, Space
/// or a tap on a row picks it (`picked`, even when it is the selected one: that closes the
/// list). Main thread for input; any thread for reading.
final class OptionListNode: ThemedControlNode, @unchecked Sendable {
    let options: [String]
    let selectedIndex: Int?
    let disabledOptions: Set<Int>
    private var _highlightedIndex: Int?
    /// The row under the tracked touch (main thread).
    private var touchedIndex: Int?
    /// Called with the picked row (main thread).
    var picked: (@Sendable (Int) -> Void)?

    init(options: [String], selectedIndex: Int?, disabledOptions: Set<Int>) {
        self.options = options
        self.selectedIndex = selectedIndex.flatMap { options.indices.contains($0) ? $0 : nil }
        self.disabledOptions = disabledOptions
        super.init()
        name = "dropdown-rows"
        _highlightedIndex = self.selectedIndex.flatMap { disabledOptions.contains($0) ? nil : $0 } ?? enabledIndices.first
        accessibilityRole = .list
        updateAccessibility()
    }

    private var enabledIndices: [Int] { options.indices.filter { !disabledOptions.contains($0) } }

    /// The row Enter picks (nil: no enabled option). Main thread to set.
    var highlightedIndex: Int? {
        get { lock.withLock { _highlightedIndex } }
        set {
            lock.withLock { _highlightedIndex = newValue.flatMap { options.indices.contains($0) && !disabledOptions.contains($0) ? $0 : nil } }
            appearanceDidChange()
        }
    }

    /// The highlighted row's title as the value.
    override func updateAccessibility() {
        setDefaultAccessibilityValue(highlightedIndex.map { options[$0] })
    }

    func rowHeight(_ t: Theme) -> Double { Theme.metric(t.metrics.controlHeight, 40) }

    /// The row at `point` (node coordinates), nil outside the rows.
    func row(at point: Point) -> Int? {
        let h = rowHeight(effectiveTheme)
        guard h > 0, point.y >= 0, point.x >= 0, point.x <= bounds.width else { return nil }
        let i = Int(point.y / h)
        return options.indices.contains(i) ? i : nil
    }

    /// As wide as the widest title with padding and the checkmark, a row per option.
    override func calculateSizeThatFits(_ constrainedSize: Size) -> Size {
        let t = measuringTheme()
        let widest = options.map { ControlDrawing.measureLine($0, t.bodyText(weight: t.fonts.emphasisWeight)).width }.max() ?? 0
        let w = widest + 2 * Theme.metric(t.metrics.padding, 14) + 28
        return Size(width: constrainedSize.width.isFinite ? min(w, constrainedSize.width) : w,
                    height: rowHeight(t) * Double(options.count))
    }

    /// No ring around the rows: the highlighted row shows where the keyboard is.
    override func didBecomeFocused() {
        super.didBecomeFocused()
        if showsFocusRing { showsFocusRing = false; markDirty() }
    }

    override func touchesBegan(_ touches: [Touch], with event: InputEvent) -> Bool {
        touchedIndex = touches.first.flatMap { row(at: $0.location(in: self)) }
        if let i = touchedIndex, !disabledOptions.contains(i) { highlightedIndex = i }
        return super.touchesBegan(touches, with: event)
    }

    override func touchesEnded(_ touches: [Touch], with event: InputEvent) {
        if let t = touches.first, touchedIndex != row(at: t.location(in: self)) { touchedIndex = nil }
        super.touchesEnded(touches, with: event)
        touchedIndex = nil
    }

    override func touchesCancelled(_ touches: [Touch], with event: InputEvent?) {
        touchedIndex = nil
        super.touchesCancelled(touches, with: event)
    }

    /// A touch lifted on a row picks it; Enter or Space the highlighted row.
    override func performPrimaryAction() {
        guard let i = touchedIndex ?? highlightedIndex, !disabledOptions.contains(i) else { return }
        picked?(i)
    }

    override func keyDown(_ key: KeyInput) -> Bool {
        guard isEnabled else { return false }
        let enabled = enabledIndices
        guard !enabled.isEmpty else { return super.keyDown(key) }
        let current = highlightedIndex.flatMap { enabled.firstIndex(of: $0) }
        switch key.key {
        case .up: highlightedIndex = enabled[max(0, (current ?? 0) - 1)]
        case .down: highlightedIndex = enabled[current.map { min(enabled.count - 1, $0 + 1) } ?? 0]
        case .home: highlightedIndex = enabled[0]
        case .end: highlightedIndex = enabled[enabled.count - 1]
        default: return super.keyDown(key)
        }
        return true
    }

    struct Row: Hashable, Sendable {
        var title: String
        var selected: Bool, highlighted: Bool, pressed: Bool, disabled: Bool
    }

    struct Appearance: Hashable, Sendable {
        var rows: [Row]
        var text: TextAttributes, selectedText: TextAttributes, disabledText: TextAttributes
        var highlight: Color, overlay: Color, check: Color
        var rowHeight: Double, padding: Double
    }

    override func appearance(theme t: Theme) -> any Hashable & Sendable {
        let highlighted = highlightedIndex
        let pressed = state.contains(.highlighted) ? touchedIndex : nil
        let rows = options.indices.map { i in
            Row(title: options[i], selected: i == selectedIndex, highlighted: i == highlighted, pressed: i == pressed,
                disabled: disabledOptions.contains(i))
        }
        return Appearance(rows: rows, text: t.bodyText(), selectedText: t.bodyText(color: t.colors.accent, weight: t.fonts.emphasisWeight),
                          disabledText: t.bodyText(color: t.disabled(t.colors.text)), highlight: t.colors.accent.withAlpha(0.16),
                          overlay: t.colors.pressedOverlay, check: t.colors.accent, rowHeight: rowHeight(t),
                          padding: Theme.metric(t.metrics.padding, 14))
    }

    /// Draws each row: its tint, its title and, on the selected one, a checkmark at the end.
    override class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {
        guard let a = parameters as? Appearance else { return }
        let c = context.canvas, b = context.bounds
        for (i, r) in a.rows.enumerated() {
            let row = Rect(x: b.minX, y: Double(i) * a.rowHeight, width: b.width, height: a.rowHeight)
            guard row.minY < b.maxY else { break }
            if r.highlighted { c.fill(row, with: .color(a.highlight)) }
            if r.pressed { c.fill(row, with: .color(a.overlay)) }
            let attrs = r.disabled ? a.disabledText : (r.selected ? a.selectedText : a.text)
            ControlDrawing.drawLine(r.title, attrs, in: Rect(x: row.minX + a.padding, y: row.minY, width: row.width - 2 * a.padding - 24,
                                                             height: row.height), alignment: -1, canvas: c)
            if r.selected {
                let box = Rect(x: row.maxX - a.padding - 16, y: row.midY - 8, width: 16, height: 16)
                c.stroke(ControlDrawing.checkmark(in: box), style: ControlDrawing.markStroke, with: .color(a.check))
            }
        }
    }
}
