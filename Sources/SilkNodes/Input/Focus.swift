import Foundation
import SilkGeometry
import SilkSystem

/// How keyboard focus is drawn: a border of this colour and width over the focused node's own
/// border, on its layer (so it moves, clips and scrolls with the node). Set at startup.
/// A node inside a rasterized subtree has no layer and shows no ring.
public enum FocusRing {
    /// The ring's colour (default a clear blue). Set at startup, on the main thread.
    nonisolated(unsafe) public static var color = Color(red: 0.10, green: 0.45, blue: 0.95)
    /// The ring's width in points (default 2). Set at startup, on the main thread.
    nonisolated(unsafe) public static var width = 2.0
}

/// The nodes keyboard focus visits, in tree order (depth first, a node before its subnodes,
/// subnodes first to last): focusable nodes with a non-empty size whose whole ancestry takes
/// touches (not hidden, not transparent, interaction enabled). Main thread.
public func focusChain(in root: DisplayNode) -> [DisplayNode] {
    var out: [DisplayNode] = []
    func walk(_ node: DisplayNode) {
        guard node.isHitTestable else { return }
        if node.isFocusable && !node.bounds.isEmpty { out.append(node) }
        for child in node.subnodes { walk(child) }
    }
    walk(root)
    return out
}

extension InputDispatcher {
    /// Moves keyboard focus to `node` (nil: nowhere). `showsRing`: draw the focus ring (keyboard
    /// navigation does; a touch that focuses a control does not, like CSS `:focus-visible`).
    /// Main thread.
    public func focus(_ node: DisplayNode?, showsRing: Bool = true) {
        let old = focusedNode
        if old === node {
            if let node, node.showsFocusRing != showsRing { node.showsFocusRing = showsRing; node.markDirty() }
            return
        }
        focusedNode = node
        if let old {
            if old.showsFocusRing { old.showsFocusRing = false; old.markDirty() }
            old.didResignFocus()
            old.setAccessibilityStates(.focused, false)
        }
        if let node {
            node.showsFocusRing = showsRing
            node.markDirty()
            node.didBecomeFocused()
            node.setAccessibilityStates(.focused, true)
            AccessibilityNotifications.post(.focus, for: node)
        }
    }

    /// Moves focus to the next (or previous) node of the focus chain, wrapping around; from no
    /// focus, to the first (or last). Returns the newly focused node.
    ///
    /// While a node that `trapsFocus` is shown, the chain is that node's alone (focus cycles
    /// inside a modal dialog and never reaches the screen behind it).
    @discardableResult
    public func moveFocus(forward: Bool) -> DisplayNode? {
        let scope = activeFocusTrap(in: rootNode) ?? rootNode
        let chain = focusChain(in: scope)
        guard !chain.isEmpty else { focus(nil); return nil }
        let next: DisplayNode
        if let current = focusedNode, let i = chain.firstIndex(where: { $0 === current }) {
            next = chain[(i + (forward ? 1 : chain.count - 1)) % chain.count]
        } else if let current = focusedNode, current.isDescendant(of: scope) {
            // Focus sits on a node that left the chain (disabled, hidden): continue from its place
            // in tree order.
            let order = treeOrder(scope)
            let pos = order.firstIndex { $0 === current } ?? 0
            let after = chain.first { n in (order.firstIndex { $0 === n } ?? 0) > pos }
            let before = chain.last { n in (order.firstIndex { $0 === n } ?? 0) < pos }
            next = forward ? (after ?? chain[0]) : (before ?? chain[chain.count - 1])
        } else {
            next = forward ? chain[0] : chain[chain.count - 1]
        }
        focus(next, showsRing: true)
        return next
    }
}

/// The shown node that traps focus, frontmost first (the last in tree order, skipping hidden
/// subtrees), or nil. Looked up from the nodes that trap (`FocusTraps`), usually none or one, so
/// a key press costs their depth rather than a walk of the whole tree. Main thread.
func activeFocusTrap(in root: DisplayNode) -> DisplayNode? {
    var best: (node: DisplayNode, path: [Int])?
    for trap in FocusTraps.current() {
        guard let path = shownPath(of: trap, under: root) else { continue }
        // Tree order is the lexicographic order of index paths (an ancestor's is a prefix).
        if best.map({ $0.path.lexicographicallyPrecedes(path) }) ?? true { best = (trap, path) }
    }
    return best?.node
}

/// `node`'s subnode indexes from `root` down, or nil when it is not under `root` or a node on
/// the way (itself and `root` included) is hidden.
private func shownPath(of node: DisplayNode, under root: DisplayNode) -> [Int]? {
    var path: [Int] = []
    var n = node
    while true {
        if n.isHidden { return nil }
        if n === root { return path.reversed() }
        guard let parent = n.supernode, let i = parent.subnodes.firstIndex(where: { $0 === n }) else { return nil }
        path.append(i)
        n = parent
    }
}

/// The nodes whose `trapsFocus` is on, in every tree (weakly held: a modal that goes away
/// leaves). `DisplayNode.trapsFocus` keeps it; the dispatcher reads it on each key press.
enum FocusTraps {
    private struct Entry { weak var node: DisplayNode? }
    private static let entries = Locked<[Entry]>([])

    /// Adds or removes `node` (its `trapsFocus` changed). Any thread.
    static func update(_ node: DisplayNode, trapping: Bool) {
        entries.withLock { list in
            list.removeAll { $0.node == nil || $0.node === node }
            if trapping { list.append(Entry(node: node)) }
        }
    }

    /// The live nodes that trap focus now. Any thread.
    static func current() -> [DisplayNode] {
        entries.withLock { list in list.compactMap { $0.node }.filter { $0.trapsFocus } }
    }
}

extension DisplayNode {
    /// The input dispatcher of the tree this node is in (its root's), nil outside a dispatched
    /// tree. Main thread.
    var inputDispatcher: InputDispatcher? {
        var n: DisplayNode = self
        while let up = n.supernode { n = up }
        return n.hostingDispatcher
    }
}

private func treeOrder(_ root: DisplayNode) -> [DisplayNode] {
    var out: [DisplayNode] = []
    func walk(_ n: DisplayNode) { out.append(n); for c in n.subnodes { walk(c) } }
    walk(root)
    return out
}
