import Foundation
import Testing
import SilkGeometry
@testable import SilkNodes

@Suite struct InputDispatcherTests {
    @Test func aTouchGoesToTheFirstNodeThatTakesItAndStaysThere() {
        let inner = TouchRecorder(Rect(x: 10, y: 10, width: 20, height: 20), takes: false)
        let outer = TouchRecorder(Rect(x: 10, y: 10, width: 60, height: 60))
        outer.addSubnode(inner)
        let root = node(Rect(x: 0, y: 0, width: 100, height: 100), [outer])
        let d = InputDispatcher(rootNode: root)
        d.down(25, 25, at: 1)
        d.move(90, 90, at: 1.1)   // far outside: still delivered to the node that took it
        d.up(at: 1.2)             // no location: where it last was
        #expect(inner.entries == ["began (5, 5)"])
        #expect(outer.entries == ["began (15, 15)", "moved (80, 80)", "ended (80, 80)"])
        #expect(d.activeTouches.isEmpty)
    }

    @Test func thePointerWithTheLeftButtonActsAsOneTouch() {
        let n = TouchRecorder(Rect(x: 0, y: 0, width: 50, height: 50))
        let root = node(Rect(x: 0, y: 0, width: 100, height: 100), [n])
        let d = InputDispatcher(rootNode: root)
        d.handle(InputEvent(.pointerMove(Point(x: 5, y: 5)), timestamp: 1))     // hover: nothing
        d.handle(InputEvent(.pointerDown(.right, Point(x: 5, y: 5)), timestamp: 1.1))
        d.handle(InputEvent(.pointerUp(.right, Point(x: 5, y: 5)), timestamp: 1.2))
        #expect(n.entries.isEmpty)
        d.handle(InputEvent(.pointerDown(.left, Point(x: 5, y: 5)), timestamp: 2))
        #expect(d.activeTouches.first?.source == .pointer(.left))
        d.handle(InputEvent(.pointerMove(Point(x: 7, y: 8)), timestamp: 2.1))
        d.handle(InputEvent(.pointerUp(.left, Point(x: 7, y: 8)), timestamp: 2.2))
        #expect(n.entries == ["began (5, 5)", "moved (7, 8)", "ended (7, 8)"])
        // Leaving the window mid-drag cancels.
        d.handle(InputEvent(.pointerDown(.left, Point(x: 5, y: 5)), timestamp: 3))
        d.handle(InputEvent(.pointerLeave, timestamp: 3.1))
        #expect(n.entries.last == "cancelled")
        #expect(d.activeTouches.isEmpty)
    }

    @Test func fingersAreTrackedIndependentlyAndCancelAllCancelsEach() {
        let a = TouchRecorder(Rect(x: 0, y: 0, width: 50, height: 50))
        let b = TouchRecorder(Rect(x: 50, y: 0, width: 50, height: 50))
        let root = node(Rect(x: 0, y: 0, width: 100, height: 100), [a, b])
        let d = InputDispatcher(rootNode: root)
        d.down(10, 10, id: 1, at: 1)
        d.down(60, 10, id: 2, at: 1.05)
        d.move(20, 20, id: 1, at: 1.1)
        d.up(id: 2, at: 1.2)
        d.handle(InputEvent(.touchCancel(id: nil), timestamp: 1.3))
        #expect(a.entries == ["began (10, 10)", "moved (20, 20)", "cancelled"])
        #expect(b.entries == ["began (10, 10)", "ended (10, 10)"])
    }

    @Test func aTargetThatLeavesTheTreeIsCancelled() {
        let n = TouchRecorder(Rect(x: 0, y: 0, width: 50, height: 50))
        let root = node(Rect(x: 0, y: 0, width: 100, height: 100), [n])
        let d = InputDispatcher(rootNode: root)
        d.down(10, 10, at: 1)
        n.removeFromSupernode()
        d.move(12, 12, at: 1.1)
        d.up(at: 1.2)
        #expect(n.entries == ["began (10, 10)", "cancelled"])
    }

    @Test func scrollGoesUpToTheFirstNodeThatConsumesIt() {
        final class Scroller: DisplayNode, @unchecked Sendable {
            let got = Locked<[String]>([])
            override func scrollWheel(_ delta: ScrollDelta, at location: Point, with event: InputEvent) -> Bool {
                got.withLock { $0.append("\(delta.dy) at \(location)") }
                return true
            }
        }
        let s = Scroller()
        s.frame = Rect(x: 10, y: 10, width: 80, height: 80)
        let leaf = node(Rect(x: 0, y: 0, width: 10, height: 10))
        s.addSubnode(leaf)
        let root = node(Rect(x: 0, y: 0, width: 100, height: 100), [s])
        let d = InputDispatcher(rootNode: root)
        d.handle(InputEvent(.scroll(Point(x: 15, y: 15), ScrollDelta(dy: 30, discreteSteps: 1)), timestamp: 1))
        #expect(s.got.current == ["30.0 at (5, 5)"])
    }

    @Test func keysymsMapToKeys() {
        #expect(Key(keysym: 0xff09) == .tab)
        #expect(Key(keysym: 0xfe20) == .tab)          // ISO_Left_Tab: Shift+Tab under xkb
        #expect(Key(keysym: 0xff0d) == .enter)
        #expect(Key(keysym: 0xff8d) == .enter)
        #expect(Key(keysym: 0x20) == .space)
        #expect(Key(keysym: 0x61) == .character("a"))
        #expect(Key(keysym: 0xe9) == .character("é"))
        #expect(Key(keysym: 0x0100_20ac) == .character("€"))
        #expect(Key(keysym: 0xffbe) == .function(1))
        #expect(Key(keysym: 0x1234_5678) == .keysym(0x1234_5678))
        #expect(PointerButton(linuxCode: 0x110) == .left)
        #expect(PointerButton(linuxCode: 0x111) == .right)
    }
}
