import Foundation
import Testing
import SilkGeometry
import SilkLayout
import SilkRaster
import SilkRender
import SilkSystem
@testable import SilkNodes

/// Records hook calls in order, each with whether it ran on the expected (pass) thread.
final class HookLog: @unchecked Sendable {
    private let entries = Locked<[(String, Bool)]>([])
    let thread = pthread_self()
    func record(_ s: String) { entries.withLock { $0.append((s, pthread_equal(pthread_self(), thread) != 0)) } }
    var events: [String] { entries.withLock { $0.map(\.0) } }
    var allOnPassThread: Bool { entries.withLock { $0.allSatisfy(\.1) } }
    func index(_ s: String) -> Int? { events.firstIndex(of: s) }
}

/// A node that draws a colour and records every lifecycle hook. `gateOnce`: the first draw
/// waits at the gate (holding a job on a display queue), later ones do not.
final class HookNode: DisplayNode, @unchecked Sendable {
    struct Params: Sendable { let gate: Gate?; let drawOrder: Locked<[String]>?; let name: String }
    let log: HookLog
    private var _gate: Gate?
    var drawOrder: Locked<[String]>?
    init(_ name: String, log: HookLog, size: Size = Size(width: 20, height: 10), gateOnce: Gate? = nil) {
        self.log = log
        _gate = gateOnce
        super.init()
        self.name = name
        style.width = .points(size.width)
        style.height = .points(size.height)
    }
    override class var drawsContent: Bool { true }
    override func drawParameters() -> (any Sendable)? {
        let gate = lock.withLock { () -> Gate? in defer { _gate = nil }; return _gate }
        return Params(gate: gate, drawOrder: drawOrder, name: debugName)
    }
    override class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {
        guard let p = parameters as? Params else { return }
        p.gate?.pass()
        p.drawOrder?.withLock { $0.append(p.name) }
        context.canvas.fill(context.bounds, with: .color(.red))
    }
    override func didLoad() { log.record("\(debugName).didLoad\(layer == nil ? " (no layer!)" : "")") }
    override func didEnterHierarchy() { log.record("\(debugName).enter") }
    override func didExitHierarchy() { log.record("\(debugName).exit") }
    override func displayWillStart() { log.record("\(debugName).willStart") }
    override func displayDidFinish() { log.record("\(debugName).didFinish") }
    override func hierarchyDisplayDidFinish() { log.record("\(debugName).hierarchyDidFinish") }
}

@Suite(.serialized) struct LifecycleHookTests {
    init() { NodeScheduler.shared.synchronousDisplay = false }

    @Test func firstDisplayCallsHooksInOrderOnThePassThread() {
        let log = HookLog()
        let root = HookNode("root", log: log, size: Size(width: 100, height: 60))
        let child = HookNode("child", log: log)
        root.addSubnode(child)
        root.layoutSpecBlock = { _, _ in WrapperLayoutSpec(child) }
        let h = Harness(root: root)
        #expect(h.iterate(until: { h.pass.isDisplayComplete }))
        for name in ["root", "child"] {
            let order = ["didLoad", "enter", "willStart", "didFinish"].map { log.index("\(name).\($0)") }
            #expect(order.allSatisfy { $0 != nil }, "\(name): \(log.events)")
            #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted(), "\(name): \(log.events)")
        }
        #expect(log.index("root.didLoad")! < log.index("child.didLoad")!)
        #expect(log.allOnPassThread)
        #expect(root.isInHierarchy && child.isInHierarchy)
    }

    @Test func removalExitsTheHierarchyAtTheNextPassAndDidLoadRunsOnce() {
        let log = HookLog()
        let root = DisplayNode()
        let child = HookNode("child", log: log)
        root.addSubnode(child)
        let h = Harness(root: root)
        #expect(h.iterate(until: { h.pass.isDisplayComplete }))
        child.removeFromSupernode()
        #expect(log.index("child.exit") == nil, "exit waits for the pass")
        h.iterate()
        #expect(log.index("child.exit") != nil)
        #expect(!child.isInHierarchy)
        root.addSubnode(child)
        #expect(h.iterate(until: { h.pass.isDisplayComplete }))
        #expect(log.events.filter { $0 == "child.didLoad" }.count == 1, "\(log.events)")
        #expect(log.events.filter { $0 == "child.enter" }.count == 2, "\(log.events)")
        #expect(log.allOnPassThread)
    }

    @Test func setNeedsDisplayCompletionRunsAfterTheNewContentsAreOnTheLayer() throws {
        let log = HookLog()
        let gate = Gate()
        let node = HookNode("n", log: log, gateOnce: gate)
        let root = DisplayNode()
        root.addSubnode(node)
        root.layoutSpecBlock = { _, _ in WrapperLayoutSpec(node) }
        let h = Harness(root: root)
        h.iterate()                                   // the first job waits at the gate
        gate.waitForWaiters(1)
        let calls = Locked(0)
        node.setNeedsDisplay { [log] in calls.withLock { $0 += 1 }; log.record("completion") }
        h.iterate()                                   // a second job starts (not gated)
        gate.openGate()
        #expect(h.iterate(until: { h.pass.isDisplayComplete && calls.withLock { $0 } > 0 }))
        for _ in 0..<3 { h.iterate() }
        #expect(calls.withLock { $0 } == 1)
        let finish = try #require(log.events.lastIndex(of: "n.didFinish"))
        #expect(log.index("completion")! > finish, "\(log.events)")
        #expect(node.layer?.contents != nil)
        #expect(log.allOnPassThread)

        // A node that draws nothing completes at the next pass.
        let plain = DisplayNode()
        root.addSubnode(plain)
        let plainDone = Locked(false)
        plain.setNeedsDisplay { plainDone.withLock { $0 = true } }
        h.iterate()
        #expect(plainDone.withLock { $0 })
    }

