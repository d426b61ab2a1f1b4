import Foundation
import Testing
import SilkGeometry
import SilkLayout
import SilkRaster
import SilkRender
@testable import SilkNodes

/// A node that fills its bounds with a colour, optionally waiting on a gate first (to hold a
/// job mid-draw) and counting its draws.
final class ColorNode: DisplayNode, @unchecked Sendable {
    struct Params: Sendable { let color: Color; let gate: Gate?; let counter: Counter? }
    private var _color: Color
    let gate: Gate?
    let counter = Counter()
    init(_ color: Color, size: Size = Size(width: 20, height: 10), gate: Gate? = nil) {
        _color = color
        self.gate = gate
        super.init()
        style.width = .points(size.width)
        style.height = .points(size.height)
    }
    var color: Color {
        get { lock.withLock { _color } }
        set { lock.withLock { _color = newValue }; setNeedsDisplay() }
    }
    override class var drawsContent: Bool { true }
    override func drawParameters() -> (any Sendable)? { Params(color: color, gate: gate, counter: counter) }
    override class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {
        guard let p = parameters as? Params else { return }
        p.gate?.pass()
        p.counter?.increment()
        context.canvas.fill(context.bounds, with: .color(p.color))
    }
}

final class Counter: @unchecked Sendable {
    private let lock = Lock(); private var n = 0
    func increment() { lock.lock(); n += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return n }
}

/// Blocks drawing threads until opened.
final class Gate: @unchecked Sendable {
    private let cond = NSCondition(); private var open = false; private var waiting = 0
    func pass() { cond.lock(); waiting += 1; cond.broadcast(); while !open { cond.wait() }; cond.unlock() }
    func openGate() { cond.lock(); open = true; cond.broadcast(); cond.unlock() }
    func waitForWaiters(_ n: Int) { cond.lock(); while waiting < n { cond.wait() }; cond.unlock() }
}

/// Drives a NodePass the way the main loop does, on the test's thread.
struct Harness {
    let host = Layer()
    let pass: NodePass
    /// How long `iterate(until:)` waits at most (it only keeps a broken build from hanging), and
    /// the pause between its iterations.
    let timeout: TimeInterval, pause: useconds_t
    init(root: DisplayNode, size: Size = Size(width: 100, height: 60), timeout: TimeInterval = 5, pause: useconds_t = 1000) {
        host.frame = Rect(size: size)
        pass = NodePass(rootNode: root, hostLayer: host, size: size, scale: 1)
        self.timeout = timeout
        self.pause = pause
    }
    /// One loop iteration: node pass, then the committer.
    func iterate() { pass.run(); pass.committer.commit() }
    /// Iterates until `condition` or `timeout`.
    func iterate(until condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !condition() {
            iterate()
            if Date() > deadline { return false }
            usleep(pause)
        }
        return true
    }
    func pixel(_ node: DisplayNode, _ x: Int, _ y: Int) -> UInt32? { node.layer?.contents?.argb32(x: x, y: y) }
}

@Suite(.serialized) struct PipelineTests {
    init() { NodeScheduler.shared.synchronousDisplay = false }

    /// A spec that sets its children's styles while it is laid out (the kiosk's tiles size their
    /// photo to the constrained size) must not ask for another layout when nothing changed:
    /// before, every layout asked for the next and the kiosk demo spun the main loop at full CPU.
    @Test func settingAStyleToItsValueDoesNotRelayout() {
        let root = DisplayNode()
        let child = ColorNode(.red)
        root.addSubnode(child)
        root.layoutSpecBlock = { _, range in
            child.updateStyle { $0.width = .points(range.max.width / 2); $0.height = .points(10) }
            return WrapperLayoutSpec(child)
        }
        let h = Harness(root: root)
        #expect(h.iterate(until: { h.pass.isDisplayComplete }), "a layout that changed nothing asked for another")
        let layouts = h.pass.statistics.layouts
        for _ in 0..<5 { h.iterate() }
        #expect(h.pass.statistics.layouts == layouts)
        child.updateStyle { $0.height = .points(20) }  // a real change still relays out
        #expect(h.pass.hasPendingWork)
    }

