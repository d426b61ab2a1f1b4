import Foundation
import SilkGeometry
import SilkLayout
import SilkRender
import SilkSystem

// Animated layout transitions (Texture's `-transitionLayoutWithAnimation:` and
// `ASContextTransitioning`). `transitionLayout(animated:)` measures the node's new layout on a
// background queue, then, in the next node pass on the main thread, applies it as the model
// (new frames, inserted subnodes added, removed ones kept for now), builds a
// `LayoutTransitionContext` and calls `animateLayoutTransition(_:)`. The default animation
// fades inserted subnodes in, removed ones out (to 0, kept at 0 until they are removed) and moves
// and resizes the rest from their on-screen (presentation) frames, so a transition that
// interrupts another continues from where things are. `completeTransition(didComplete:)` removes
// the removed subnodes and calls `didCompleteLayoutTransition(_:)` and the caller's completion.

/// One layout transition of a node, handed to `DisplayNode.animateLayoutTransition(_:)`
/// (Texture's `ASContextTransitioning`). Main thread only: the node pass creates it, animation
/// completions and overrides use it.
public final class LayoutTransitionContext: @unchecked Sendable {
    /// The node whose subnodes transition.
    public let node: DisplayNode
    /// Whether the transition should animate (false: `completeTransition` follows at once).
    public let isAnimated: Bool
    /// Seconds the default animation takes.
    public let duration: Double
    /// The default animation's curve (`.easeInOut` unless given).
    public let timing: LayerAnimation.Timing
    /// Subnodes the new layout adds (already subnodes, at their final frames).
    public let insertedSubnodes: [DisplayNode]
    /// Subnodes the new layout drops (still subnodes until `completeTransition`).
    public let removedSubnodes: [DisplayNode]
    /// The subnodes before the transition, back to front.
    public let previousSubnodes: [DisplayNode]
    /// The subnodes after the transition (without the removed ones), back to front.
    public let finalSubnodes: [DisplayNode]
    private let initialFrames: [ObjectIdentifier: Rect]
    private let finalFrames: [ObjectIdentifier: Rect]
    private let completion: (@Sendable (Bool) -> Void)?
    /// Whether `completeTransition` was called.
    public private(set) var isComplete = false

    init(node: DisplayNode, isAnimated: Bool, duration: Double, timing: LayerAnimation.Timing,
         inserted: [DisplayNode], removed: [DisplayNode], previous: [DisplayNode], final: [DisplayNode],
         initialFrames: [ObjectIdentifier: Rect], finalFrames: [ObjectIdentifier: Rect],
         completion: (@Sendable (Bool) -> Void)?) {
        self.node = node; self.isAnimated = isAnimated; self.duration = duration; self.timing = timing
        insertedSubnodes = inserted; removedSubnodes = removed; previousSubnodes = previous; finalSubnodes = final
        self.initialFrames = initialFrames; self.finalFrames = finalFrames; self.completion = completion
    }

    /// The frame `subnode` had before the transition (for an inserted subnode, its final frame;
    /// `.null` for a node that is not part of the transition).
    public func initialFrame(for subnode: DisplayNode) -> Rect {
        initialFrames[ObjectIdentifier(subnode)] ?? finalFrames[ObjectIdentifier(subnode)] ?? .null
    }

    /// The frame `subnode` has after the transition (for a removed subnode, its initial frame;
    /// `.null` for a node that is not part of the transition).
    public func finalFrame(for subnode: DisplayNode) -> Rect {
        finalFrames[ObjectIdentifier(subnode)] ?? initialFrames[ObjectIdentifier(subnode)] ?? .null
    }

