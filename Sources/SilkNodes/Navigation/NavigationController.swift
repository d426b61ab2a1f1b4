import Foundation
import SilkGeometry
import SilkRender

/// A stack of screens (Texture's `ASNavigationController`, Qt Quick's StackView): `push`,
/// `pop`, `popToRoot` and `replace`, each with an animated transition (`SlideTransition` by
/// default, `.fade`, `.instant`, or your own `TransitionAnimator`). Only the top screen is shown;
/// the screens under it are hidden and release their contents (see `NodeController`).
///
/// **Back.** Escape and the Back key pop (through `handleBack()`), and on touch screens a drag
/// that starts within `edgeSwipeWidth` of the left edge drags the top screen off: released past
/// half the width (or flicked right) it pops, otherwise it slides back and nothing changes.
///
/// **Interruptions.** A change while a transition runs first finishes the running one at once —
/// every screen in its resting place, appearance calls delivered — then starts; a back swipe in
/// progress is cancelled first. No sequence of calls leaves a screen half-placed.
///
/// **Bad requests** are refused without a crash: `pop()` with only the root left does nothing
/// and returns nil; pushing a controller already on the stack, or replacing with an empty
/// list, logs the refusal and changes nothing.
///
/// Main thread only (see `NodeController`).
public final class NavigationController: NodeController, @unchecked Sendable {
    /// The stack, root first; the last one is on screen. Main thread.
    public private(set) var controllers: [NodeController]
    /// The screen on top. Main thread.
    public var topController: NodeController { controllers[controllers.count - 1] }
    /// The transition used when an operation names none (default `SlideTransition()`). Main
    /// thread.
    public var defaultTransition: any TransitionAnimator = SlideTransition()
    /// Width in points of the strip along the left edge where a drag starts a back swipe (default
    /// 24; 0 turns the swipe off). Main thread.
    public var edgeSwipeWidth: Double = 24
    /// How transitions wait for their end (the main loop's timers; tests pass their own). Main
    /// thread.
    public var timer: TransitionTimer {
        get { runner.timer }
        set { runner.timer = newValue }
    }
    /// Whether a transition is animating or a back swipe is in progress. Main thread.
    public var isTransitioning: Bool { runner.isRunning || swipe != nil }

    let container = ScreenContainerNode()
    private let runner = TransitionRunner(timer: .mainLoop)
    private var swipe: (from: NodeController, to: NodeController)?

    /// A stack holding `root`. Main thread.
    public init(root: NodeController) {
        controllers = [root]
        super.init(node: container)
        container.name = "navigation"
        container.owner = self
        adopt(root)
        container.add(root.node, shown: true)
        container.addGestureRecognizer(EdgeSwipeRecognizer(navigation: self))
    }

    /// The top screen receives this controller's appearance calls.
    public override var visibleChildren: [NodeController] { [topController] }

    /// Pushes `controller` on top with `transition` (default: `defaultTransition`). Refused (logged)
    /// when the controller is already on this stack. Main thread.
    public func push(_ controller: NodeController, transition: (any TransitionAnimator)? = nil) {
        guard !controllers.contains(where: { $0 === controller }) else {
            logger.error("push \(controller): already on the navigation stack; ignored")
            return
        }
        finishTransitions()
        let from = topController
        controllers.append(controller)
        adopt(controller)
        container.add(controller.node, shown: true)
        perform(.push, from: from, to: controller, removing: [], transition: transition)
    }

    /// Pops the top screen and returns it; with only the root left, does nothing and returns nil
    /// (documented no-op, never an error). Main thread.
    @discardableResult
    public func pop(transition: (any TransitionAnimator)? = nil) -> NodeController? {
        finishTransitions()
        guard controllers.count > 1 else { return nil }
        let from = controllers.removeLast()
        let to = topController
        container.setShown(to.node, true)
        perform(.pop, from: from, to: to, removing: [from], transition: transition)
        return from
    }

    /// Pops every screen above the root and returns them (empty when only the root is left). The
    /// screens between are removed at once; the transition runs between the top and the root.
    /// Main thread.
    @discardableResult
    public func popToRoot(transition: (any TransitionAnimator)? = nil) -> [NodeController] {
        finishTransitions()
        guard controllers.count > 1 else { return [] }
        let removed = Array(controllers.dropFirst())
        let from = topController
        controllers = [controllers[0]]
        for c in removed.dropLast() { container.remove(c.node); release(c) }
        container.setShown(controllers[0].node, true)
        perform(.pop, from: from, to: controllers[0], removing: [from], transition: transition)
        return removed
    }

