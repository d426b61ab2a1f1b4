import Foundation
import SilkSystem

/// Collects what changed between node passes: dirty nodes, trees that need layout, and work
/// that must run on the pass thread. Any thread may report; the pass thread (the main loop's,
/// or a test's) drains it. Reports wake the loop through `wakeUp`, so repeated changes coalesce
/// into one pass (YYTransaction's idea).
///
/// One instance routes for every window: each window's `NodePass` takes only its own tree's work
/// (`takeWork(root:pass:)`), so windows never see each other's nodes. It is internal — apps reach
/// the pass thread through `DisplayNode.performOnPassThread` and learn that a screen is shown
/// through `Window.whenDisplayed` — in the way Texture keeps its run-loop queues private.
final class NodeScheduler: @unchecked Sendable {
    static let shared = NodeScheduler()

    private let lock = Lock()
    private var dirty: [ObjectIdentifier: DisplayNode] = [:]
    private var layoutRoots: [ObjectIdentifier: DisplayNode] = [:]
    /// Blocks for the pass thread, each with the node it works on when known: a block with an
    /// owner goes only to the pass showing the owner's tree (or to any pass when no live pass
    /// shows it), so two passes on two threads (tests) never run one container's work at once.
    private var passBlocks: [PassBlock] = []
    private struct PassBlock {
        weak var owner: DisplayNode?   // weak: a queued block does not keep its container alive
        let body: @Sendable () -> Void
    }
    private var passThreads: [pthread_t] = []
    private var _wakeUp: (@Sendable () -> Void)?
    private var _synchronousDisplay = false

    /// What a new `NodePass` starts with as its `synchronousDisplay` (unit tests set it around
    /// passes they create indirectly, through container harnesses).
    var synchronousDisplay: Bool {
        get { lock.withLock { _synchronousDisplay } }
        set { lock.withLock { _synchronousDisplay = newValue } }
    }

    /// Called when there is work for a pass (set by the window to wake its event loop).
    var wakeUp: (@Sendable () -> Void)? {
        get { lock.withLock { _wakeUp } }
        set { lock.withLock { _wakeUp = newValue } }
    }


    /// Declares the calling thread the pass thread (the window does this on the main loop; a
    /// test driving its own pass does it on its thread; every pass does it again), and, with a
    /// `pass`, the thread of that pass. Work for a node a pass shows runs inline only on that
    /// pass's thread (`isOnPassThread(for:)`); this global "latest wins" thread only decides for
    /// work no pass owns. A pool thread that once ran a test's pass must not run another test's
    /// pass blocks inline later (ThreadSanitizer caught a feed page inserted on a URLSession
    /// thread), hence latest wins rather than a set.
    func adoptCurrentThreadAsPassThread(for pass: NodePass? = nil) {
        let me = pthread_self()
        pass?.thread.withLock { $0 = me }
        lock.withLock {
            if passThreads.count != 1 || pthread_equal(passThreads[0], me) == 0 { passThreads = [me] }
        }
    }

    /// Whether the calling thread is the latest declared pass thread (for work no pass owns).
    var isOnPassThread: Bool {
        let me = pthread_self()
        return lock.withLock { passThreads.contains { pthread_equal($0, me) != 0 } }
    }

    /// Whether work for `owner` may run inline on the calling thread: it is the thread of the
    /// pass that shows `owner`'s tree (or still holds its layer). Two passes on two threads (two
    /// windows' tests in parallel) each run their own nodes' work; the global pass thread,
    /// which the other test may have just taken, decides only for nodes no pass shows. Without
    /// this, a node's interface-state work went to the other test's pass and ran on its thread
    /// while this test's thread was laying out the same tree (a rare crash in the parallel
    /// golden tests). Any thread.
    func isOnPassThread(for owner: DisplayNode?) -> Bool {
        guard let owner, let pass = owner.rootNode.loadedBy ?? owner.loadedBy else { return isOnPassThread }
        return pthread_equal(pass.thread.current, pthread_self()) != 0
    }

    func markDirty(_ node: DisplayNode) {
        let wake = lock.withLock { () -> (@Sendable () -> Void)? in
            let isNew = dirty.updateValue(node, forKey: ObjectIdentifier(node)) == nil
            return isNew ? _wakeUp : nil
        }
        wake?()
    }

    func setNeedsLayout(root: DisplayNode) {
        let wake = lock.withLock { () -> (@Sendable () -> Void)? in
            layoutRoots[ObjectIdentifier(root)] = root
            return _wakeUp
        }
        wake?()
    }

    /// Runs `body` on the pass thread: now when called there, else at the start of the next
    /// pass (a data source inserting items a background fetch brought, say). With an `owner`,
    /// "there" is the thread of the pass showing the owner's tree, and a queued block waits for
    /// that pass (`takeWork`).
    func performOnPassThread(owner: DisplayNode? = nil, _ body: @escaping @Sendable () -> Void) {
        if isOnPassThread(for: owner) { body(); return }
        let wake = lock.withLock { () -> (@Sendable () -> Void)? in passBlocks.append(PassBlock(owner: owner, body: body)); return _wakeUp }
        wake?()
    }

