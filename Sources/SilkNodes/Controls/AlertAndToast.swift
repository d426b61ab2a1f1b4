import Foundation
import SilkGeometry
import SilkLayout
import SilkRaster
import SilkRender

/// One button of an alert: its title, its style and what it does.
public struct AlertAction: Sendable {
    /// How the button looks and which key chooses it.
    public enum Style: Hashable, Sendable {
        /// The accent-filled button; Enter chooses the first one.
        case `default`
        /// An outlined button; Escape (and a tap outside) chooses it.
        case cancel
        /// A button in the theme's danger colour.
        case destructive
    }
    /// The button's title.
    public var title: String
    /// Its style.
    public var style: Style
    /// Runs on the main thread after the alert is dismissed.
    public var handler: (@Sendable () -> Void)?

    /// An action titled `title`.
    public init(_ title: String, style: Style = .default, handler: (@Sendable () -> Void)? = nil) {
        self.title = title; self.style = style; self.handler = handler
    }
}

/// An alert or confirm dialog: a title, a message and one to three buttons on a themed card,
/// presented as a `.dialog` modal by the window's `RootController` (dimmed backdrop, fade).
///
/// ```swift
/// let confirm = AlertController(title: "Delete photo?", message: "This cannot be undone.",
///                               actions: [AlertAction("Cancel", style: .cancel),
///                                         AlertAction("Delete", style: .destructive) { delete() }])
/// screen.present(confirm)
/// ```
///
/// A button tap dismisses the alert and then runs its handler. Escape, the Back key and a tap on
/// the backdrop choose the `.cancel` action (and only dismiss when there is none).
///
/// Keyboard: the alert traps the focus while shown (`RootController`). It starts on the first
/// `.default` button (else the `.cancel` one, else the first), so Enter chooses it; Tab and
/// Shift-Tab cycle through the buttons only, Enter or Space activates the focused one, and the
/// focus returns to where it was when the alert is gone. Main thread.
public final class AlertController: NodeController, @unchecked Sendable {
    /// The card.
    public let alertNode: AlertNode

    /// An alert with `title`, `message` and `actions` (none: one "OK"). Main thread.
    public init(title: String, message: String, actions: [AlertAction] = []) {
        alertNode = AlertNode(title: title, message: message, actions: actions.isEmpty ? [AlertAction("OK")] : actions)
        super.init(node: alertNode)
        alertNode.choose = { [weak self] action in self?.finish(with: action) }
    }

    /// The first `.default` action's button, else the `.cancel` one (a destructive confirm
    /// starts on the safe choice), else the first: the focus goes there when the alert is
    /// presented, so Enter chooses it.
    public override var preferredFocusedNode: DisplayNode? {
        let a = alertNode.actions
        let i = a.firstIndex { $0.style == .default } ?? a.firstIndex { $0.style == .cancel } ?? 0
        return alertNode.buttons.indices.contains(i) ? alertNode.buttons[i] : nil
    }

    /// Escape and Back choose the cancel action.
    public override func handleBack() -> Bool {
        finish(with: alertNode.actions.first { $0.style == .cancel })
        return true
    }

    /// A tap on the backdrop chooses the cancel action, like Escape; an alert without one is
    /// simply dismissed.
    public override func handleTapOutside() -> Bool {
        guard let cancel = alertNode.actions.first(where: { $0.style == .cancel }) else { return false }
        finish(with: cancel)
        return true
    }

    private func finish(with action: AlertAction?) {
        _ = dismiss()
        action?.handler?()
    }
}

/// The alert's card (see `AlertController`): themed, with one `ButtonNode` per action. Any
/// thread for reading; it is driven by its controller on the main thread.
public final class AlertNode: DisplayNode, ThemeObserver, @unchecked Sendable {
    /// The actions, in button order.
    public let actions: [AlertAction]
    /// The buttons, one per action.
    public let buttons: [ButtonNode]
    let titleNode = TextNode()
    let messageNode = TextNode()
    private let titleText: String, messageText: String
    /// Called with the chosen action (main thread).
    var choose: (@Sendable (AlertAction) -> Void)?

    init(title: String, message: String, actions: [AlertAction]) {
        self.actions = actions
        titleText = title
        messageText = message
        buttons = actions.map { _ in ButtonNode() }
        super.init()
        name = "alert"
        isAccessibilityElement = true
        accessibilityRole = .alert
        accessibilityLabel = title
        accessibilityValue = message
        for (b, a) in zip(buttons, actions) {
            b.accessibilityLabel = a.title
            b.contentEdgeInsets = EdgeInsets(top: 10, left: 18, bottom: 10, right: 18)
            b.addTarget(for: .primaryActionTriggered) { [weak self] _, _ in self?.choose?(a) }
        }
        titleNode.style.maxWidth = .points(372)
        messageNode.style.maxWidth = .points(372)
        automaticallyManagesSubnodes = true
        applyTheme()
    }

