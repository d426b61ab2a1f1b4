import Foundation
import SilkGeometry
import SilkInput

/// One finger (or the pointer while a button is held) as nodes see it: where it is, where it
/// began, and how many quick taps preceded it. A new value is handed out for every event.
public struct Touch: Hashable, Sendable, CustomStringConvertible {
    public enum Source: Hashable, Sendable {
        case finger(id: Int)
        /// The pointer with this button held: a pointer drag acts as a single touch.
        case pointer(PointerButton)
    }
    public enum Phase: Hashable, Sendable { case began, moved, ended, cancelled }

    public let source: Source
    public internal(set) var phase: Phase
    /// Window coordinates.
    public internal(set) var location: Point
    public internal(set) var previousLocation: Point
    public let startLocation: Point
    public internal(set) var timestamp: Double
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
    public func previousLocation(in node: DisplayNode?) -> Point {
        guard let node else { return previousLocation }
        return node.convert(previousLocation, from: nil)
    }
    /// How far the touch has moved from where it began (points).
    public var distanceFromStart: Double { location.distance(to: startLocation) }

    public static func == (a: Touch, b: Touch) -> Bool {
        a.source == b.source && a.phase == b.phase && a.location == b.location && a.timestamp == b.timestamp
            && a.startTimestamp == b.startTimestamp && a.node === b.node
    }
    public func hash(into h: inout Hasher) { h.combine(source); h.combine(startTimestamp) }

    public var description: String { "Touch(\(source) \(phase) at \(location))" }
}
