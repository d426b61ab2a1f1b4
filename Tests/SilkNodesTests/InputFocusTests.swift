import Foundation
import Testing
import SilkGeometry
@testable import SilkNodes

@Suite struct InputFocusTests {
    /// root ─ a, group(b, hidden(c), d), e(disabled), f
    private func tree() -> (DisplayNode, [LoggedControl]) {
        let a = LoggedControl(Rect(x: 0, y: 0, width: 10, height: 10))
        let b = LoggedControl(Rect(x: 0, y: 0, width: 10, height: 10))
        let c = LoggedControl(Rect(x: 0, y: 20, width: 10, height: 10))
        let d = LoggedControl(Rect(x: 0, y: 40, width: 10, height: 10))
        let e = LoggedControl(Rect(x: 60, y: 0, width: 10, height: 10))
        let f = LoggedControl(Rect(x: 80, y: 0, width: 10, height: 10))
        for (n, name) in zip([a, b, c, d, e, f], ["a", "b", "c", "d", "e", "f"]) { n.name = name }
        let hidden = node(Rect(x: 0, y: 0, width: 50, height: 50), [c])
        hidden.isHidden = true
        let group = node(Rect(x: 20, y: 0, width: 30, height: 60), [b, hidden, d])
        e.isEnabled = false
        let root = node(Rect(x: 0, y: 0, width: 100, height: 100), [a, group, e, f])
        return (root, [a, b, c, d, e, f])
    }

    @Test func tabWalksTheFocusChainInTreeOrderAndWraps() {
        let (root, _) = tree()
        let d = InputDispatcher(rootNode: root)
        #expect(focusChain(in: root).map(\.debugName) == ["a", "b", "d", "f"])
        var visited: [String] = []
        for i in 0..<5 {
            d.key(.tab, at: Double(i))
            visited.append(d.focusedNode?.debugName ?? "-")
        }
        #expect(visited == ["a", "b", "d", "f", "a"])
        #expect(d.focusedNode?.showsFocusRing == true)
    }

    @Test func shiftTabGoesBackwardsAndWraps() {
        let (root, _) = tree()
        let d = InputDispatcher(rootNode: root)
        var visited: [String] = []
        for i in 0..<5 {
            d.key(.tab, .shift, at: Double(i))
            visited.append(d.focusedNode?.debugName ?? "-")
        }
        #expect(visited == ["f", "d", "b", "a", "f"])
    }

    @Test func focusMovesOnFromANodeThatLeftTheChain() {
        let (root, nodes) = tree()
        let d = InputDispatcher(rootNode: root)
        d.focus(nodes[1])                                      // b
        nodes[1].isEnabled = false
        d.key(.tab, at: 1)
        #expect(d.focusedNode === nodes[3])                    // d, the next after b's place
        nodes[3].removeFromSupernode()
        d.key(.tab, at: 2)
        #expect(d.focusedNode === nodes[0])                    // d is gone: start over
    }

    @Test func enterAndSpaceActivateTheFocusedControl() {
        let (root, nodes) = tree()
        let d = InputDispatcher(rootNode: root)
        d.key(.tab, at: 1)                                     // a
        d.handle(InputEvent(.keyDown(.enter), timestamp: 2))
        d.handle(InputEvent(.keyDown(.enter, isRepeat: true), timestamp: 2.5))   // repeats do not
        d.handle(InputEvent(.keyUp(.enter), timestamp: 2.6))
        #expect(nodes[0].log == ["primaryActionTriggered"])
        d.handle(InputEvent(.keyDown(.space, text: " "), timestamp: 3))
        #expect(nodes[0].isHighlighted)
        #expect(nodes[0].log.count == 1)                       // Space activates on release
        d.handle(InputEvent(.keyUp(.space), timestamp: 3.1))
        #expect(!nodes[0].isHighlighted)
        #expect(nodes[0].log == ["primaryActionTriggered", "primaryActionTriggered"])
        // Other keys go up the tree unconsumed; nothing else fires.
        d.handle(InputEvent(.keyDown(.character("x"), text: "x"), timestamp: 4))
        #expect(nodes[0].log.count == 2)
    }

    @Test func keysGoUpFromTheFocusedNodeUntilConsumed() {
        final class KeyLog: DisplayNode, @unchecked Sendable {
            let keys = Locked<[Key]>([])
            override func keyDown(_ key: KeyInput) -> Bool { keys.withLock { $0.append(key.key) }; return key.key != .tab }
        }
        let panel = KeyLog()
        panel.frame = Rect(x: 0, y: 0, width: 50, height: 50)
        let control = LoggedControl(Rect(x: 0, y: 0, width: 10, height: 10))
        let other = LoggedControl(Rect(x: 20, y: 0, width: 10, height: 10))
        panel.addSubnode(control)
        panel.addSubnode(other)
        let root = node(Rect(x: 0, y: 0, width: 100, height: 100), [panel])
        let d = InputDispatcher(rootNode: root)
        d.focus(control)
        d.handle(InputEvent(.keyDown(.escape), timestamp: 1))
        d.handle(InputEvent(.keyDown(.tab), timestamp: 2))     // seen by the panel, not consumed
        #expect(panel.keys.current == [.escape, .tab])
        #expect(d.focusedNode === other)
    }

    @Test func touchingAControlFocusesItWithoutARingAndTouchingElsewhereBlurs() {
        let (root, nodes) = tree()
        let d = InputDispatcher(rootNode: root)
        d.key(.tab, at: 1)
        #expect(nodes[0].showsFocusRing)
        d.down(85, 5, at: 2); d.up(at: 2.1)                   // f
        #expect(d.focusedNode === nodes[5])
        #expect(!nodes[5].showsFocusRing && !nodes[0].showsFocusRing)
        d.key(.tab, at: 3)                                     // from f, wrapping to a
        #expect(d.focusedNode === nodes[0] && nodes[0].showsFocusRing)
        d.down(50, 90, at: 4); d.up(at: 4.1)                  // empty space
        #expect(d.focusedNode == nil)
    }
}