    @Test func hierarchyDisplayDidFinishFollowsTheWholeContainerSubtree() {
        let log = HookLog()
        let container = HookNode("card", log: log, size: Size(width: 60, height: 30))
        container.isTransactionContainer = true
        let a = HookNode("a", log: log), b = HookNode("b", log: log)
        container.addSubnode(a); container.addSubnode(b)
        container.layoutSpecBlock = { _, _ in StackLayoutSpec(direction: .horizontal, children: [a, b]) }
        let root = DisplayNode()
        root.addSubnode(container)
        root.layoutSpecBlock = { _, _ in WrapperLayoutSpec(container) }
        let h = Harness(root: root)
        #expect(h.iterate(until: { h.pass.isDisplayComplete }))
        let done = log.events.filter { $0 == "card.hierarchyDidFinish" }
        #expect(done.count == 1, "\(log.events)")
        let at = log.index("card.hierarchyDidFinish")!
        #expect(["a.didFinish", "b.didFinish", "card.didFinish"].allSatisfy { (log.index($0) ?? .max) < at }, "\(log.events)")
        #expect(log.allOnPassThread)
    }

    @Test func displayQueuesRunHigherDrawingPriorityFirst() {
        let pool = DisplayQueuePool(count: 1)
        let gate = Gate()
        let order = Locked<[String]>([])
        pool.async(priority: 0) { gate.pass() }
        gate.waitForWaiters(1)
        let done = DispatchGroup()
        for (name, priority) in [("low", -1), ("zero1", 0), ("high1", 5), ("mid", 1), ("zero2", 0), ("high2", 5)] {
            done.enter()
            pool.async(priority: priority) { order.withLock { $0.append(name) }; done.leave() }
        }
        gate.openGate()
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(order.withLock { $0 } == ["high1", "high2", "mid", "zero1", "zero2", "low"])
    }

    /// The node pass hands each node's `drawingPriority` to the queues: with every queue busy,
    /// the waiting jobs of a pass start highest first, not in tree order.
    @Test func nodePassStartsJobsByDrawingPriority() {
        let pool = DisplayQueuePool.shared
        let blocker = Gate()
        for _ in pool.queues { pool.async(priority: .max) { blocker.pass() } }
        blocker.waitForWaiters(pool.queues.count)
        let log = HookLog()
        let order = Locked<[String]>([])
        let root = DisplayNode()
        var nodes: [HookNode] = []
        for (name, priority) in [("photo", -5), ("body", 0), ("headline", 10)] {
            let n = HookNode(name, log: log)
            n.drawingPriority = priority
            n.drawOrder = order
            root.addSubnode(n)
            nodes.append(n)
        }
        root.layoutSpecBlock = { node, _ in StackLayoutSpec(direction: .vertical, children: node.subnodes) }
        let h = Harness(root: root)
        h.iterate()                                   // three jobs wait behind the blockers
        blocker.openGate()
        #expect(h.iterate(until: { h.pass.isDisplayComplete }))
        #expect(order.withLock { $0 } == ["headline", "body", "photo"])
    }

    @Test func ensureDisplaySynchronouslyDrawsTheSubtreeBeforeReturning() {
        let log = HookLog()
        let gate = Gate()
        let slow = HookNode("slow", log: log, gateOnce: gate)
        let fresh = HookNode("fresh", log: log)
        let screen = DisplayNode()
        screen.addSubnode(slow); screen.addSubnode(fresh)
        screen.layoutSpecBlock = { node, _ in StackLayoutSpec(direction: .vertical, children: node.subnodes) }
        let root = DisplayNode()
        root.addSubnode(screen)
        root.layoutSpecBlock = { _, _ in WrapperLayoutSpec(screen) }
        let h = Harness(root: root)
        h.iterate()                                   // both jobs go to the queues; "slow" waits
        gate.waitForWaiters(1)
        screen.recursivelyEnsureDisplaySynchronously()
        #expect(slow.layer?.contents != nil, "the job still on a queue was drawn again here")
        #expect(fresh.layer?.contents != nil)
        #expect(h.pass.statistics.synchronousDraws >= 2)
        gate.openGate()
        #expect(h.iterate(until: { h.pass.isDisplayComplete }))
        #expect(h.pass.committer.statistics.cancelledResults >= 1, "the queue's stale result was dropped")
        #expect(log.allOnPassThread)

        // A node in no window: nothing to do, no crash.
        HookNode("orphan", log: log).recursivelyEnsureDisplaySynchronously()
    }
}