    /// Replaces the whole stack with `newControllers` (UIKit's `setViewControllers`): the new top
    /// arrives with a push transition, or a pop one when it was already on the stack below the
    /// top. Refused (logged) when the list is empty or holds a controller twice. Main thread.
    public func replace(with newControllers: [NodeController], transition: (any TransitionAnimator)? = nil) {
        guard let newTop = newControllers.last else {
            logger.error("replace: a navigation stack needs at least one screen; ignored")
            return
        }
        guard Set(newControllers.map(ObjectIdentifier.init)).count == newControllers.count else {
            logger.error("replace: a controller appears twice in the new stack; ignored")
            return
        }
        finishTransitions()
        let from = topController
        let old = controllers
        let isPop = old.dropLast().contains { $0 === newTop }
        controllers = newControllers
        for c in old where !newControllers.contains(where: { $0 === c }) && c !== from {
            container.remove(c.node)
            release(c)
        }
        for c in newControllers where c.parent !== self || c.node.supernode !== container {
            adopt(c)
            container.add(c.node, shown: false)
        }
        if newTop === from { return }
        if isPop { container.moveSubnode(from.node, to: Int.max) }
        container.setShown(newTop.node, true)
        let fromStays = newControllers.contains { $0 === from }
        perform(isPop ? .pop : .push, from: from, to: newTop, removing: fromStays ? [] : [from], transition: transition)
    }

    /// Pops when there is something to pop, after offering Back to the top screen. Main thread.
    public override func handleBack() -> Bool {
        if topController.handleBack() { return true }
        return pop() != nil
    }

    // MARK: Transitions

    private func finishTransitions() {
        if swipe != nil { endSwipe(completing: false, velocity: 0, animated: false) }
        runner.finishNow()
    }

    /// Runs one change: appearance calls start, the animator moves the screens, and at the end
    /// (or an interruption) every screen is put at rest: `to` shown at offset zero, `from`
    /// hidden or removed, and the appearance calls end.
    private func perform(_ operation: TransitionContext.Operation, from: NodeController, to: NodeController,
                         removing: [NodeController], transition: (any TransitionAnimator)?) {
        let animator = transition ?? defaultTransition
        let duration = TransitionRunner.clamp(animator.duration)
        let forwards = appearanceState != .disappeared
        if forwards {
            from.beginAppearanceTransition(false, animated: duration > 0)
            to.beginAppearanceTransition(true, animated: duration > 0)
        }
        if operation == .pop, removing.contains(where: { $0 === from }) {
            // The leaving screen stays on top while it slides away.
            container.moveSubnode(from.node, to: Int.max)
        }
        container.isUserInteractionEnabled = duration == 0
        let context = TransitionContext(operation: operation, from: from, to: to, duration: duration, container: container)
        runner.run(animator, context: context) { [weak self] in
            guard let self else { return }
            self.settle(from: from, to: to, removing: removing)
            if forwards {
                from.endAppearanceTransition(animated: duration > 0)
                to.endAppearanceTransition(animated: duration > 0)
            }
        }
    }

    /// Puts every screen at rest after a change.
    private func settle(from: NodeController, to: NodeController, removing: [NodeController]) {
        for c in removing {
            container.remove(c.node)
            c.node.opacity = 1
            container.setOffset(c.node, .zero)
            release(c)
        }
        for c in controllers {
            let isTop = c === topController
            container.setOffset(c.node, .zero)
            c.node.opacity = 1
            container.setShown(c.node, isTop)
        }
        container.isUserInteractionEnabled = true
    }

    // MARK: Back swipe (main thread, from EdgeSwipeRecognizer)

    /// Whether a back swipe may start at `x` (container coordinates).
    func canBeginSwipe(at x: Double) -> Bool {
        edgeSwipeWidth > 0 && x <= edgeSwipeWidth && controllers.count > 1 && !runner.isRunning && swipe == nil
    }

    /// The finger crossed the slop: the screen below appears under the top one.
    func beginSwipe() {
        guard controllers.count > 1, swipe == nil else { return }
        runner.finishNow()
        let from = topController, to = controllers[controllers.count - 2]
        swipe = (from, to)
        if appearanceState != .disappeared {
            from.beginAppearanceTransition(false, animated: true)
            to.beginAppearanceTransition(true, animated: true)
        }
        container.isUserInteractionEnabled = false
        container.setShown(to.node, true)
        updateSwipe(progress: 0)
    }