    /// Ends the transition: removed subnodes leave the node, then the node's
    /// `didCompleteLayoutTransition(_:)` and the `transitionLayout` completion run with
    /// `didComplete`. Calls after the first do nothing. Main thread.
    public func completeTransition(didComplete: Bool = true) {
        guard !isComplete else { return }
        isComplete = true
        for r in removedSubnodes {
            r.isLeavingInTransition = false
            if r.supernode === node { r.removeFromSupernode() }
        }
        if node.activeLayoutTransition === self { node.activeLayoutTransition = nil }
        node.didCompleteLayoutTransition(self)
        completion?(didComplete)
    }

    /// The default animation (`DisplayNode.animateLayoutTransition(_:)`): inserted subnodes fade
    /// in, removed ones fade out, the others move and resize from their presentation frames;
    /// completes when every animation ended. Main thread.
    public func runDefaultAnimation() {
        var animations: [(DisplayNode, LayerAnimation)] = []
        for n in insertedSubnodes {
            animations.append((n, LayerAnimation(property: .opacity(from: 0, to: nil), duration: duration, timing: timing)))
        }
        for n in removedSubnodes {
            animations.append((n, LayerAnimation(property: .opacity(from: n.opacity, to: 0), duration: duration, timing: timing,
                                                 beginsFromCurrentState: true, isRemovedOnCompletion: false)))
        }
        for n in finalSubnodes where !insertedSubnodes.contains(where: { $0 === n }) {
            let from = initialFrame(for: n), to = finalFrame(for: n)
            guard from != to, !from.isNull else { continue }
            let anchor = n.anchorPoint
            if from.size != to.size {
                animations.append((n, LayerAnimation(property: .bounds(from: Rect(origin: n.boundsOrigin, size: from.size), to: nil),
                                                     duration: duration, timing: timing, beginsFromCurrentState: true)))
            }
            let p = Point(x: from.minX + from.width * anchor.x, y: from.minY + from.height * anchor.y)
            let q = Point(x: to.minX + to.width * anchor.x, y: to.minY + to.height * anchor.y)
            if p != q {
                animations.append((n, LayerAnimation(property: .position(from: p, to: nil), duration: duration, timing: timing,
                                                     beginsFromCurrentState: true)))
            }
        }
        guard !animations.isEmpty, duration > 0 else { completeTransition(didComplete: true); return }
        let group = CompletionGroup(count: animations.count) { [self] finished in
            // Completions arrive on the main loop; `false` ones inside the call that replaced them.
            self.node.performOnPassThread { self.completeTransition(didComplete: finished) }
        }
        for (n, a) in animations {
            a.completion = { finished in group.done(finished) }
            n.addAnimation(a)
        }
    }
}

/// Calls `body` once after `count` completions, with whether all of them finished.
final class CompletionGroup: Sendable {
    private let state: Locked<(left: Int, allFinished: Bool)>
    private let body: @Sendable (Bool) -> Void
    init(count: Int, body: @escaping @Sendable (Bool) -> Void) {
        state = Locked((count, true)); self.body = body
    }
    func done(_ finished: Bool) {
        let fire = state.withLock { s -> Bool? in
            s.left -= 1
            s.allFinished = s.allFinished && finished
            return s.left == 0 ? s.allFinished : nil
        }
        if let fire { body(fire) }
    }
}

extension DisplayNode {
    /// Seconds a layout transition animates when no duration is given (Texture's 0.2 s).
    public static let defaultLayoutTransitionDuration = 0.2

