import Foundation
import Testing
import SilkGeometry
import SilkLayout
@testable import SilkNodes

/// 8 threads create, configure and mutate 10,000 nodes while the pass thread runs node passes
/// and commits — the nodes' locks must make this safe. Run under ThreadSanitizer in
/// `make test` (`make test-tsan`); here it also checks that the tree ends consistent.
extension PipelineTests {
    @Suite(.serialized) struct NodeStressTests {
        @Test func eightThreadsMutateTenThousandNodesWhileTheLoopCommits() throws {
            let root = DisplayNode()
            let columns = (0..<8).map { _ in DisplayNode() }
            for c in columns { root.addSubnode(c) }
            root.layoutSpecBlock = { _, _ in StackLayoutSpec(direction: .horizontal, alignItems: .stretch, children: columns) }
            let h = Harness(root: root, size: Size(width: 800, height: 600))
            let created = Counter()
            let done = Locked(0)
            // Threads pause every 250 nodes until the pass thread has run another pass, so
            // mutation and passes are guaranteed to interleave whatever the machine's load.
            let passCount = Locked(0)
            @Sendable func waitForPass(after seen: Int) {
                while passCount.current <= seen { usleep(200) }
            }
            let group = DispatchGroup()
            for t in 0..<8 {
                group.enter()
                Thread.detachNewThread {
                    var mine: [ColorNode] = []
                    for i in 0..<1250 {
                        if i % 250 == 249 { waitForPass(after: passCount.current) }
                        let n = ColorNode(Color(red: Double(t) / 8, green: Double(i % 10) / 10, blue: 0.5), size: Size(width: 4, height: 4))
                        n.opacity = Double(i % 3) / 2
                        n.cornerRadius = Double(i % 4)
                        n.name = "n\(t).\(i)"
                        columns[t].addSubnode(n)
                        mine.append(n)
                        created.increment()
                        // Mutate earlier nodes: redraw, move, reorder, remove some.
                        if i % 7 == 0, let m = mine.randomElement() { m.color = .blue }
                        if i % 11 == 0, let m = mine.randomElement() { m.frame = Rect(x: Double(i % 50), y: Double(i % 70), width: 4, height: 4) }
                        if i % 13 == 0, let m = mine.randomElement() { columns[t].moveSubnode(m, to: 0) }
                        if i % 17 == 0, let m = mine.popLast() { m.removeFromSupernode() }
                    }
                    done.withLock { $0 += 1 }
                    group.leave()
                }
            }
            // The pass thread keeps committing while the others mutate.
            var passes = 0
            while done.current < 8 {
                h.iterate()
                passes += 1
                passCount.withLock { $0 += 1 }
            }
            group.wait()
            let settled = h.iterate(until: { !h.pass.hasPendingWork && !h.pass.committer.hasPendingCommits })
            #expect(settled, "scheduler work: \(NodeScheduler.shared.debugWorkSummary)")
            #expect(created.value == 10_000)
            #expect(passes > 1)
            // Every remaining subnode has a layer under its column's layer, in subnode order.
            for c in columns {
                let layers = c.subnodes.map { $0.layer }
                #expect(layers.allSatisfy { $0 != nil })
                #expect(c.layer?.sublayers.count == c.subnodes.count)
                #expect(zip(c.layer?.sublayers ?? [], layers).allSatisfy { $0 === $1 })
            }
        }
    }
}