    /// The top screen follows the finger: `progress` 0 (at rest) … 1 (off the right edge).
    func updateSwipe(progress: Double) {
        guard let (from, to) = swipe else { return }
        let p = min(1, max(0, progress.isFinite ? progress : 0))
        let w = container.bounds.width
        container.setOffset(from.node, Point(x: w * p, y: 0))
        container.setOffset(to.node, Point(x: -w / 3 * (1 - p), y: 0))
    }

    /// The finger lifted (or the touch was cancelled): finish the pop, or slide back and undo it.
    func endSwipe(completing: Bool, velocity: Double, animated: Bool = true) {
        guard let (from, to) = swipe else { return }
        swipe = nil
        let w = max(1, container.bounds.width)
        let p = min(1, max(0, container.offset(of: from.node).x / w))
        let forwards = appearanceState != .disappeared
        let duration = animated ? TransitionRunner.clamp(0.3 * (completing ? 1 - p : p)) : 0
        let context = TransitionContext(operation: .pop, from: from, to: to, duration: duration, container: container)
        let animator = SwipeSettleAnimator(duration: duration, completing: completing)
        if completing {
            controllers.removeLast()
            runner.run(animator, context: context) { [weak self] in
                guard let self else { return }
                self.settle(from: from, to: to, removing: [from])
                if forwards { from.endAppearanceTransition(); to.endAppearanceTransition() }
            }
        } else {
            // Undo: the top screen appears again, the one below disappears again.
            if forwards {
                to.beginAppearanceTransition(false, animated: animated)
                from.beginAppearanceTransition(true, animated: animated)
            }
            runner.run(animator, context: context) { [weak self] in
                guard let self else { return }
                self.settle(from: to, to: from, removing: [])
                if forwards { to.endAppearanceTransition(); from.endAppearanceTransition() }
            }
        }
        _ = velocity
    }
}

/// Slides both screens of a back swipe from where the finger left them to their end places.
private struct SwipeSettleAnimator: TransitionAnimator {
    let duration: Double
    let completing: Bool
    func animateTransition(_ context: TransitionContext) {
        guard let from = context.from, let to = context.to else { return }
        let w = context.containerSize.width
        let fromNow = context.container.offset(of: from.node), toNow = context.container.offset(of: to.node)
        context.move(from.node, from: fromNow, to: completing ? Point(x: w, y: 0) : .zero)
        context.move(to.node, from: toNow, to: completing ? .zero : Point(x: -w / 3, y: 0))
    }
}

/// Recognizes a drag from the left edge of a navigation container and drives its back swipe.
final class EdgeSwipeRecognizer: GestureRecognizer, @unchecked Sendable {
    private weak var navigation: NavigationController?
    /// Points the finger must travel right before the swipe takes over.
    static let slop = 10.0
    private var lastX = 0.0, lastTime = 0.0, velocity = 0.0

    init(navigation: NavigationController) {
        self.navigation = navigation
        super.init()
    }

    override func touchBegan(_ touch: Touch) {
        guard touches.count == 1, let nav = navigation else { fail(); return }
        let p = touch.location(in: nav.container)
        if !nav.canBeginSwipe(at: p.x) { fail() }
        lastX = p.x; lastTime = touch.timestamp; velocity = 0
    }

    override func touchMoved(_ touch: Touch) {
        guard let nav = navigation, touch.source == touches.first?.source else { return }
        let p = touch.location(in: nav.container), start = touch.startLocation
        let startX = nav.container.convert(start, from: nil).x
        if state == .possible {
            let dx = touch.location.x - start.x, dy = touch.location.y - start.y
            if dx > Self.slop && dx > abs(dy) {
                recognize()
                nav.beginSwipe()
            } else if abs(dy) > Self.slop || dx < -Self.slop {
                fail()
                return
            }
        }
        guard state == .recognized else { return }
        let dt = touch.timestamp - lastTime
        if dt > 0 { velocity = (p.x - lastX) / dt }
        lastX = p.x; lastTime = touch.timestamp
        nav.updateSwipe(progress: (p.x - startX) / max(1, nav.container.bounds.width))
    }

    override func touchEnded(_ touch: Touch) {
        guard state == .recognized, let nav = navigation else { fail(); return }
        let progress = nav.container.offset(of: nav.topController.node).x / max(1, nav.container.bounds.width)
        nav.endSwipe(completing: progress > 0.5 || velocity > 600, velocity: velocity)
    }

    override func touchCancelled(_ touch: Touch) {
        if state == .recognized { navigation?.endSwipe(completing: false, velocity: 0) }
        fail()
    }
}
