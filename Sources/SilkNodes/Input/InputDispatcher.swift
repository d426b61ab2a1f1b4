import Foundation
import SilkGeometry
import SilkRender

/// Routes one window's input events into its node tree. Presenters (Wayland, framebuffer,
/// headless) translate what they read into `InputEvent`s and call `handle(_:)`; the window also
/// calls `tick(now:)` from a loop timer armed for `nextDeadline`, so long presses are recognized
/// while a finger rests. Main thread only (the dispatcher and every callback it makes).
///
/// Per event:
/// - Time first: recognizers and link presses whose deadline is at or before the event's
///   timestamp are advanced to it, so an event stream alone gives deterministic timing.
/// - A touch (or the pointer with a button in `Configuration.touchButtons` held, which acts as
///   one touch) is hit-tested once, when it begins (`DisplayNode.hitTest`). It is offered to the
///   hit node's `touchesBegan`, then up the supernodes until one returns true; that node gets
///   the rest of the touch. Gesture recognizers of the hit node and its ancestors watch it too.
///   A touch beginning on a link of a `TextNode` that has link callbacks belongs to the link.
/// - Keys go to the focused node and up its supernodes until one consumes them; unconsumed Tab
///   and Shift-Tab move the focus. While a node that `trapsFocus` is shown (a modal), Tab
///   cycles inside it and keys pressed with the focus outside it start at it. Controls take Enter and Space (see `ControlNode`).
/// - Scrolls go to the node under the pointer and up until one consumes them.
public final class InputDispatcher {
    /// Thresholds of touch recognition, shared by the dispatcher's taps, long presses and link
    /// presses. The defaults follow UIKit's feel.
    public struct Configuration: Sendable {
        /// How far a touch may wander and still be a tap, or a long press (points).
        public var tapSlop = 10.0
        /// A tap lifts sooner than this (seconds).
        public var tapMaximumDuration = 0.5
        /// A long press is held at least this long (seconds).
        public var longPressDuration = 0.5
        /// A touch beginning this soon after, and `tapSlop` near, a tap counts as the next tap
        /// (`Touch.tapCount`).
        public var multiTapInterval = 0.35
        /// Pointer buttons that act as a touch.
        public var touchButtons: Set<PointerButton> = [.left]
        /// The defaults: 10 pt slop, 0.5 s taps and long presses, 0.35 s between taps, the left
        /// button as a touch.
        public init() {}
    }

    /// The window's root node: every hit test and the focus chain start here.
    public let rootNode: DisplayNode
    /// Recognition thresholds; change them between events. Main thread.
    public var configuration: Configuration
    /// The input clock: the latest event timestamp or `tick(now:)`. Main thread.
    public private(set) var now: Double = -.infinity
    /// The node with keyboard focus (see `focus(_:showsRing:)`, `moveFocus(forward:)`). Main
    /// thread.
    public internal(set) weak var focusedNode: DisplayNode?
    /// Where the pointer last was (window coordinates), nil after it left. Main thread.
    public private(set) var pointerLocation: Point?

    final class ActiveTouch {
        var touch: Touch
        /// The node that took the touch (its `touchesBegan` returned true).
        var target: DisplayNode?
        /// False once a recognizer cancelled the touch for its target.
        var deliversToTarget = true
        var recognizers: [GestureRecognizer] = []
        var link: LinkPress?
        init(touch: Touch) { self.touch = touch }
    }
    var active: [Touch.Source: ActiveTouch] = [:]
    private var lastTap: (location: Point, time: Double, count: Int)?
    var debugOverlay: HitTestDebugOverlay?

    /// Creates the dispatcher for `rootNode`'s tree. A `Window` makes one when its root node is set
    /// (`Window.inputDispatcher`); create one yourself only to drive a tree without a window
    /// (tests, scripted input). Main thread.
    public init(rootNode: DisplayNode, configuration: Configuration = Configuration()) {
        self.rootNode = rootNode
        self.configuration = configuration
        rootNode.hostingDispatcher = self
    }