    /// Transitions to a new layout (Texture's `-transitionLayoutWithAnimation:`): call it
    /// instead of `setNeedsLayout()` after changing what the layout spec returns. The new
    /// layout is measured for the node's current size on a background queue; in the next node
    /// pass it becomes the model (frames set, inserted subnodes added), and with `animated`
    /// `animateLayoutTransition(_:)` animates from the old layout (default: fade in, fade out,
    /// move and resize over `duration` seconds, non-finite or negative values meaning
    /// ``defaultLayoutTransitionDuration``). `completion` runs on the main thread when the
    /// transition completes: `true`, or `false` when a newer transition interrupted it (the
    /// newer one starts from what is on screen). A node never laid out yet just asks for a
    /// layout. Any thread.
    public func transitionLayout(animated: Bool = true, duration: Double = DisplayNode.defaultLayoutTransitionDuration,
                                 timing: LayerAnimation.Timing = .easeInOut,
                                 completion: (@Sendable (Bool) -> Void)? = nil) {
        let generation = transitionGeneration.withLock { g -> UInt64 in g += 1; return g }
        let size = frame.size
        guard size.width > 0, size.height > 0, size.isValidExtent else {
            setNeedsLayout()
            if let completion { performOnPassThread { completion(true) } }
            return
        }
        let duration = duration.isFinite && duration >= 0 ? duration : DisplayNode.defaultLayoutTransitionDuration
        invalidateLayoutCachesWithoutLayout()
        let scheduler = NodeScheduler.shared
        scheduler.beginBackgroundWork()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let result: Result<Layout, any Error>
            do { result = .success(try self.layoutThatFits(SizeRange(exactly: size),
                                                                 context: LayoutContext(direction: self.supernode?.layoutDirection ?? .applicationDefault))) } catch { result = .failure(error) }
            let measured = LayoutBox(result: result)
            scheduler.endBackgroundWork { [self] in
                // A newer transitionLayout call measures again: this one is dropped.
                guard self.transitionGeneration.withLock({ $0 }) == generation else { return }
                switch measured.result {
                case let .success(layout):
                    self.applyLayoutTransition(layout, animated: animated, duration: duration, timing: timing, completion: completion)
                case let .failure(error):
                    logger.error("layout transition of \(self.debugName) failed: \(error)")
                    completion?(false)
                }
            }
        }
    }

    /// Main thread (a pass block): makes `layout` the model and starts the transition.
    func applyLayoutTransition(_ layout: Layout, animated: Bool, duration: Double, timing: LayerAnimation.Timing,
                               completion: (@Sendable (Bool) -> Void)?) {
        // A running transition ends here: its removed subnodes go, and the new one's animations
        // start from what is on screen.
        activeLayoutTransition?.completeTransition(didComplete: false)
        let previous = subnodes
        var initial: [ObjectIdentifier: Rect] = [:]
        for n in previous { initial[ObjectIdentifier(n)] = n.frame }
        let children = NodePass.layoutChildren(layout, of: self)
        let wanted = children.map(\.0)
        var inserted: [DisplayNode] = [], removed: [DisplayNode] = []
        if automaticallyManagesSubnodes {
            inserted = wanted.filter { w in !previous.contains { $0 === w } }
            removed = previous.filter { p in !wanted.contains { $0 === p } }
            for (i, child) in wanted.enumerated() {
                if child.supernode !== self { insertSubnodeKeepingLayout(child, at: i) } else { moveSubnode(child, to: i) }
            }
            // Leaving subnodes go to the back: they fade out behind what stays.
            for (i, r) in removed.enumerated() {
                r.isLeavingInTransition = true
                moveSubnode(r, to: i)
            }
        }
        var final: [ObjectIdentifier: Rect] = [:]
        for (child, sub, origin) in children {
            let f = Rect(origin: origin, size: sub.size)
            final[ObjectIdentifier(child)] = f
            child.frame = f
            NodePass.apply(sub, to: child)
        }
        layoutDidApply(layout)
        layoutDidFinish()
        let finalSubnodes = subnodes.filter { n in !removed.contains { $0 === n } }
        let context = LayoutTransitionContext(
            node: self, isAnimated: animated, duration: duration, timing: timing, inserted: inserted, removed: removed,
            previous: previous, final: finalSubnodes, initialFrames: initial, finalFrames: final, completion: completion)
        activeLayoutTransition = context
        if animated { animateLayoutTransition(context) } else { context.completeTransition(didComplete: true) }
    }

    /// Animates the changes `changes` makes to this node's animatable properties — `frame`
    /// (position and size), `opacity`, `transform`, `backgroundColor`, `cornerRadius`,
    /// `borderWidth`, `borderColor` — from what is on screen to the new values (UIKit's
    /// `UIView.animate`). `changes` runs at once on the calling thread; the animations reach
    /// the layer at the next node pass. `completion` runs once on the main thread after all
    /// of them ended: `true`, or `false` when one was replaced or removed first (also `true`
    /// at once when nothing changed). Any thread.
    public func animate(duration: Double, timing: LayerAnimation.Timing = .easeInOut, delay: Double = 0,
                        changes: () -> Void, completion: (@Sendable (Bool) -> Void)? = nil) {
        let before = AnimatableNodeState(self)
        changes()
        let after = AnimatableNodeState(self)
        var animations: [LayerAnimation] = []
        for property in before.changes(to: after, boundsOrigin: boundsOrigin, anchor: anchorPoint) {
            animations.append(LayerAnimation(property: property, duration: duration, timing: timing, delay: delay,
                                             beginsFromCurrentState: true))
        }
        guard !animations.isEmpty else {
            if let completion { performOnPassThread { completion(true) } }
            return
        }
        // The group is held by the animations, which the layer holds: it must not hold the node
        // (node → layer → animation → group → node kept both alive after the animations ended).
        let group = completion.map { c in CompletionGroup(count: animations.count) { [weak self] ok in NodeScheduler.shared.performOnPassThread(owner: self) { c(ok) } } }
        for a in animations {
            if let group { a.completion = { group.done($0) } }
            addAnimation(a)
        }
    }

    /// `animate(duration:…)` with a spring: the animations last the spring's settling duration.
    public func animate(spring: LayerAnimation.Spring, delay: Double = 0, changes: () -> Void,
                        completion: (@Sendable (Bool) -> Void)? = nil) {
        animate(duration: spring.settlingDuration, timing: .spring(spring), delay: delay, changes: changes, completion: completion)
    }
}