    /// Restyles for the theme of the tree it was presented in.
    public override func didEnterHierarchy() { applyTheme() }
    /// Restyles for the new theme.
    public func effectiveThemeDidChange() { applyTheme() }

    private func applyTheme() {
        let t = effectiveTheme
        backgroundColor = t.colors.surface
        cornerRadius = t.cornerRadii.large
        boxShadow = Shadow(color: Color(white: 0, alpha: 0.3), offset: Point(x: 0, y: 6), blurRadius: 18)
        titleNode.attributedText = AttributedText(titleText, attributes: t.titleText())
        messageNode.attributedText = AttributedText(messageText, attributes: t.bodyText(color: t.colors.secondaryText))
        for (b, a) in zip(buttons, actions) {
            let fill: Color?, text: Color
            switch a.style {
            case .default: fill = t.colors.accent; text = t.colors.onAccent
            case .destructive: fill = t.colors.danger; text = .white
            case .cancel: fill = nil; text = t.colors.text
            }
            b.setTitle(a.title, attributes: t.bodyText(color: text, weight: t.fonts.emphasisWeight))
            b.setBackgroundColor(fill ?? t.colors.surface, for: .normal)
            b.setBackgroundColor((fill ?? t.colors.surface).mixed(with: t.colors.text, 0.15), for: .highlighted)
            b.cornerRadius = t.cornerRadii.control
            b.borderColor = fill == nil ? t.colors.border : nil
            b.borderWidth = fill == nil ? 1 : 0
        }
    }

    /// Enter chooses the first default action.
    public override func keyDown(_ key: KeyInput) -> Bool {
        guard key.key == .enter, !key.isRepeat, let a = actions.first(where: { $0.style == .default }) else { return false }
        choose?(a)
        return true
    }

    /// Title, message and a right-aligned row of buttons, 24 points inside the card, at most
    /// 420 points wide.
    public override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        let row = StackLayoutSpec(direction: .horizontal, spacing: 10, justifyContent: .end, alignItems: .center,
                                  children: buttons.map { $0 as any LayoutElement })
        let column = StackLayoutSpec(direction: .vertical, spacing: 12, alignItems: .stretch,
                                     children: [titleNode, messageNode, InsetLayoutSpec(insets: EdgeInsets(top: 8, left: 0, bottom: 0, right: 0), child: row)])
        return InsetLayoutSpec(insets: EdgeInsets(top: 24, left: 24, bottom: 20, right: 24), child: column)
    }
}

/// A toast: a short message in a pill near the bottom of a container, which slides in, stays
/// `duration` seconds and fades out, then removes itself. It takes no touches and no focus.
///
/// `ToastNode.show("Saved", in: screen)` places it; the animations run on the render thread's
/// clock (a transform slide in, an opacity fade after the delay), and the removal happens on the
/// main loop when the fade ends. Themed by the container's theme (the text colour as its
/// background, the background as its text: the inverse of the screen). The container must not
/// set `automaticallyManagesSubnodes` (its layout would remove the toast, which is in no spec).
/// Any thread.
public final class ToastNode: DisplayNode, @unchecked Sendable {
    /// The message.
    public let message: String

    /// A toast with `message` (shown with `show(in:duration:)`). Any thread.
    public init(message: String) {
        self.message = message
        super.init()
        isUserInteractionEnabled = false
        isAccessibilityElement = true
        accessibilityRole = .notification
        accessibilityLabel = message
    }

    /// Shows `message` in a toast at the bottom centre of `container` (its current bounds) for
    /// `duration` seconds (clamped to 0.5…60; NaN: 2.5), and returns the toast. Any thread.
    @discardableResult
    public static func show(_ message: String, in container: DisplayNode, duration: Double = 2.5) -> ToastNode {
        let toast = ToastNode(message: message)
        container.addSubnode(toast)
        let t = toast.effectiveTheme
        let attrs = t.bodyText(color: t.colors.background)
        let size = ControlDrawing.measureLine(message, attrs)
        let b = container.bounds
        let w = min(size.width + 40, max(80, b.width - 32)), h = size.height + 20
        toast.frame = Rect(x: ((b.width - w) / 2).rounded(), y: max(0, b.height - h - 40).rounded(), width: w, height: h)
        toast.cornerRadius = h / 2
        toast.backgroundColor = t.colors.text.withAlpha(0.92)
        let label = TextNode(AttributedText(message, attributes: attrs))
        label.maximumNumberOfLines = 1
        label.frame = Rect(x: 20, y: 10, width: w - 40, height: size.height)
        label.isUserInteractionEnabled = false
        toast.addSubnode(label)
        let stay = duration.isNaN ? 2.5 : min(60, max(0.5, duration))
        toast.addAnimation(LayerAnimation(property: .transform(from: AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 24), to: nil),
                                          duration: 0.25))
        toast.addAnimation(LayerAnimation(property: .opacity(from: 1, to: 0), duration: 0.3, timing: .easeIn, delay: stay,
                                          isRemovedOnCompletion: false) { [weak toast] _ in toast?.removeFromSupernode() })
        return toast
    }
}