    /// Touches currently down (fingers, and the pointer while a touch button is held). Main thread.
    public var activeTouches: [Touch] { active.values.map(\.touch).sorted { $0.startTimestamp < $1.startTimestamp } }

    /// The frontmost node at a window location that takes touches. Main thread.
    public func hitTest(_ point: Point) -> DisplayNode? {
        guard let local = rootNode.convertFromSupernodeSpace(point) else { return nil }
        return rootNode.hitTest(local)
    }

    // MARK: Events

    /// Handles one event: first fires every deadline up to its timestamp, then routes it (touches
    /// to the node that took them and to recognizers, keys to the focused node, scrolls to the node
    /// under the pointer). A window calls it through `Window.handle(_:)`, which also re-arms the
    /// deadline timer; call it directly only for a dispatcher of your own. Main thread.
    public func handle(_ event: InputEvent) {
        advance(to: event.timestamp)
        defer { updateDebugOverlay() }
        switch event.kind {
        case let .pointerMove(p):
            pointerLocation = p
            for source in active.keys where source.isPointer { touchMoved(source, to: p, event: event) }
        case let .pointerDown(button, p):
            pointerLocation = p
            if configuration.touchButtons.contains(button) { touchBegan(.pointer(button), at: p, event: event) }
        case let .pointerUp(button, p):
            pointerLocation = p
            touchEnded(.pointer(button), at: p, event: event)
        case .pointerLeave:
            pointerLocation = nil
            for source in active.keys where source.isPointer { touchCancelled(source, event: event) }
        case let .scroll(p, delta):
            pointerLocation = p
            scroll(delta, at: p, event: event)
        case let .touchDown(id, p):
            touchBegan(.finger(id: id), at: p, event: event)
        case let .touchMove(id, p):
            touchMoved(.finger(id: id), to: p, event: event)
        case let .touchUp(id, p):
            touchEnded(.finger(id: id), at: p, event: event)
        case let .touchCancel(id):
            if let id { touchCancelled(.finger(id: id), event: event) }
            else { for source in active.keys where !source.isPointer { touchCancelled(source, event: event) } }
        case let .keyDown(key, text, isRepeat):
            keyDown(KeyInput(key: key, text: text, modifiers: event.modifiers, isRepeat: isRepeat, timestamp: event.timestamp))
        case let .keyUp(key):
            keyUp(KeyInput(key: key, modifiers: event.modifiers, timestamp: event.timestamp))
        }
    }

    /// Advances the input clock to `now` (seconds on the events' clock), recognizing long
    /// presses that are due. The window calls this from a loop timer armed for `nextDeadline`.
    /// Main thread.
    public func tick(now: Double) {
        advance(to: now)
        updateDebugOverlay()
    }

    /// When `tick(now:)` must next be called (a long press or tap timing out), nil when nothing is
    /// pending. Main thread.
    public var nextDeadline: Double? {
        var d: Double? = nil
        for a in active.values {
            for r in a.recognizers { if let rd = r.deadline { d = min(d ?? rd, rd) } }
            if let ld = a.link?.deadline { d = min(d ?? ld, ld) }
        }
        return d
    }

    /// Cancels every touch in progress (the window lost the seat, a modal took over). Main thread.
    public func cancelAllTouches() {
        for source in Array(active.keys) { touchCancelled(source, event: nil) }
    }

    // MARK: Time

    private func advance(to time: Double) {
        guard time.isFinite else { return }
        // Deadlines fire in order, each at its own time (a recognizer looks at `now`).
        while let d = nextDeadline, d <= time {
            now = max(now, d)
            for a in Array(active.values) {
                for r in a.recognizers where (r.deadline ?? .infinity) <= now {
                    r.tick(now: now)
                }
                if let link = a.link, (link.deadline ?? .infinity) <= now { linkDeadlinePassed(a, link) }
            }
            processRecognitions(event: nil)
            // A recognizer whose tick did not clear its deadline would loop forever.
            if let again = nextDeadline, again <= d { break }
        }
        now = max(now, time)
    }

