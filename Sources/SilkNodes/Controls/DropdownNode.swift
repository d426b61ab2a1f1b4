import Foundation
import SilkGeometry
import SilkInput
import SilkLayout
import SilkRaster

/// A dropdown (picker): shows the selected option and a chevron; activating it presents the
/// options as a list — a centred dialog for the pointer and the keyboard, a bottom sheet for a
/// finger — from `presentingController`. Choosing a row selects it, dismisses the list and sends
/// `.valueChanged`; Escape or a tap outside leaves the selection as it was.
///
/// Without opening the list, the arrow keys step through the options, Home and End go to the
/// ends (as a native select box does). Any thread unless noted.
///
/// Limit: the list is not anchored under the control (a popover): `RootController` places
/// modals centred or along the bottom.
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

    /// Enter and Space open the list (as a dialog).
    open override func keyDown(_ key: KeyInput) -> Bool {
        if isEnabled, key.key == .enter || key.key == .space { activatedByFinger = false }
        return super.keyDown(key)
    }

    /// Opens the list. Main thread.
    open override func performPrimaryAction() {
        guard presentedList == nil, let presenter = presentingController else { return }
        let theme = effectiveTheme
        let list = RadioGroupNode(options: options, selectedIndex: selectedIndex)
        list.disabledOptions = disabledOptions
        list.theme = theme
        let card = DisplayNode()
        card.theme = theme
        card.backgroundColor = theme.colors.surface
        card.cornerRadius = activatedByFinger ? 0 : theme.cornerRadii.large
        card.addSubnode(list)
        card.layoutSpecBlock = { _, _ in InsetLayoutSpec(insets: EdgeInsets(top: 12, left: 24, bottom: 12, right: 24), child: list) }
        let controller = PickerListController(node: card)
        controller.list = list
        controller.onClose = { [weak self] in self?.listDidClose() }
        // `list` weakly: the list keeps its targets, so a strong capture made a cycle that kept
        // every list opened (found by LeakSanitizer).
        list.addTarget(for: .valueChanged) { [weak self, weak controller, weak list] _, _ in
            guard let self, let index = list?.selectedIndex else { return }
            _ = controller?.dismiss()
            self.listDidClose()
            self.choose(index)
        }
        if presenter.present(controller, style: activatedByFinger ? .sheet : .dialog) {
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

/// The dropdown's list, presented as a dialog or a sheet: tells the dropdown when it is gone
/// (chosen, Escape, a tap outside). Main thread.
final class PickerListController: NodeController, @unchecked Sendable {
    var list: RadioGroupNode?
    var onClose: (@Sendable () -> Void)?

    override func didDisappear(animated: Bool) {
        super.didDisappear(animated: animated)
        onClose?()
    }
}
