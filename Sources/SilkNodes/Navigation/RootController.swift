import Foundation
import SilkGeometry
import SilkInput

/// The window's root controller: it shows the app's content controller (a navigation stack, tabs,
/// a single screen) and presents modal controllers over it — a centred `dialog` or a bottom
/// `sheet` over a dimmed backdrop, or a `popover` anchored under a control over a clear one. A
/// tap on the backdrop, Escape or the Back key dismisses the top modal (unless its
/// `handleTapOutside()` takes the tap or its `handleBack()` the key first, or `dismissesOnTapOutside` is false for taps). The
/// content stays shown under a modal (it keeps its contents and appearance).
///
/// **Focus.** A presented modal traps keyboard focus (`DisplayNode.trapsFocus`): the focus moves
/// to its `preferredFocusedNode` (or its first focusable node), Tab and Shift-Tab cycle inside
/// it, and when it is dismissed the focus returns to the node that had it before (if that node
/// is still in the window), with its focus ring as it was.
///
/// Show it with `Window.setRootController(_:)`, which also delivers its appearance calls.
///
/// Main thread only (see `NodeController`).
public final class RootController: NodeController, @unchecked Sendable {
    /// The controller shown full-window under the modals. Main thread.
    public let content: NodeController
    /// The modal controllers shown, bottom first. Main thread.
    public var presentedControllers: [NodeController] { modals.map(\.controller) }
    /// The transition `present` and `dismiss` use when they name none (default
    /// `SlideTransition()`: a sheet slides up, a dialog… see `ModalStyle`; backdrops fade). Main
    /// thread.
    public var defaultTransition: any TransitionAnimator = SlideTransition()
    /// Whether a tap on the backdrop dismisses the top modal (default true). Main thread.
    public var dismissesOnTapOutside = true
    /// How transitions wait for their end (the main loop's timers; tests pass their own). Main
    /// thread.
    public var timer: TransitionTimer {
        get { runner.timer }
        set { runner.timer = newValue }
    }

    private struct Modal {
        let controller: NodeController
        let style: ModalStyle
        let backdrop: BackdropNode
        /// The node focused before the modal took the focus, and whether it showed its ring.
        weak var previousFocus: DisplayNode?
        var previousRing: Bool
    }
    private var modals: [Modal] = []
    let container = ScreenContainerNode()
    private let runner = TransitionRunner(timer: .mainLoop)

    /// A root showing `content`. Main thread.
    public init(content: NodeController) {
        self.content = content
        super.init(node: container)
        container.name = "root"
        container.owner = self
        adopt(content)
        container.add(content.node, shown: true)
    }

    /// The content and every modal receive this controller's appearance calls.
    public override var visibleChildren: [NodeController] { [content] + modals.map(\.controller) }

    /// Presents `controller` over everything with `style`, animated by `transition` (default
    /// `defaultTransition`; a dialog with the slide transition fades). Refused (logged, false) when
    /// the controller is already shown somewhere in this tree. A running transition is finished
    /// first. Main thread.
    @discardableResult
    public override func present(_ controller: NodeController, style: ModalStyle = .dialog, transition: (any TransitionAnimator)? = nil) -> Bool {
        guard controller !== self, controller.parent == nil, controller.node.supernode == nil else {
            logger.error("present \(controller): it is already shown (has a parent or a supernode); ignored")
            return false
        }
        runner.finishNow()
        let backdrop = BackdropNode(root: self)
        if case .popover = style { backdrop.backgroundColor = nil }
        let dispatcher = container.inputDispatcher
        let previous = dispatcher?.focusedNode
        modals.append(Modal(controller: controller, style: style, backdrop: backdrop, previousFocus: previous,
                            previousRing: previous?.showsFocusRing ?? false))
        adopt(controller)
        container.add(backdrop, shown: true)
        let placement: ScreenContainerNode.Placement
        switch style {
        case .dialog: placement = .centred
        case .sheet: placement = .bottom
        case let .popover(anchor): placement = .anchored(anchor)
        }
        container.add(controller.node, placement: placement, shown: true)
        controller.node.trapsFocus = true
        if let dispatcher {
            let target = controller.preferredFocusedNode ?? focusChain(in: controller.node).first
            dispatcher.focus(target, showsRing: previous?.showsFocusRing ?? false)
        }
        let animator = modalAnimator(transition, style: style)
        let duration = TransitionRunner.clamp(animator.duration)
        let forwards = appearanceState != .disappeared
        if forwards { controller.beginAppearanceTransition(true, animated: duration > 0) }
        container.isUserInteractionEnabled = duration == 0
        let context = TransitionContext(operation: .present, from: nil, to: controller, duration: duration,
                                        container: container, backdrop: backdrop)
        runner.run(animator, context: context) { [weak self] in
            guard let self else { return }
            self.settle()
            if forwards { controller.endAppearanceTransition(animated: duration > 0) }
        }
        return true
    }