/// A measured layout crossing from the measuring queue to the pass thread (immutable).
private struct LayoutBox: @unchecked Sendable { let result: Result<Layout, any Error> }

/// The animatable properties of a node, before and after `animate`'s changes.
private struct AnimatableNodeState {
    let frame: Rect, opacity: Double, transform: SilkGeometry.AffineTransform, backgroundColor: Color?
    let cornerRadius: Double, borderWidth: Double, borderColor: Color?

    init(_ n: DisplayNode) {
        frame = n.frame; opacity = n.opacity; transform = n.transform; backgroundColor = n.backgroundColor
        cornerRadius = n.cornerRadius; borderWidth = n.borderWidth; borderColor = n.borderColor
    }

    /// One property animation (from the old value to the model) per property that changed.
    func changes(to new: AnimatableNodeState, boundsOrigin: Point, anchor: Point) -> [LayerAnimation.Property] {
        var out: [LayerAnimation.Property] = []
        if frame.size != new.frame.size {
            out.append(.bounds(from: Rect(origin: boundsOrigin, size: frame.size), to: nil))
        }
        let p = Point(x: frame.minX + frame.width * anchor.x, y: frame.minY + frame.height * anchor.y)
        let q = Point(x: new.frame.minX + new.frame.width * anchor.x, y: new.frame.minY + new.frame.height * anchor.y)
        if p != q { out.append(.position(from: p, to: nil)) }
        if opacity != new.opacity { out.append(.opacity(from: opacity, to: nil)) }
        if transform != new.transform { out.append(.transform(from: transform, to: nil)) }
        if backgroundColor != new.backgroundColor { out.append(.backgroundColor(from: backgroundColor, to: nil)) }
        if cornerRadius != new.cornerRadius { out.append(.cornerRadius(from: cornerRadius, to: nil)) }
        if borderWidth != new.borderWidth { out.append(.borderWidth(from: borderWidth, to: nil)) }
        if borderColor != new.borderColor { out.append(.borderColor(from: borderColor, to: nil)) }
        return out
    }
}