    // MARK: Touches

    private func touchBegan(_ source: Touch.Source, at p: Point, event: InputEvent) {
        if active[source] != nil {
            // A down for a touch that is already down (a lost up): finish the old one first.
            touchCancelled(source, event: event)
        }
        let hit = hitTest(p)
        var tapCount = 1
        if let last = lastTap, event.timestamp - last.time <= configuration.multiTapInterval,
           last.location.distance(to: p) <= configuration.tapSlop {
            tapCount = last.count + 1
        }
        let touch = Touch(source: source, location: p, timestamp: event.timestamp, tapCount: tapCount, node: hit)
        let a = ActiveTouch(touch: touch)
        active[source] = a

        // Touching a focusable node focuses it (without a ring); touching elsewhere blurs —
        // except inside a node whose touches keep focus (an on-screen keyboard).
        var focusable = hit
        while let n = focusable, !n.isFocusable, !n.touchesKeepFocus { focusable = n.supernode }
        if !(focusable?.touchesKeepFocus ?? false) { focus(focusable, showsRing: false) }

        guard let hit else { return }
        if let link = beginLinkPress(on: hit, touch: touch) {
            a.link = link
            return
        }
        a.recognizers = recognizers(for: hit)
        for r in a.recognizers {
            r.touches.append(touch)
            r.touchBegan(touch)
        }
        var node: DisplayNode? = hit
        while let n = node {
            if n.touchesBegan([touch], with: event) { a.target = n; break }
            node = n.supernode
        }
        processRecognitions(event: event)
    }

    private func touchMoved(_ source: Touch.Source, to p: Point, event: InputEvent) {
        guard let a = active[source] else { return }
        guard p != a.touch.location else { return }
        a.touch.previousLocation = a.touch.location
        a.touch.location = p
        a.touch.timestamp = event.timestamp
        a.touch.phase = .moved
        if let link = a.link { moveLinkPress(a, link); return }
        for r in a.recognizers where r.state != .failed {
            r.update(a.touch)
            r.touchMoved(a.touch)
        }
        processRecognitions(event: event)
        if let target = deliverable(a, event: event) { target.touchesMoved([a.touch], with: event) }
    }

    private func touchEnded(_ source: Touch.Source, at p: Point?, event: InputEvent) {
        // An end somewhere new is a move there first, so nodes see where the touch went.
        if let p { touchMoved(source, to: p, event: event) }
        guard let a = active[source] else { return }
        a.touch.timestamp = event.timestamp
        a.touch.phase = .ended
        defer { active[source] = nil; finish(a) }
        if a.touch.distanceFromStart <= configuration.tapSlop,
           a.touch.timestamp - a.touch.startTimestamp < configuration.tapMaximumDuration {
            lastTap = (a.touch.location, a.touch.timestamp, a.touch.tapCount)
        } else {
            lastTap = nil
        }
        if let link = a.link { endLinkPress(a, link); return }
        for r in a.recognizers where r.state != .failed {
            r.update(a.touch)
            r.touchEnded(a.touch)
        }
        processRecognitions(event: event)
        if let target = deliverable(a, event: event) { target.touchesEnded([a.touch], with: event) }
    }

    private func touchCancelled(_ source: Touch.Source, event: InputEvent?) {
        guard let a = active[source] else { return }
        a.touch.phase = .cancelled
        if let event { a.touch.timestamp = event.timestamp }
        defer { active[source] = nil; finish(a) }
        lastTap = nil
        if let link = a.link { cancelLinkPress(link); return }
        for r in a.recognizers where r.state != .failed {
            r.update(a.touch)
            r.touchCancelled(a.touch)
        }
        if a.deliversToTarget, let target = a.target { target.touchesCancelled([a.touch], with: event) }
        a.deliversToTarget = false
    }