    /// Dismisses the top modal with `transition`; with none presented, does nothing and returns
    /// false. Main thread.
    @discardableResult
    public override func dismiss(transition: (any TransitionAnimator)? = nil) -> Bool {
        guard let top = modals.last else { return false }
        return dismiss(top.controller, transition: transition)
    }

    /// Dismisses `controller` with `transition`. Returns false when it is not presented here.
    /// Main thread.
    @discardableResult
    public func dismiss(_ controller: NodeController, transition: (any TransitionAnimator)? = nil) -> Bool {
        runner.finishNow()
        guard let index = modals.firstIndex(where: { $0.controller === controller }) else { return false }
        let modal = modals.remove(at: index)
        restoreFocus(leaving: modal)
        let animator = modalAnimator(transition, style: modal.style)
        let duration = TransitionRunner.clamp(animator.duration)
        let forwards = modal.controller.appearanceState != .disappeared
        if forwards { modal.controller.beginAppearanceTransition(false, animated: duration > 0) }
        container.isUserInteractionEnabled = duration == 0
        let context = TransitionContext(operation: .dismiss, from: modal.controller, to: nil, duration: duration,
                                        container: container, backdrop: modal.backdrop)
        runner.run(animator, context: context) { [weak self] in
            guard let self else { return }
            self.container.remove(modal.controller.node)
            self.container.remove(modal.backdrop)
            modal.controller.node.opacity = 1
            self.release(modal.controller)
            self.settle()
            if forwards { modal.controller.endAppearanceTransition(animated: duration > 0) }
        }
        return true
    }

    /// Back goes to the top modal, which is dismissed when it does not use it; with no modal, to
    /// the content (a navigation stack pops).
    public override func handleBack() -> Bool {
        if let top = modals.last {
            if top.controller.handleBack() { return true }
            return dismiss(top.controller)
        }
        return content.handleBack()
    }

    /// Gives the focus back to the node that had it before `modal` (when that node is still in
    /// the window), unless it is in another modal still shown (presented over this one).
    private func restoreFocus(leaving modal: Modal) {
        modal.controller.node.trapsFocus = false
        guard let dispatcher = container.inputDispatcher else { return }
        if let f = dispatcher.focusedNode, modals.contains(where: { f.isDescendant(of: $0.controller.node) }) { return }
        let back = modal.previousFocus.flatMap { $0.isDescendant(of: dispatcher.rootNode) ? $0 : nil }
        dispatcher.focus(back, showsRing: modal.previousRing)
    }

    /// A tap on `backdrop` (main thread).
    func backdropTapped(_ backdrop: BackdropNode) {
        guard dismissesOnTapOutside, let top = modals.last, top.backdrop === backdrop else { return }
        if top.controller.handleTapOutside() { return }
        dismiss(top.controller)
    }

    private func modalAnimator(_ transition: (any TransitionAnimator)?, style: ModalStyle) -> any TransitionAnimator {
        let animator = transition ?? defaultTransition
        // The slide is for sheets; a dialog and a popover appear in place.
        if style != .sheet, let slide = animator as? SlideTransition { return FadeTransition(duration: slide.duration * 0.8) }
        return animator
    }

    /// Every screen and backdrop at rest.
    private func settle() {
        for child in container.subnodes {
            container.setOffset(child, .zero)
            child.opacity = 1
            container.setShown(child, true)
        }
        container.isUserInteractionEnabled = true
    }
}

/// The dimmed layer under a modal: takes the touches that would reach the screen behind, and a
/// tap on it dismisses the modal.
final class BackdropNode: DisplayNode, @unchecked Sendable {
    private weak var root: RootController?

    init(root: RootController) {
        self.root = root
        super.init()
        name = "backdrop"
        backgroundColor = Color(white: 0, alpha: 0.45)
    }

    override func touchesBegan(_ touches: [Touch], with event: InputEvent) -> Bool { true }

    override func touchesEnded(_ touches: [Touch], with event: InputEvent) {
        guard let t = touches.first, t.distanceFromStart < 10, pointInside(t.location(in: self)) else { return }
        root?.backdropTapped(self)
    }
}