    @Test func layoutSpecPositionsSubnodesAndLayersFollow() {
        let root = DisplayNode()
        let a = ColorNode(.red), b = ColorNode(.blue, size: Size(width: 30, height: 10))
        root.addSubnode(a); root.addSubnode(b)
        root.layoutSpecBlock = { _, _ in
            StackLayoutSpec(direction: .horizontal, spacing: 5, children: [a, b])
        }
        let h = Harness(root: root)
        h.iterate()
        #expect(a.frame == Rect(x: 0, y: 0, width: 20, height: 10))
        #expect(b.frame == Rect(x: 25, y: 0, width: 30, height: 10))
        #expect(b.layer?.frame == b.frame)
        #expect(root.layer?.sublayers.count == 2)
    }

    @Test func asynchronousDisplayPublishesThroughTheCommitter() {
        let root = DisplayNode()
        let gate = Gate()
        let a = ColorNode(.green, gate: gate)
        root.addSubnode(a)
        root.layoutSpecBlock = { _, _ in WrapperLayoutSpec(a) }
        let h = Harness(root: root)
        h.iterate()
        // The job is held on a display queue: the main thread went on without contents.
        gate.waitForWaiters(1)
        #expect(a.layer?.contents == nil)
        gate.openGate()
        #expect(h.iterate(until: { a.layer?.contents != nil }))
        #expect(h.pixel(a, 5, 5) == 0xff00_ff00)
    }

    @Test func redrawMidDrawNeverShowsTheStaleResult() {
        let root = DisplayNode()
        let gate = Gate()
        let a = ColorNode(.red, gate: gate)
        root.addSubnode(a)
        root.layoutSpecBlock = { _, _ in WrapperLayoutSpec(a) }
        let h = Harness(root: root)
        h.iterate()
        gate.waitForWaiters(1)          // the red job is mid-draw
        a.color = .blue                 // redraw: the red job's sentinel is stale now
        h.iterate()                     // the blue job starts (and waits at the gate too)
        gate.openGate()
        #expect(h.iterate(until: { h.pixel(a, 1, 1) == 0xff00_00ff && h.pass.committer.statistics.cancelledResults >= 1 }))
        #expect(h.pass.committer.statistics.cancelledResults >= 1)
        #expect(h.pixel(a, 1, 1) == 0xff00_00ff)
    }

    @Test func removalCancelsTheRunningJob() {
        let root = DisplayNode()
        let gate = Gate()
        let a = ColorNode(.red, gate: gate)
        root.addSubnode(a)
        let h = Harness(root: root)
        a.frame = Rect(x: 0, y: 0, width: 20, height: 10)
        h.iterate()
        gate.waitForWaiters(1)
        a.removeFromSupernode()
        gate.openGate()
        #expect(h.iterate(until: { h.pass.committer.statistics.cancelledResults >= 1 }))
        #expect(a.layer?.contents == nil)
    }

    @Test func rasterizedSubtreeIsOneBitmapInOneJob() {
        let root = DisplayNode()
        let card = DisplayNode()
        card.rasterizesSubtree = true
        card.backgroundColor = .white
        let a = ColorNode(.red), b = ColorNode(.blue)
        card.addSubnode(a); card.addSubnode(b)
        card.layoutSpecBlock = { _, _ in StackLayoutSpec(direction: .vertical, children: [a, b]) }
        root.addSubnode(card)
        root.layoutSpecBlock = { _, _ in WrapperLayoutSpec(card) }
        let h = Harness(root: root)
        #expect(h.iterate(until: { card.layer?.contents != nil }))
        #expect(a.layer == nil && b.layer == nil)
        #expect(card.layer?.sublayers.isEmpty == true)
        #expect(h.pixel(card, 5, 5) == 0xffff_0000)
        #expect(h.pixel(card, 5, 15) == 0xff00_00ff)
        #expect(a.counter.value == 1 && b.counter.value == 1)
    }

