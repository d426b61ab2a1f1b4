import Foundation
import SilkGeometry
import SilkSystem

/// Watches the touches that begin on its node (or the node's subnodes) and recognizes a gesture
/// in them: a tap, a long press, or what a subclass defines (a scroll container's pan).
///
/// **Time.** Recognizers never read a clock. The dispatcher hands them event timestamps, and
/// calls `tick(now:)` when `deadline` has passed — from the event that follows, or from the
/// window's loop timer through `InputDispatcher.tick(now:)` — so tests drive time explicitly.
///
/// **Exclusivity.** The first recognizer to recognize a touch wins: the others watching it fail,
/// and with `cancelsTouchesInView` the node that took the touch gets `touchesCancelled`. A touch
/// that begins on a `ControlNode` is not shown to ancestors' recognizers that `yieldsToControls`
/// (single taps), as Texture's controls refuse their superviews' tap recognizers.
///
/// **Continuous gestures.** After recognizing, a recognizer keeps receiving its touches' moves
/// and end, so a subclass such as a scroll container's pan recognizes once the finger has moved
/// far enough (cancelling the button under it) and then follows the finger from `touchMoved`.
/// `action` runs once, at recognition.
///
/// **Threads.** Create and configure on any thread (configuration is locked); the dispatcher
/// drives recognition on the main thread, and `action` runs there.
open class GestureRecognizer: @unchecked Sendable {
    /// Where recognition of the current touches stands (UIKit's states, without the continuous
    /// began/changed split).
    public enum State: Hashable, Sendable {
        /// Watching; nothing decided yet.
        case possible
        /// Recognized: the action has run (or is about to). Stays until the touches end.
        case recognized
        /// Not this gesture (or another recognizer won); ignores the rest of the touches.
        case failed
    }

    /// Guards the recognizer's configuration, so any thread may set it; subclasses keep their own
    /// settings under it (`lock.withLock { }`).
    public let lock = Lock()
    private weak var _node: DisplayNode?
    private var _isEnabled = true
    private var _cancelsTouchesInView = true
    private var _action: (@Sendable (GestureRecognizer) -> Void)?

    // Main-thread recognition state (the dispatcher's).
    /// Where recognition stands for the current touches; back to `.possible` in `reset()`. Main
    /// thread.
    public internal(set) var state: State = .possible
    /// The touches being watched, latest values. Main thread.
    public internal(set) var touches: [Touch] = []
    var actionFired = false

    /// Creates a recognizer that calls `action` (main thread) when it recognizes. Add it to a node
    /// with `DisplayNode.addGestureRecognizer(_:)`. Any thread.
    public init(action: (@Sendable (GestureRecognizer) -> Void)? = nil) { _action = action }

    /// The node this recognizer is attached to. Any thread.
    public var node: DisplayNode? { lock.withLock { _node } }
    func attach(to node: DisplayNode) { lock.withLock { _node = node } }

    /// Whether the recognizer watches new touches (default true); a disabled one is skipped. Any
    /// thread.
    public var isEnabled: Bool {
        get { lock.withLock { _isEnabled } }
        set { lock.withLock { _isEnabled = newValue } }
    }
    /// Whether recognizing cancels the touches for the node that took them (default true). Any
    /// thread.
    public var cancelsTouchesInView: Bool {
        get { lock.withLock { _cancelsTouchesInView } }
        set { lock.withLock { _cancelsTouchesInView = newValue } }
    }
    /// Runs on the main thread when the gesture is recognized.
    public var action: (@Sendable (GestureRecognizer) -> Void)? {
        get { lock.withLock { _action } }
        set { lock.withLock { _action = newValue } }
    }
    /// Whether a touch beginning on a control inside this recognizer's node is left to the control.
    /// Default false; single taps say true. Read on the main thread.
    open var yieldsToControls: Bool { false }

    /// Where the (first) touch is, in `node`'s coordinates (nil: the window's). Main thread.
    public func location(in node: DisplayNode?) -> Point? { touches.first?.location(in: node) }

    // MARK: Subclass API (main thread)

    /// A watched touch began (`touches` already includes it). Main thread, like every subclass hook
    /// here.
    open func touchBegan(_ touch: Touch) {}
    /// A watched touch moved (also after recognizing: continuous gestures follow it here). Main
    /// thread.
    open func touchMoved(_ touch: Touch) {}
    /// A watched touch lifted. Main thread.
    open func touchEnded(_ touch: Touch) {}
    /// A watched touch was cancelled. Default: `fail()`. Main thread.
    open func touchCancelled(_ touch: Touch) { fail() }
    /// The input clock reached `now` (at least `deadline`, if there is one). Main thread.
    open func tick(now: Double) {}
    /// When the recognizer next needs `tick(now:)`, if ever. Read on the main thread.
    open var deadline: Double? { nil }
    /// All watched touches are gone: get ready for the next gesture. Call super. Main thread.
    open func reset() { state = .possible; touches = []; actionFired = false }