    /// Queues `body` for the start of the next pass even when called on the pass thread
    /// (containers update their ranges once per pass, after the scroll offset changed); with an
    /// `owner`, for the pass that shows the owner's tree.
    func enqueueForNextPass(owner: DisplayNode? = nil, _ body: @escaping @Sendable () -> Void) {
        let wake = lock.withLock { () -> (@Sendable () -> Void)? in passBlocks.append(PassBlock(owner: owner, body: body)); return _wakeUp }
        wake?()
    }

    private var _backgroundWork = 0
    /// Work running off the pass thread that will queue a pass block when done (containers
    /// creating and measuring item nodes). Snapshots wait for it to reach zero.
    var pendingBackgroundWork: Int { lock.withLock { _backgroundWork } }
    func beginBackgroundWork() { lock.withLock { _backgroundWork += 1 } }
    /// Ends background work by queueing its result for the next pass.
    func endBackgroundWork(owner: DisplayNode? = nil, enqueueing body: @escaping @Sendable () -> Void) {
        let wake = lock.withLock { () -> (@Sendable () -> Void)? in
            passBlocks.append(PassBlock(owner: owner, body: body))
            _backgroundWork -= 1
            return _wakeUp
        }
        wake?()
    }

    /// Counts of pending work, for diagnostics.
    var debugWorkSummary: String {
        lock.withLock { "dirty \(dirty.count), layout roots \(layoutRoots.count), blocks \(passBlocks.count)" }
    }

    /// True when `root`'s pass has something to do (dirty nodes of its tree, or layout).
    func hasWork(for root: DisplayNode) -> Bool {
        let (nodes, layout, blocks) = lock.withLock { (Array(dirty.values), layoutRoots[ObjectIdentifier(root)] != nil, !passBlocks.isEmpty) }
        return layout || blocks || nodes.contains { $0.rootNode === root }
    }


    /// Takes the dirty nodes of `root`'s tree (and nodes whose layers `pass` loaded, which may
    /// have left the tree); other trees' stay for their own passes. Dirty nodes no live pass
    /// shows (never shown, or their window is gone) are dropped: attaching them to a window
    /// later marks them again. `takeWork` calls it, and the pass again after its blocks and
    /// layout, so what they dirtied is applied in the same pass.
    func takeDirty(root: DisplayNode, pass: NodePass) -> [DisplayNode] {
        let candidates = lock.withLock { Array(dirty.values) }
        guard !candidates.isEmpty else { return [] }
        // Deciding membership walks supernodes (their locks), so it happens outside ours.
        var mine: [DisplayNode] = [], orphans: [DisplayNode] = []
        for n in candidates {
            let r = n.rootNode
            if r === root || n.loadedBy === pass { mine.append(n) }
            else if r.loadedBy == nil && n.loadedBy == nil { orphans.append(n) }
        }
        lock.withLock { for n in mine + orphans { dirty.removeValue(forKey: ObjectIdentifier(n)) } }
        return mine
    }

    /// Takes the work of one pass: the dirty nodes of `root`'s tree (and nodes whose layers
    /// `pass` loaded, which may have left the tree), `root` if it needs layout, and all queued
    /// blocks. Other trees' work stays for their own passes.
    func takeWork(root: DisplayNode, pass: NodePass) -> (dirty: [DisplayNode], needsLayout: Bool, blocks: [@Sendable () -> Void]) {
        let (layout, queued, roots) = lock.withLock { () -> (Bool, [PassBlock], [DisplayNode]) in
            let b = passBlocks
            passBlocks = []
            let l = layoutRoots.removeValue(forKey: ObjectIdentifier(root)) != nil
            return (l, b, Array(layoutRoots.values))
        }
        // Owned blocks of a tree another live pass shows go back for that pass (deciding walks
        // supernodes, so outside the lock; put back in front, keeping their order).
        var blocks: [@Sendable () -> Void] = [], others: [PassBlock] = []
        for q in queued {
            if let owner = q.owner {
                let r = owner.rootNode
                if r === root || owner.loadedBy === pass || (r.loadedBy == nil && owner.loadedBy == nil) { blocks.append(q.body) }
                else { others.append(q) }
            } else {
                blocks.append(q.body)
            }
        }
        if !others.isEmpty { lock.withLock { passBlocks.insert(contentsOf: others, at: 0) } }
        // Requests from nodes that are no longer roots (configured, then added: adding already
        // requested their real root's layout) or whose tree is in no window (attaching it lays
        // it out anyway) are dropped, so they cannot pile up.
        let orphanRoots = roots.filter { $0 !== root && ($0.supernode != nil || $0.loadedBy == nil) }
        if !orphanRoots.isEmpty {
            lock.withLock { for r in orphanRoots { layoutRoots.removeValue(forKey: ObjectIdentifier(r)) } }
        }
        return (takeDirty(root: root, pass: pass), layout, blocks)
    }
}
