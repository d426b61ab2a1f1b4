import Foundation
import Testing
import SilkGeometry
import SilkRender
import SilkSystem
@testable import SilkNodes

/// Two node passes on two threads — what parallel tests do, each with its own tree: a node's
/// pass-thread work (interface-state callbacks, `performOnPassThread`) must run on the thread of
/// the pass showing it. When the scheduler had one global "latest" pass thread, the other
/// test's pass took this tree's work and ran it on its own thread while this thread laid the
/// same tree out: a rare crash in `RightToLeftDemoTests.rainforestGolden` under parallel runs.
/// In the ThreadSanitizer run too (`make test-tsan`'s filter matches `ConcurrencyTests`).
@Suite struct PassThreadConcurrencyTests {
    /// Records the thread of every display-state callback.
    final class Probe: DisplayNode, @unchecked Sendable {
        let calls = Locked<[pthread_t]>([])
        override func didEnterDisplayState() { calls.withLock { $0.append(pthread_self()) } }
        override func didExitDisplayState() { calls.withLock { $0.append(pthread_self()) } }
    }

    /// One side: a tree, its pass, created and run on one dedicated thread.
    final class Side: @unchecked Sendable {
        let root = DisplayNode()
        let host = Layer()
        var pass: NodePass!
        var thread: pthread_t = 0
        func start() {
            thread = pthread_self()
            host.frame = Rect(size: Size(width: 40, height: 40))
            pass = NodePass(rootNode: root, hostLayer: host, size: Size(width: 40, height: 40), scale: 1)
            pass.run(); pass.committer.commit()
        }
    }

    /// Runs `body` on a new thread and waits for it.
    static func onNewThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread { body(); done.signal() }
        done.wait()
    }

    @Test func nodeWorkRunsInlineOnItsPassThreadAfterAnotherPassTookTheGlobalOne() {
        let a = Side(), b = Side()
        let probe = Probe()
        let ran = Locked(false)
        Self.onNewThread {
            a.start()
            // Another test's pass starts on another thread: it is now the latest pass thread.
            Self.onNewThread { b.start() }
            // Back on A's thread, a node added to A's tree gets its callbacks here, right away,
            // and so does work it asks for.
            a.root.addSubnode(probe)
            probe.performOnPassThread { ran.withLock { $0 = true } }
        }
        #expect(ran.current, "work for a node of A's tree ran inline on A's pass thread")
        let calls = probe.calls.current
        #expect(calls.count == 1 && calls.allSatisfy { pthread_equal($0, a.thread) != 0 })
        // B's pass finds nothing of A's to run.
        Self.onNewThread { b.pass.run() }
        #expect(probe.calls.current.count == 1)
    }

    @Test func twoPassesOnTwoThreadsRunOnlyTheirOwnNodesWork() {
        let sides = [Side(), Side()]
        let iterations = 300
        let probes = sides.map { _ in Probe() }
        let group = DispatchGroup()
        let started = DispatchGroup()
        for (i, side) in sides.enumerated() {
            group.enter(); started.enter()
            Thread.detachNewThread {
                side.start()
                started.leave()
                started.wait()   // both passes exist before either starts churning
                let probe = probes[i]
                for _ in 0..<iterations {
                    side.root.addSubnode(probe)
                    side.pass.run(); side.pass.committer.commit()
                    probe.removeFromSupernode()
                    side.pass.run(); side.pass.committer.commit()
                }
                // Whatever is still queued for this tree is drained by its own pass.
                for _ in 0..<5 { side.pass.run(); side.pass.committer.commit() }
                group.leave()
            }
        }
        group.wait()
        for (side, probe) in zip(sides, probes) {
            let calls = probe.calls.current
            let foreign = calls.filter { pthread_equal($0, side.thread) == 0 }.count
            #expect(foreign == 0, "\(foreign) of \(calls.count) display-state callbacks ran on the other pass's thread")
            #expect(calls.count == 2 * iterations)
        }
    }
}
