import Foundation
import SilkGeometry
import SilkInput

/// One finger (or the pointer while a button is held) as nodes see it: where it is, where it
/// began, and how many quick taps preceded it. A new value is handed out for every event.
public struct Touch: Hashable, Sendable, CustomStringConvertible {
    /// What produces a touch; each source is routed on its own, so two fingers are two touches.
    public enum Source: Hashable, Sendable {
        /// A finger, by the presenter's touch id (the `wl_touch` id or the evdev multitouch slot).
        case finger(id: Int)
        /// The pointer with this button held: a pointer drag acts as a single touch.
        case pointer(PointerButton)
    }
    /// Where a touch is in its life; each event hands nodes the touch in its new phase.
    public enum Phase: Hashable, Sendable {
        /// The finger went down, or the touch button was pressed.
        case began
        /// The touch moved.
        case moved
        /// The finger lifted, or the button was released.
        case ended
        /// The system ended the touch: `touchCancel`, the pointer left the window, a gesture
        /// recognizer took it over, or the node left the tree.
        case cancelled
    }

    /// The finger or pointer button this touch follows; stable for the touch's life.
    public let source: Source
    /// The phase of the event this value was handed out for.
    public internal(set) var phase: Phase
    /// Where the touch is now, in window coordinates (points); `location(in:)` converts it into a
    /// node's.
    public internal(set) var location: Point
    /// Where the touch was at the previous event, in window coordinates (points).
    public internal(set) var previousLocation: Point
    /// Where the touch began, in window coordinates (points).
    public let startLocation: Point
    /// When the latest event happened: seconds on the input clock (`InputClock.now`, monotonic).
    public internal(set) var timestamp: Double
    /// When the touch began, in seconds on the input clock.
    public let startTimestamp: Double
    /// 1 for a first tap; 2 for a touch that began soon after and near a previous one ended …
    public let tapCount: Int
    /// The node the touch began on (the hit-test result).
    public let node: DisplayNode?

    init(source: Source, location: Point, timestamp: Double, tapCount: Int, node: DisplayNode?) {
        self.source = source; phase = .began
        self.location = location; previousLocation = location; startLocation = location
        self.timestamp = timestamp; startTimestamp = timestamp
        self.tapCount = tapCount; self.node = node
    }

    /// The location in `node`'s coordinate space (nil node: the window's).
    public func location(in node: DisplayNode?) -> Point {
        guard let node else { return location }
        return node.convert(location, from: nil)
    }
    /// The previous location in `node`'s coordinate space (nil node: the window's). Main thread.
    public func previousLocation(in node: DisplayNode?) -> Point {
        guard let node else { return previousLocation }
        return node.convert(previousLocation, from: nil)
    }
    /// How far the touch has moved from where it began (points).
    public var distanceFromStart: Double { location.distance(to: startLocation) }

    /// Two touch values are equal when they show the same touch at the same event (source, phase,
    /// location, times and node).
    public static func == (a: Touch, b: Touch) -> Bool {
        a.source == b.source && a.phase == b.phase && a.location == b.location && a.timestamp == b.timestamp
            && a.startTimestamp == b.startTimestamp && a.node === b.node
    }
    /// Hashes the source and start time: the touch's identity.
    public func hash(into h: inout Hasher) { h.combine(source); h.combine(startTimestamp) }

    /// The source, phase and window location, for logs.
    public var description: String { "Touch(\(source) \(phase) at \(location))" }
}