    /// Subclasses call this when the gesture happened. Main thread.
    public func recognize() { if state == .possible { state = .recognized } }
    /// Subclasses call this when the touches cannot be this gesture. Main thread.
    public func fail() { if state == .possible { state = .failed } }
}

/// Recognizes a tap: a touch that lifts within `allowableMovement` of where it began and within
/// `maximumDuration` (defaults 10 pt and 0.5 s), as the `numberOfTapsRequired`-th tap in a row.
public final class TapGestureRecognizer: GestureRecognizer, @unchecked Sendable {
    private var _allowableMovement = 10.0
    private var _maximumDuration = 0.5
    private var _numberOfTapsRequired = 1

    /// How far (points) the touch may move from where it began and still be a tap (default 10). Any
    /// thread.
    public var allowableMovement: Double {
        get { lock.withLock { _allowableMovement } }
        set { lock.withLock { _allowableMovement = newValue } }
    }
    /// Seconds the touch may stay down and still be a tap (default 0.5); past it the recognizer
    /// fails. Any thread.
    public var maximumDuration: Double {
        get { lock.withLock { _maximumDuration } }
        set { lock.withLock { _maximumDuration = newValue } }
    }
    /// The tap count (`Touch.tapCount`) that recognizes: 2 for a double tap. Any thread.
    public var numberOfTapsRequired: Int {
        get { lock.withLock { _numberOfTapsRequired } }
        set { lock.withLock { _numberOfTapsRequired = max(1, newValue) } }
    }
    /// True for single taps (a button inside the node keeps its touch), false for multi-taps.
    public override var yieldsToControls: Bool { numberOfTapsRequired == 1 }

    /// A second finger fails the tap.
    public override func touchBegan(_ touch: Touch) {
        if touches.count > 1 { fail() }
    }
    /// Moving beyond `allowableMovement` fails the tap.
    public override func touchMoved(_ touch: Touch) {
        if touch.distanceFromStart > allowableMovement { fail() }
    }
    /// Recognizes when the touch lifts near its start, in time, with the required tap count; else
    /// fails.
    public override func touchEnded(_ touch: Touch) {
        guard touches.count == 1 else { fail(); return }
        if touch.distanceFromStart <= allowableMovement, touch.timestamp - touch.startTimestamp < maximumDuration,
           touch.tapCount == numberOfTapsRequired {
            recognize()
        } else {
            fail()
        }
    }
    /// `maximumDuration` after the touch began, while undecided.
    public override var deadline: Double? {
        guard state == .possible, let t = touches.first else { return nil }
        return t.startTimestamp + maximumDuration
    }
    /// Fails once `maximumDuration` has passed with the touch still down.
    public override func tick(now: Double) {
        if let d = deadline, now >= d { fail() }
    }
}

/// Recognizes a long press: a touch held at least `minimumPressDuration` (0.5 s) without moving
/// more than `allowableMovement` (10 pt). Recognizes when the time is up, while still held.
public final class LongPressGestureRecognizer: GestureRecognizer, @unchecked Sendable {
    private var _allowableMovement = 10.0
    private var _minimumPressDuration = 0.5

    /// How far (points) the touch may move from where it began during the press (default 10). Any
    /// thread.
    public var allowableMovement: Double {
        get { lock.withLock { _allowableMovement } }
        set { lock.withLock { _allowableMovement = newValue } }
    }
    /// Seconds the touch must stay down to recognize (default 0.5). Any thread.
    public var minimumPressDuration: Double {
        get { lock.withLock { _minimumPressDuration } }
        set { lock.withLock { _minimumPressDuration = newValue } }
    }

    /// A second finger fails the press.
    public override func touchBegan(_ touch: Touch) {
        if touches.count > 1 { fail() }
    }
    /// Moving beyond `allowableMovement` fails the press.
    public override func touchMoved(_ touch: Touch) {
        if touch.distanceFromStart > allowableMovement { fail() }
    }
    /// Lifting before `minimumPressDuration` fails the press.
    public override func touchEnded(_ touch: Touch) {
        // Lifted before the time was up (had it been up, `tick` would have recognized first).
        fail()
    }
    /// `minimumPressDuration` after the touch began, while undecided.
    public override var deadline: Double? {
        guard state == .possible, let t = touches.first else { return nil }
        return t.startTimestamp + minimumPressDuration
    }
    /// Recognizes once `minimumPressDuration` has passed with the touch still down.
    public override func tick(now: Double) {
        if let d = deadline, now >= d { recognize() }
    }
}