    /// The pass applies the nodes that changed (and walks the way to them), not the whole tree:
    /// a colour set on one of 200 tiles costs three nodes, a scroll offset one. New nodes are
    /// applied whole, and what changed reaches the layers in the same pass.
    @Test func thePassAppliesOnlyWhatChanged() {
        let root = DisplayNode()
        let columns = (0..<10).map { _ in DisplayNode() }
        var tiles: [ColorNode] = []
        for (i, column) in columns.enumerated() {
            root.addSubnode(column)
            column.frame = Rect(x: Double(i) * 10, y: 0, width: 10, height: 60)
            for j in 0..<20 {
                let t = ColorNode(.red); tiles.append(t); column.addSubnode(t)
                t.frame = Rect(x: 0, y: Double(j) * 3, width: 10, height: 3)
            }
        }
        let h = Harness(root: root)
        #expect(h.iterate(until: { h.pass.isDisplayComplete }))
        #expect(tiles.allSatisfy { $0.layer != nil })
        tiles[57].backgroundColor = .blue
        h.pass.run()
        #expect(h.pass.nodesAppliedInLastWalk == 1, "root and column are on the way, only the tile is applied")
        #expect(tiles[57].layer?.backgroundColor == .blue)
        // Changes made by the pass's own blocks reach the layers in that pass.
        NodeScheduler.shared.enqueueForNextPass(owner: root) { columns[3].boundsOrigin = Point(x: 0, y: 7) }
        h.pass.run()
        #expect(columns[3].layer?.bounds.origin == Point(x: 0, y: 7))
        #expect(h.pass.nodesAppliedInLastWalk == 1)
        // A new subtree is applied whole and joins its parent's sublayers.
        let column = DisplayNode(), leaf = ColorNode(.green)
        column.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        leaf.frame = column.frame
        column.addSubnode(leaf)
        columns[9].addSubnode(column)
        #expect(h.iterate(until: { leaf.layer?.contents != nil }))
        #expect(columns[9].layer?.sublayers.last === column.layer && column.layer?.sublayers.first === leaf.layer)
        // Rasterizing a column drops its tiles' layers; un-rasterizing brings them back.
        columns[0].rasterizesSubtree = true
        #expect(h.iterate(until: { columns[0].layer?.contents != nil }))
        #expect(tiles[0..<20].allSatisfy { $0.layer == nil } && columns[0].layer?.sublayers.isEmpty == true)
        columns[0].rasterizesSubtree = false
        #expect(h.iterate(until: { h.pass.isDisplayComplete && tiles[0].layer?.contents != nil }))
        #expect(columns[0].layer?.sublayers.count == 20)
        // Nothing changed: no pass at all.
        #expect(!h.pass.run())
    }

    /// The committer's stale check tells a result that made itself stale (applying it redrew
    /// the node on the main thread: a bug, `staleApplied`) from one another thread invalidated
    /// meanwhile (an image arriving: `invalidatedWhileApplying`, redrawn at the next pass).
    @Test func aResultThatRedrawsItselfIsStaleAnotherThreadsRedrawIsARace() {
        final class ApplyHookNode: DisplayNode, @unchecked Sendable {
            enum Action { case none, redrawHere, redrawFromAnotherThread }
            var action = Action.none
            let draws = Counter()
            override class var drawsContent: Bool { true }
            override func drawParameters() -> (any Sendable)? { draws }
            override class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {
                (parameters as? Counter)?.increment()
                context.canvas.fill(context.bounds, with: .color(.red))
            }
            override func didApplyDisplayResult() {
                super.didApplyDisplayResult()
                let a = action
                action = .none
                switch a {
                case .none: break
                case .redrawHere: setNeedsDisplay()
                case .redrawFromAnotherThread:
                    let done = DispatchSemaphore(value: 0)
                    Thread { self.setNeedsDisplay(); done.signal() }.start()
                    done.wait()
                }
            }
        }
        for action in [ApplyHookNode.Action.redrawHere, .redrawFromAnotherThread] {
            let root = DisplayNode()
            let node = ApplyHookNode()
            node.action = action
            node.frame = Rect(x: 0, y: 0, width: 10, height: 10)
            root.addSubnode(node)
            let h = Harness(root: root)
            #expect(h.iterate(until: { node.draws.value >= 2 && h.pass.isDisplayComplete }), "the node draws again at the next pass")
            let stats = h.pass.committer.statistics
            if action == .redrawHere {
                #expect(stats.staleApplied == 1 && stats.invalidatedWhileApplying == 0)
            } else {
                #expect(stats.staleApplied == 0 && stats.invalidatedWhileApplying == 1)
            }
        }
    }

