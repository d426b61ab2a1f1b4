import Foundation
import Testing
import SilkGeometry
import SilkLayout
import SilkRaster
@testable import SilkNodes

@Suite struct RangeTuningTests {
    @Test func defaultsAreTextures() {
        let t = RangeTuning.default
        #expect(t[.full, .display] == RangeTuningParameters(leading: 1, trailing: 0.5))
        #expect(t[.full, .preload] == RangeTuningParameters(leading: 2.5, trailing: 1.5))
        #expect(t[.minimum, .display] == RangeTuningParameters(leading: 0.25, trailing: 0.25))
        #expect(t[.minimum, .preload] == RangeTuningParameters(leading: 0.5, trailing: 0.25))
        for m in [RangeMode.visibleOnly, .lowMemory] {
            #expect(t[m, .display] == .zero && t[m, .preload] == .zero)
        }
    }

    @Test func frameIndexFindsTheSameItemsAsAWalk() {
        var rng = SplitMix64(seed: 7)
        // Unsorted, overlapping, some empty frames.
        let frames = (0..<500).map { _ in
            Rect(x: Double(Int.random(in: 0...300, using: &rng)), y: Double(Int.random(in: 0...5000, using: &rng)),
                 width: Double(Int.random(in: 0...80, using: &rng)), height: Double(Int.random(in: 0...300, using: &rng)))
        }
        let index = ItemFrameIndex(frames: frames, vertical: true)
        for _ in 0..<200 {
            let r = Rect(x: Double(Int.random(in: -50...300, using: &rng)), y: Double(Int.random(in: -100...5200, using: &rng)),
                         width: Double(Int.random(in: 1...400, using: &rng)), height: Double(Int.random(in: 1...900, using: &rng)))
            let walk = frames.indices.filter { RangeController.overlaps(frames[$0], r) }
            #expect(index.indices(overlapping: r, frames: frames).sorted() == walk)
        }
        // A table's column (in order, ends never going back, some rows empty) is searched in its
        // frames directly, a grid's rows through the arrays: both as a walk finds them.
        var y = 0.0
        let column = (0..<500).map { _ -> Rect in
            let h = Double(Int.random(in: 0...60, using: &rng)); defer { y += h }
            return Rect(x: 0, y: y, width: 320, height: h)
        }
        let grid = (0..<500).map { (i: Int) -> Rect in
            let x = Double(i % 3) * 100, top = Double(i / 3) * 80, h = Double(40 + (i % 5) * 10)
            return Rect(x: x, y: top, width: 100, height: h)
        }
        for frames in [column, grid] {
            let index = ItemFrameIndex(frames: frames, vertical: true)
            for _ in 0..<200 {
                let r = Rect(x: 0, y: Double(Int.random(in: -100...Int(y) + 100, using: &rng)), width: 320, height: Double(Int.random(in: 0...900, using: &rng)))
                let walk = frames.indices.filter { RangeController.overlaps(frames[$0], r) }
                #expect(index.indices(overlapping: r, frames: frames).sorted() == walk)
            }
        }
    }
}

extension PipelineTests {
    @Suite(.serialized) struct RangeStateTests {
        init() { NodeScheduler.shared.synchronousDisplay = true }

        /// The state an item of the 20-point rows should have at `offset`, computed here from
        /// Texture's full-mode numbers (not from RangeController).
        static func expected(_ i: Int, offset: Double, down: Bool) -> InterfaceState {
            let top = Double(i) * 20, bottom = top + 20, h = 100.0
            func within(_ before: Double, _ after: Double) -> Bool { bottom > offset - before * h && top < offset + h + after * h }
            var s: InterfaceState = []
            if within(down ? 1.5 : 2.5, down ? 2.5 : 1.5) { s.formUnion([.measureLayout, .preload]) }
            if within(down ? 0.5 : 1.0, down ? 1.0 : 0.5) { s.insert(.display) }
            if within(0, 0) { s.insert(.visible) }
            return s
        }