    /// The target, if the touch still goes to it. A target that left the tree gets a cancel.
    private func deliverable(_ a: ActiveTouch, event: InputEvent) -> DisplayNode? {
        guard a.deliversToTarget, let target = a.target else { return nil }
        if !target.isDescendant(of: rootNode) {
            a.deliversToTarget = false
            var t = a.touch
            t.phase = .cancelled
            target.touchesCancelled([t], with: event)
            return nil
        }
        return target
    }

    /// Resets the touch's recognizers that no other active touch still uses.
    private func finish(_ a: ActiveTouch) {
        for r in a.recognizers {
            r.touches.removeAll { $0.source == a.touch.source }
            let stillUsed = active.values.contains { other in other.recognizers.contains { $0 === r } }
            if !stillUsed { r.reset() }
        }
    }

    /// The recognizers that watch a touch beginning on `hit`: enabled ones on it and its
    /// ancestors, except those above a control that yield to controls.
    private func recognizers(for hit: DisplayNode) -> [GestureRecognizer] {
        var out: [GestureRecognizer] = []
        var aboveControl = false
        var node: DisplayNode? = hit
        while let n = node {
            for r in n.gestureRecognizers where r.isEnabled && !(aboveControl && r.yieldsToControls) {
                // A recognizer already decided for another touch waits for all its touches to end.
                if r.state == .possible || r.touches.isEmpty {
                    if r.touches.isEmpty { r.reset() }
                    out.append(r)
                }
            }
            if n is ControlNode { aboveControl = true }
            node = n.supernode
        }
        return out
    }

    /// Runs the actions of recognizers that just recognized; the first wins over the others that
    /// watch the same touches, and cancels those touches for their targets if it should.
    private func processRecognitions(event: InputEvent?) {
        for a in Array(active.values) {
            for r in a.recognizers where r.state == .recognized && !r.actionFired {
                fireRecognizer(r, event: event)
            }
        }
    }

    private func fireRecognizer(_ r: GestureRecognizer, event: InputEvent?) {
        r.actionFired = true
        let sources = Set(r.touches.map(\.source))
        let involved = active.values.filter { sources.contains($0.touch.source) }
        for a in involved {
            for other in a.recognizers where other !== r { other.fail() }
            if r.cancelsTouchesInView, a.deliversToTarget, let target = a.target {
                a.deliversToTarget = false
                var t = a.touch
                t.phase = .cancelled
                target.touchesCancelled([t], with: event)
            }
        }
        r.action?(r)
    }

    // MARK: Scroll and keys

    private func scroll(_ delta: ScrollDelta, at p: Point, event: InputEvent) {
        var node = hitTest(p)
        while let n = node {
            if n.scrollWheel(delta, at: n.convert(p, from: nil), with: event) { return }
            node = n.supernode
        }
    }

    private func keyDown(_ key: KeyInput) {
        if consumeKey(key, down: true) { return }
        if key.key == .tab && !key.modifiers.contains(.control) && !key.modifiers.contains(.alt) {
            moveFocus(forward: !key.modifiers.contains(.shift))
        }
    }

    private func keyUp(_ key: KeyInput) {
        _ = consumeKey(key, down: false)
    }

    private func consumeKey(_ key: KeyInput, down: Bool) -> Bool {
        if let f = focusedNode, !f.isDescendant(of: rootNode) { focus(nil) }
        var node: DisplayNode? = focusedNode ?? rootNode
        // Focus outside a shown trap (a modal opened without moving it): the keys are the trap's.
        if let trap = activeFocusTrap(in: rootNode), !(node?.isDescendant(of: trap) ?? false) { node = trap }
        while let n = node {
            if down ? n.keyDown(key) : n.keyUp(key) { return true }
            node = n.supernode
        }
        return false
    }
}

extension Touch.Source {
    var isPointer: Bool { if case .pointer = self { return true } else { return false } }
}

extension GestureRecognizer {
    /// Replaces the watched touch's value with its latest.
    func update(_ touch: Touch) {
        if let i = touches.firstIndex(where: { $0.source == touch.source }) { touches[i] = touch }
    }
}
