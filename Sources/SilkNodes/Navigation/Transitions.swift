import Foundation
import SilkGeometry
import SilkRender
import SilkRunLoop

/// What a screen transition animates, handed to a `TransitionAnimator` (Texture's and UIKit's
/// `ASContextTransitioning` / `UIViewControllerContextTransitioning`, reduced to what Silk's
/// layer animations do today: moves and fades).
///
/// The context's two verbs, `move` and `fade`, set a node's **final** value at once and start
/// a layer animation from the given start value, evaluated by the render thread on its frame
/// clock. When the transition ends — after `duration`, or earlier because another transition
/// interrupts it — the container puts every screen in its resting place (shown screens at
/// offset zero and opacity 1, the others hidden), so a screen is never left half-placed. An
/// animator therefore only describes motion; it never has to clean up.
///
/// Main thread only: the container calls `TransitionAnimator.animateTransition` on the main
/// loop, and the context's methods must be called there, during that call.
public final class TransitionContext {
    /// What kind of change this is.
    public enum Operation: String, Hashable, Sendable {
        /// A navigation push: `to` arrives on top of `from`.
        case push
        /// A navigation pop: `from` leaves, uncovering `to`.
        case pop
        /// A modal presentation: `to` arrives over the window (`from` is nil).
        case present
        /// A modal dismissal: `from` leaves (`to` is nil).
        case dismiss
        /// A tab switch.
        case select
    }

    /// The kind of change.
    public let operation: Operation
    /// The screen leaving (or being covered); nil when presenting.
    public let from: NodeController?
    /// The screen arriving (or being uncovered); nil when dismissing.
    public let to: NodeController?
    /// Seconds the transition lasts (clamped to 0…10; 0 runs no animation).
    public let duration: Double
    /// The container's size in points (screens fill it unless modal).
    public var containerSize: Size { container.bounds.size }
    /// The dimmed backdrop behind a modal being presented or dismissed, if any: fade it.
    public let backdrop: DisplayNode?

    let container: ScreenContainerNode
    private(set) var animatedNodes: [DisplayNode] = []

    init(operation: Operation, from: NodeController?, to: NodeController?, duration: Double,
         container: ScreenContainerNode, backdrop: DisplayNode? = nil) {
        self.operation = operation
        self.from = from
        self.to = to
        self.duration = duration
        self.container = container
        self.backdrop = backdrop
    }

    /// Moves `node` (a screen of this transition) from `start` to `end`, offsets from its resting
    /// place in points: the model jumps to `end`, the layer animates from `start` over
    /// `duration` with `timing`. Main thread.
    public func move(_ node: DisplayNode, from start: Point, to end: Point, timing: LayerAnimation.Timing = .easeOut) {
        container.setOffset(node, end)
        guard duration > 0, start != end else { return }
        let final = container.frame(for: node, offset: end)
        let startCentre = Point(x: final.midX + start.x - end.x, y: final.midY + start.y - end.y)
        note(node).add(LayerAnimation(property: .position(from: startCentre, to: nil), duration: duration, timing: timing))
    }

    /// Fades `node` from `start` to `end` opacity (0…1): the model jumps to `end`, the layer
    /// animates from `start`. Main thread.
    public func fade(_ node: DisplayNode, from start: Double, to end: Double, timing: LayerAnimation.Timing = .easeOut) {
        node.opacity = end
        guard duration > 0, start != end, start.isFinite else { return }
        note(node).add(LayerAnimation(property: .opacity(from: min(1, max(0, start)), to: nil), duration: duration, timing: timing))
    }

    /// Records `node` as animated and returns its layer (created now if the pass has not yet:
    /// a screen pushed this iteration; the pass adopts it).
    private func note(_ node: DisplayNode) -> Layer {
        if !animatedNodes.contains(where: { $0 === node }) { animatedNodes.append(node) }
        return node.loadLayer()
    }

    /// Stops the animations this transition started (the model values show).
    func removeAnimations() {
        for node in animatedNodes { node.layer?.removeAllAnimations() }
    }
}

/// Describes how a screen transition moves things, through a `TransitionContext` (UIKit's
/// `UIViewControllerAnimatedTransitioning`). Silk ships `SlideTransition`, `FadeTransition` and
/// `NoTransition` (`.slide`, `.fade`, `.instant` — not `.none`, which a `TransitionAnimator?`
/// parameter would read as nil, the default); write your own for anything else. Main thread.
public protocol TransitionAnimator {
    /// Seconds the transition lasts (clamped to 0…10; 0 or less: no animation).
    var duration: Double { get }
    /// Starts the animations with the context's `move` and `fade`. Called once, on the main
    /// thread, when the transition begins; the container finishes it after `duration`.
    func animateTransition(_ context: TransitionContext)
}

/// The default transition: a push slides the new screen in from the right edge while the
/// covered one drifts a third of the way left; a pop reverses it; a sheet slides up from the
/// bottom; a dialog and tab switches cross-fade. Backdrops fade.
public struct SlideTransition: TransitionAnimator {
    /// Seconds (default 0.3).
    public var duration: Double
    /// A slide lasting `duration` seconds.
    public init(duration: Double = 0.3) { self.duration = duration }

