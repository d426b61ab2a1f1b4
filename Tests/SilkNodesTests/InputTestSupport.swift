import Foundation
import Testing
import SilkGeometry
@testable import SilkNodes

/// A plain node with a frame, for trees built by hand (no layout, no pass).
func node(_ frame: Rect, _ children: [DisplayNode] = []) -> DisplayNode {
    let n = DisplayNode()
    n.frame = frame
    for c in children { n.addSubnode(c) }
    return n
}

/// A node that records the touches delivered to it and takes them when `takes`.
final class TouchRecorder: DisplayNode, @unchecked Sendable {
    let log = Locked<[String]>([])
    let takes: Bool
    init(_ frame: Rect, takes: Bool = true) {
        self.takes = takes
        super.init()
        self.frame = frame
    }
    override func touchesBegan(_ touches: [Touch], with event: InputEvent) -> Bool {
        log.withLock { $0.append("began \(touches[0].location(in: self))") }
        return takes
    }
    override func touchesMoved(_ touches: [Touch], with event: InputEvent) {
        log.withLock { $0.append("moved \(touches[0].location(in: self))") }
    }
    override func touchesEnded(_ touches: [Touch], with event: InputEvent) {
        log.withLock { $0.append("ended \(touches[0].location(in: self))") }
    }
    override func touchesCancelled(_ touches: [Touch], with event: InputEvent?) {
        log.withLock { $0.append("cancelled") }
    }
    var entries: [String] { log.current }
}

/// A control that logs its events by name.
final class LoggedControl: ControlNode, @unchecked Sendable {
    let events = Locked<[String]>([])
    init(_ frame: Rect) {
        super.init()
        self.frame = frame
        addTarget(for: .allEvents) { [events] _, e in events.withLock { $0.append(e.description) } }
    }
    var log: [String] { events.current }
}

extension InputDispatcher {
    func down(_ x: Double, _ y: Double, id: Int = 1, at t: Double) { handle(InputEvent(.touchDown(id: id, Point(x: x, y: y)), timestamp: t)) }
    func move(_ x: Double, _ y: Double, id: Int = 1, at t: Double) { handle(InputEvent(.touchMove(id: id, Point(x: x, y: y)), timestamp: t)) }
    func up(_ x: Double? = nil, _ y: Double? = nil, id: Int = 1, at t: Double) {
        let p = x.map { Point(x: $0, y: y!) }
        handle(InputEvent(.touchUp(id: id, p), timestamp: t))
    }
    func key(_ key: Key, _ modifiers: KeyModifiers = [], at t: Double) {
        handle(InputEvent(.keyDown(key), timestamp: t, modifiers: modifiers))
        handle(InputEvent(.keyUp(key), timestamp: t + 0.01, modifiers: modifiers))
    }
}