    @Test func transactionContainerAppearsInOneCommit() {
        let root = DisplayNode()
        let cell = DisplayNode()
        cell.isTransactionContainer = true
        let fastGate = Gate(), slowGate = Gate()
        let fast = ColorNode(.red, gate: fastGate), slow = ColorNode(.blue, gate: slowGate)
        cell.addSubnode(fast); cell.addSubnode(slow)
        cell.layoutSpecBlock = { _, _ in StackLayoutSpec(direction: .vertical, children: [fast, slow]) }
        root.addSubnode(cell)
        root.layoutSpecBlock = { _, _ in WrapperLayoutSpec(cell) }
        let h = Harness(root: root)
        h.iterate()
        fastGate.openGate()
        // The fast child has finished, but its container is still waiting for the slow one.
        Thread.sleep(forTimeInterval: 0.05)
        h.iterate(); h.iterate()
        #expect(fast.layer?.contents == nil)
        slowGate.openGate()
        #expect(h.iterate(until: { fast.layer?.contents != nil }))
        #expect(slow.layer?.contents != nil)
    }

    @Test func synchronousModeDrawsDuringThePass() {
        NodeScheduler.shared.synchronousDisplay = true
        defer { NodeScheduler.shared.synchronousDisplay = false }
        let root = DisplayNode()
        let a = ColorNode(.red)
        root.addSubnode(a)
        root.layoutSpecBlock = { _, _ in WrapperLayoutSpec(a) }
        let h = Harness(root: root)
        h.iterate()
        #expect(h.pixel(a, 1, 1) == 0xffff_0000)
    }

    @Test func neverShowPlaceholdersWaitsForTheSubtree() {
        let root = DisplayNode()
        let cell = DisplayNode()
        cell.neverShowPlaceholders = true
        let children = (0..<6).map { ColorNode(Color(red: Double($0) / 6, green: 0, blue: 1)) }
        for c in children { cell.addSubnode(c) }
        cell.layoutSpecBlock = { _, _ in StackLayoutSpec(direction: .vertical, children: children) }
        root.addSubnode(cell)
        root.layoutSpecBlock = { _, _ in WrapperLayoutSpec(cell) }
        let h = Harness(root: root)
        h.iterate()   // one iteration: everything drawn concurrently, waited for, committed
        #expect(children.allSatisfy { $0.layer?.contents != nil })
    }

    @Test func interfaceStateCallbacksRunOnEnterAndExit() {
        final class Watcher: DisplayNode, @unchecked Sendable {
            let log = Locked<[String]>([])
            override func didEnterVisibleState() { log.withLock { $0.append("visible+") } }
            override func didExitVisibleState() { log.withLock { $0.append("visible-") } }
            override func didEnterDisplayState() { log.withLock { $0.append("display+") } }
            override func didExitDisplayState() { log.withLock { $0.append("display-") } }
        }
        let root = DisplayNode()
        let w = Watcher()
        root.addSubnode(w)
        let h = Harness(root: root)
        h.iterate()
        #expect(w.interfaceState == .inHierarchy)
        w.setInterfaceState([.measureLayout, .preload])
        #expect(w.log.current == ["display+", "visible+", "visible-", "display-"])
    }
}
