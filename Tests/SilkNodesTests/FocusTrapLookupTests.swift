import Foundation
import Testing
import SilkGeometry
@testable import SilkNodes

/// `activeFocusTrap(in:)` runs on every key press; it reads the nodes that trap (`FocusTraps`)
/// instead of walking the tree. These check it against the walk it replaced, on seeded random
/// trees, and that the list follows `trapsFocus`, node lifetimes and tree moves.
@Suite struct FocusTrapLookupTests {
    /// The reference: the whole-tree walk (the last shown trap in tree order).
    static func walkedTrap(in root: DisplayNode) -> DisplayNode? {
        var found: DisplayNode?
        func walk(_ n: DisplayNode) {
            guard !n.isHidden else { return }
            if n.trapsFocus { found = n }
            for c in n.subnodes { walk(c) }
        }
        walk(root)
        return found
    }

    /// A small deterministic generator (SplitMix64), so a failure names its seed.
    struct SplitMix { var state: UInt64; mutating func next(_ n: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9; z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(n))
    } }

    @Test(arguments: 1...40) func matchesTheTreeWalkOnRandomTrees(seed: Int) {
        var rng = SplitMix(state: UInt64(seed))
        let root = DisplayNode()
        var nodes = [root]
        for _ in 0..<200 {
            let n = DisplayNode()
            nodes[rng.next(nodes.count)].addSubnode(n)
            nodes.append(n)
        }
        let other = DisplayNode()   // another window's tree: its traps never count here
        other.addSubnode(DisplayNode())
        other.subnodes[0].trapsFocus = true
        for step in 0..<30 {
            let n = nodes[rng.next(nodes.count)]
            switch rng.next(4) {
            case 0: n.trapsFocus.toggle()
            case 1: n.isHidden.toggle()
            case 2 where n !== root:
                // Moves a subtree under a node outside it (reordering tree order).
                let target = nodes[rng.next(nodes.count)]
                if target !== n && !target.isDescendant(of: n) { target.insertSubnode(n, at: rng.next(target.subnodes.count + 1)) }
            default: n.trapsFocus = true
            }
            #expect(activeFocusTrap(in: root) === Self.walkedTrap(in: root), "seed \(seed), step \(step)")
            let sub = nodes[rng.next(nodes.count)]
            #expect(activeFocusTrap(in: sub) === Self.walkedTrap(in: sub), "seed \(seed), step \(step), subtree")
        }
        #expect(activeFocusTrap(in: other) === other.subnodes[0])
        for n in nodes + [other.subnodes[0]] { n.trapsFocus = false }
        #expect(activeFocusTrap(in: root) == nil)
    }

    @Test func aTrapThatGoesAwayLeavesTheList() {
        let root = DisplayNode()
        do {
            let modal = DisplayNode()
            modal.trapsFocus = true
            root.addSubnode(modal)
            #expect(activeFocusTrap(in: root) === modal)
            modal.removeFromSupernode()
        }
        // Out of the tree it is no longer found (the list holds its nodes weakly).
        #expect(activeFocusTrap(in: root) == nil)
    }

    @Test func aPresentedModalTrapsTheKeysOfTheDispatcher() {
        // Through the dispatcher: Tab cycles inside the trap only.
        let root = DisplayNode()
        root.frame = Rect(x: 0, y: 0, width: 200, height: 200)
        let outside = DisplayNode(), modal = DisplayNode(), inside = [DisplayNode(), DisplayNode()]
        for n in [outside, modal] + inside { n.isFocusable = true; n.frame = Rect(x: 0, y: 0, width: 10, height: 10) }
        modal.isFocusable = false
        root.addSubnode(outside); root.addSubnode(modal)
        for n in inside { modal.addSubnode(n) }
        let dispatcher = InputDispatcher(rootNode: root)
        modal.trapsFocus = true
        #expect(dispatcher.moveFocus(forward: true) === inside[0])
        #expect(dispatcher.moveFocus(forward: true) === inside[1])
        #expect(dispatcher.moveFocus(forward: true) === inside[0])
        modal.trapsFocus = false
        #expect(dispatcher.moveFocus(forward: true) === inside[1])
        #expect(dispatcher.moveFocus(forward: true) === outside)
    }
}