    /// Moves the screens as described on the type.
    public func animateTransition(_ context: TransitionContext) {
        let w = context.containerSize.width, h = context.containerSize.height
        switch context.operation {
        case .push:
            if let to = context.to { context.move(to.node, from: Point(x: w, y: 0), to: .zero) }
            if let from = context.from { context.move(from.node, from: .zero, to: Point(x: -w / 3, y: 0)) }
        case .pop:
            if let to = context.to { context.move(to.node, from: Point(x: -w / 3, y: 0), to: .zero) }
            if let from = context.from { context.move(from.node, from: .zero, to: Point(x: w, y: 0)) }
        case .present:
            if let to = context.to { context.move(to.node, from: Point(x: 0, y: h), to: .zero) }
            if let b = context.backdrop { context.fade(b, from: 0, to: 1) }
        case .dismiss:
            if let from = context.from { context.move(from.node, from: .zero, to: Point(x: 0, y: h), timing: .easeIn) }
            if let b = context.backdrop { context.fade(b, from: 1, to: 0, timing: .easeIn) }
        case .select:
            FadeTransition(duration: duration).animateTransition(context)
        }
    }
}

/// A cross-fade: the arriving screen fades in over the leaving one (which fades out when it is
/// on top: a pop, a dismissal). Backdrops fade too.
public struct FadeTransition: TransitionAnimator {
    /// Seconds (default 0.25).
    public var duration: Double
    /// A fade lasting `duration` seconds.
    public init(duration: Double = 0.25) { self.duration = duration }

    /// Fades the screens as described on the type.
    public func animateTransition(_ context: TransitionContext) {
        switch context.operation {
        case .push, .present, .select:
            if let to = context.to { context.fade(to.node, from: 0, to: 1) }
            if let b = context.backdrop { context.fade(b, from: 0, to: 1) }
        case .pop, .dismiss:
            // The leaving screen is on top: it fades out, uncovering the other.
            if let from = context.from { context.fade(from.node, from: 1, to: 0) }
            if let b = context.backdrop { context.fade(b, from: 1, to: 0) }
        }
    }
}

/// No animation: the change shows at the next frame.
public struct NoTransition: TransitionAnimator {
    /// Always 0.
    public var duration: Double { 0 }
    /// No transition.
    public init() {}
    /// Does nothing.
    public func animateTransition(_ context: TransitionContext) {}
}

extension TransitionAnimator where Self == SlideTransition {
    /// `SlideTransition()`: the default.
    public static var slide: SlideTransition { SlideTransition() }
}
extension TransitionAnimator where Self == FadeTransition {
    /// `FadeTransition()`.
    public static var fade: FadeTransition { FadeTransition() }
}
extension TransitionAnimator where Self == NoTransition {
    /// `NoTransition()`: the change shows at once. (Named so that it cannot be confused with
    /// `Optional.none`, which as a `transition:` argument means "the default transition".)
    public static var instant: NoTransition { NoTransition() }
}

/// How containers wait for a transition's end: the main loop's timers in an app; tests and
/// tools pass their own to end transitions when they choose. Main thread.
public struct TransitionTimer: Sendable {
    /// Calls `body` on the main thread after `seconds`; returns a function that cancels it.
    public var schedule: @Sendable (_ seconds: Double, _ body: @escaping () -> Void) -> (() -> Void)

    /// A timer from a scheduling function (see `schedule`).
    public init(schedule: @escaping @Sendable (_ seconds: Double, _ body: @escaping () -> Void) -> (() -> Void)) {
        self.schedule = schedule
    }

    /// `EventLoop.main`'s timers (the default; the main loop must be running, as in an app).
    public static let mainLoop = TransitionTimer { seconds, body in
        let token = EventLoop.main.addTimer(after: .nanoseconds(Int64(max(0, seconds) * 1e9)), handler: body)
        return { EventLoop.main.cancelTimer(token) }
    }
}

/// Runs one container's transitions one at a time: the running one is finished at once — every
/// screen put in its resting place — before another starts, or when its time is up. Main thread.
final class TransitionRunner {
    var timer: TransitionTimer
    private var finishRunning: (() -> Void)?
    private var cancelTimer: (() -> Void)?

    init(timer: TransitionTimer) { self.timer = timer }

    /// Whether a transition is animating.
    var isRunning: Bool { finishRunning != nil }

    /// Clamps a duration: NaN, negative and infinite values make no sense for a screen change.
    static func clamp(_ d: Double) -> Double { d.isFinite ? min(10, max(0, d)) : 0 }

    /// Runs `context`'s animator, then `finish` when the time is up (at once for no animation).
    /// A grace of two frames past the duration lets the render thread, which starts an animation
    /// at its next frame, end it before the screens are rearranged.
    func run(_ animator: any TransitionAnimator, context: TransitionContext, finish: @escaping () -> Void) {
        finishNow()
        animator.animateTransition(context)
        let complete = { [weak self] in
            guard let self else { return }
            self.finishRunning = nil
            self.cancelTimer = nil
            context.removeAnimations()
            finish()
        }
        guard context.duration > 0 else { complete(); return }
        finishRunning = complete
        cancelTimer = timer.schedule(context.duration + 2.0 / 60) { [weak self] in
            guard let self, self.finishRunning != nil else { return }
            self.finishRunning?()
        }
    }

    /// Ends the running transition now, if any (an interruption).
    func finishNow() {
        guard let f = finishRunning else { return }
        cancelTimer?()
        cancelTimer = nil
        f()
    }
}