        @Test func statesFollowTheTuningInBothDirections() {
            defer { NodeScheduler.shared.synchronousDisplay = false }
            let table = TableNode()
            table.rangeController.forcedMode = .full
            let h = CollectionHarness(table, source: ModelDataSource([Array(0..<200)]))
            #expect(table.contentSize.height == 4000)
            let downward = Array(stride(from: 0.0, through: 2000, by: 37))
            let offsets = downward + downward.reversed().dropFirst()
            var maxLive = 0
            for (k, y) in offsets.enumerated() {
                h.scroll(to: y)
                let down = k < downward.count
                for i in 0..<200 {
                    let want = Self.expected(i, offset: y, down: down)
                    let node = table.nodeForItem(at: ItemPath(item: i))
                    if want.contains(.preload) {
                        #expect(node?.interfaceState == want, "item \(i) at \(y) \(down ? "down" : "up")")
                        #expect(node?.supernode === table)
                    } else if let node {
                        #expect(node.interfaceState == [], "item \(i) at \(y)")
                        #expect(node.supernode == nil)
                    }
                    // Memory: only what is in the display range holds a bitmap.
                    if let node, !want.contains(.display) { #expect(node.layer?.contents == nil, "item \(i) at \(y)") }
                    if let node, want.contains(.display) { #expect(node.layer?.contents != nil, "item \(i) at \(y)") }
                }
                maxLive = max(maxLive, table.liveNodeCount)
            }
            // Preload (5 screens) plus one screen of retention each side, in 20-point rows.
            #expect(maxLive <= 36)
            #expect(table.statistics.nodesReleased > 0)
        }

        @Test func aReleasedItemKeepsNoBlockAndAsksTheDataSourceAgainWhereItIsNow() {
            defer { NodeScheduler.shared.synchronousDisplay = false }
            let table = TableNode()
            table.rangeController.forcedMode = .full
            let source = ModelDataSource([Array(0..<200)])
            let h = CollectionHarness(table, source: source)
            let first = table.item(at: ItemPath(item: 0))!
            #expect(first.node != nil && first.block == nil)      // the block went once it made the node
            // Every item is made and measured once when loaded; a far one keeps neither node nor block.
            let far = table.item(at: ItemPath(item: 150))!
            #expect(far.isMeasured && far.node == nil && far.block == nil)
            h.scroll(to: 2000)
            #expect(first.node == nil && first.block == nil)      // released: identity, size and place only
            // Back in range: the data source is asked for item 0's block again, and the node is its.
            source.blockRequests = []
            h.scroll(to: 0)
            #expect(source.blockRequests.contains(ItemPath(item: 0)))
            #expect((table.nodeForItem(at: ItemPath(item: 0)) as? ValueCell)?.value == 0)

            // While an update is being prepared the data source already answers with it: five rows
            // inserted above put item 0 at row 5 for the data source, which is where it is asked.
            h.scroll(to: 2000)
            #expect(first.node == nil)
            source.model[0].insert(contentsOf: 1000..<1005, at: 0)
            table.insertItems(at: (0..<5).map { ItemPath(item: $0) })
            #expect(table.pendingUpdateCount == 1)
            source.blockRequests = []
            let block = table.nodeBlockForReturningItem(first)
            #expect(source.blockRequests == [ItemPath(item: 5)])
            #expect((block?() as? ValueCell)?.value == 0)
            h.settle()
            #expect(h.shownValues[0].prefix(6) == [1000, 1001, 1002, 1003, 1004, 0])

            // A data source that dropped rows without telling the container is not asked out of
            // its bounds: the item stays blank (logged once), nothing traps.
            source.model[0].removeAll()
            source.blockRequests = []
            #expect(table.nodeBlockForReturningItem(table.item(at: ItemPath(item: 150))!) == nil)
            #expect(source.blockRequests.isEmpty)
            h.scroll(to: 2900)
            #expect(source.blockRequests.isEmpty)
        }

        @Test func automaticModeStartsMinimumThenGoesFull() {
            defer { NodeScheduler.shared.synchronousDisplay = false }
            let table = TableNode()
            let h = CollectionHarness(table, source: ModelDataSource([Array(0..<200)]))
            // The first update is in minimum mode (display 0.25 screens beyond the viewport).
            #expect(table.rangeController.currentMode == .full || table.nodeForItem(at: ItemPath(item: 7))?.interfaceState.contains(.display) == false)
            h.scroll(to: 20)
            #expect(table.rangeController.currentMode == .full)
            #expect(table.nodeForItem(at: ItemPath(item: 10))?.interfaceState.contains(.display) == true)
        }

        @Test func lowMemoryKeepsOnlyTheVisibleBitmaps() {
            imageCachesInTest.lock(); defer { imageCachesInTest.unlock() }  // low memory suspends ImageNode's caches
            defer { NodeScheduler.shared.synchronousDisplay = false }
            let table = TableNode()
            let h = CollectionHarness(table, source: ModelDataSource([Array(0..<200)]))
            h.scroll(to: 400)
            #expect(table.nodeForItem(at: ItemPath(item: 26))?.layer?.contents != nil)   // display range
            table.rangeController.isInLowMemoryMode = true
            table.setNeedsRangeUpdate()
            h.settle()
            for i in 0..<200 {
                guard let n = table.nodeForItem(at: ItemPath(item: i)) else { continue }
                let visible = Double(i) * 20 + 20 > 400 && Double(i) * 20 < 500
                #expect((n.layer?.contents != nil) == visible, "item \(i)")
            }
            table.rangeController.isInLowMemoryMode = false  // the caches are not left suspended for other suites
        }

        @Test func batchFetchStartsAtTheLeadingDistanceAndNeverTwice() {
            let table = TableNode()
            let source = ModelDataSource([Array(0..<30)])   // 600 points of content
            let h = CollectionHarness(table, source: source)
            #expect(table.leadingScreensForBatching == 2)
            // 600 − 100 − offset ≤ 200 ⇔ offset ≥ 300.
            for y in stride(from: 0.0, through: 290, by: 10) { h.scroll(to: y) }
            #expect(source.contexts.current.isEmpty)
            h.scroll(to: 300)
            #expect(source.shouldFetchCalls == [Point(x: 0, y: 300)])
            #expect(waitFor { source.contexts.current.count == 1 })
            #expect(source.willBeginOffMain.current == [true])
            #expect(table.batchContext.isFetching)
            // While it runs, scrolling further does not ask again.
            for y in stride(from: 310.0, through: 500, by: 10) { h.scroll(to: y) }
            #expect(source.shouldFetchCalls.count == 1)
            // The fetch inserts 30 more items, then completes (from its background queue).
            source.model[0] += Array(30..<60)
            table.insertItems(at: (30..<60).map { ItemPath(item: $0) })
            let context = source.contexts.current[0]
            DispatchQueue.global().sync { context.completeBatchFetching(true) }
            h.settle()
            #expect(table.contentSize.height == 1200)
            #expect(source.shouldFetchCalls.count == 1)     // 1200 − 100 − 500 = 600 > 200
            // Scrolling up never fetches; down to 900 does.
            for y in stride(from: 490.0, through: 400, by: -10) { h.scroll(to: y) }
            for y in stride(from: 410.0, through: 890, by: 10) { h.scroll(to: y) }
            #expect(source.shouldFetchCalls.count == 1)
            h.scroll(to: 900)
            #expect(source.shouldFetchCalls.count == 2)
            #expect(waitFor { source.contexts.current.count == 2 })
        }

        @Test func shortContentFetchesAtOnce() {
            let source = ModelDataSource([Array(0..<3)])
            let h = CollectionHarness(TableNode(), source: source)
            h.settle()
            #expect(source.shouldFetchCalls.count == 1)
        }
    }
}

/// Waits up to `timeout` seconds (5 by default) for `condition` (work on other queues).
func waitFor(timeout: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while !condition() {
        if Date() > deadline { return false }
        usleep(1000)
    }
    return true
}

/// Waits up to `timeout` seconds for `condition`; records an issue naming `what` when it never
/// holds (the animated image and Lottie node tests).
func waitFor(_ what: String, timeout: Double = 10, _ condition: () -> Bool) -> Bool {
    let held = waitFor(timeout: timeout, condition)
    if !held { Issue.record("timed out waiting for \(what)") }
    return held
}
