import Foundation
import Testing
import SilkGeometry
import SilkRender
import SilkRunLoop
@testable import SilkNodes

extension PipelineTests {
    @Suite(.serialized) struct CollectionUpdateTests {
        init() { NodeScheduler.shared.synchronousDisplay = true }

        @Test func reloadDataKeepsNodesWhoseIdentityIsUnchanged() {
            defer { NodeScheduler.shared.synchronousDisplay = false }
            let source = ModelDataSource([Array(0..<50)])
            let table = TableNode()
            let h = CollectionHarness(table, source: source)
            let visible = table.visibleItemPaths
            let nodes = visible.map { table.nodeForItem(at: $0)! }
            #expect(nodes.allSatisfy { $0.layer?.contents != nil })
            let blocks = source.blocksRun.current
            // Two new items at the top, the rest unchanged.
            source.model = [[1000, 1001] + Array(0..<50)]
            table.reloadData()
            table.waitUntilAllUpdatesAreProcessed()
            // Right after the commit, before any pass draws: the kept nodes still show their bitmaps.
            for n in nodes { #expect(n.layer?.contents != nil) }
            #expect(source.blocksRun.current == blocks + 2)
            h.settle()
            for (n, p) in zip(nodes, visible) {
                #expect(table.nodeForItem(at: ItemPath(item: p.item + 2)) === n)
            }
        }

        @Test func insertingAtTheTopKeepsTheVisibleContentInPlace() {
            defer { NodeScheduler.shared.synchronousDisplay = false }
            let source = ModelDataSource([Array(0..<100)])
            let table = TableNode()
            let h = CollectionHarness(table, source: source)
            h.scroll(to: 505)
            let first = table.nodeForItem(at: ItemPath(item: 25))!   // 500…520: 15 points above the top
            let screenY = table.frameForItem(at: ItemPath(item: 25))!.minY - table.contentOffset.y
            source.model = [Array(1000..<1010) + Array(0..<100)]
            table.insertItems(at: (0..<10).map { ItemPath(item: $0) })
            h.settle()
            #expect(table.nodeForItem(at: ItemPath(item: 35)) === first)
            #expect(table.frameForItem(at: ItemPath(item: 35))!.minY - table.contentOffset.y == screenY)
            #expect(table.contentOffset.y == 705)
        }

        @Test func aCellThatGrowsIsRelaidOutWithoutAJump() {
            defer { NodeScheduler.shared.synchronousDisplay = false }
            let source = ModelDataSource([Array(0..<100)])
            let table = TableNode()
            let h = CollectionHarness(table, source: source)
            h.scroll(to: 500)
            let top = table.nodeForItem(at: ItemPath(item: 25))!
            // Above the viewport (attached: it is in the preload range): the content below moves
            // down by 40, and so does the offset.
            (table.nodeForItem(at: ItemPath(item: 24)) as! ValueCell).resize(to: 60)
            h.settle()
            #expect(table.frameForItem(at: ItemPath(item: 24))!.height == 60)
            #expect(table.frameForItem(at: ItemPath(item: 25))!.minY == 540)
            #expect(table.contentOffset.y == 540)
            #expect(top.frame.minY - table.contentOffset.y == 0)
            // On screen, below the first visible item: what follows moves, the top stays.
            (table.nodeForItem(at: ItemPath(item: 27)) as! ValueCell).resize(to: 50)
            h.settle()
            #expect(table.contentOffset.y == 540)
            #expect(table.frameForItem(at: ItemPath(item: 28))!.minY == 540 + 40 + 50)
            #expect(table.contentSize.height == 2000 + 40 + 30)
        }

        @Test func animatedUpdatesFadeInsertsAndMoveTheRest() {
            defer { NodeScheduler.shared.synchronousDisplay = false }
            let source = ModelDataSource([Array(0..<20)])
            let table = TableNode()
            let h = CollectionHarness(table, source: source)
            let second = table.nodeForItem(at: ItemPath(item: 1))!
            source.model = [[0, 500] + Array(1..<20)]
            table.insertItems(at: [ItemPath(item: 1)])
            h.settle()
            let inserted = table.nodeForItem(at: ItemPath(item: 1))!
            #expect(inserted.layer?.snapshot().animations.contains { if case .opacity(from: 0, _) = $0.property { true } else { false } } == true)
            #expect(second.layer?.snapshot().animations.contains { if case .position(from: Point(x: 50, y: 30), _) = $0.property { true } else { false } } == true)
            // Not animated: nothing added.
            let third = table.nodeForItem(at: ItemPath(item: 3))!
            third.layer?.removeAllAnimations()
            source.model = [[0, 500, 501] + Array(1..<20)]
            table.performBatchUpdates(animated: false, { table.insertItems(at: [ItemPath(item: 2)]) })
            h.settle()
            #expect(third.layer?.snapshot().animations.isEmpty == true)
        }

        @Test func anInvalidUpdateReloadsInsteadOfCrashing() {
            defer { NodeScheduler.shared.synchronousDisplay = false }
            let source = ModelDataSource([Array(0..<10)])
            let table = TableNode()
            let h = CollectionHarness(table, source: source)
            source.model = [Array(0..<12)]
            table.insertItems(at: [ItemPath(item: 50)])   // wrong: index and count
            h.settle()
            #expect(h.shownValues == [Array(0..<12)])
            table.deleteItems(at: [ItemPath(item: 3, section: 4)])
            h.settle()
            #expect(h.shownValues == [Array(0..<12)])
        }

        @Test func tappingACellSelectsItAndADragDoesNot() {
            defer { NodeScheduler.shared.synchronousDisplay = false }
            let source = ModelDataSource([Array(0..<50)])
            let table = TableNode()
            let h = CollectionHarness(table, source: source)
            let d = InputDispatcher(rootNode: table)
            d.down(50, 45, at: 0)
            #expect((table.nodeForItem(at: ItemPath(item: 2)))?.isHighlighted == true)
            d.up(at: 0.1)
            #expect(source.selectedPaths == [ItemPath(item: 2)])
            #expect(table.nodeForItem(at: ItemPath(item: 2))?.isSelected == true)
            #expect(table.selectedItemPaths == [ItemPath(item: 2)])
            d.down(50, 85, at: 1)
            d.move(50, 40, at: 1.05)
            d.up(at: 1.1)
            #expect(source.selectedPaths == [ItemPath(item: 2)])
            #expect(table.nodeForItem(at: ItemPath(item: 4))?.isHighlighted == false)
            h.settle()
        }

        @Test func tenThousandItemsKeepFewNodesAndBitmaps() {
            defer { NodeScheduler.shared.synchronousDisplay = false }
            let source = ModelDataSource([Array(0..<10_000)])
            let table = TableNode()
            let h = CollectionHarness(table, source: source)
            #expect(table.contentSize.height == 200_000)
            var maxLive = 0, maxAttached = 0
            for y in stride(from: 0.0, through: 199_900, by: 900) {
                h.scroll(to: y)
                maxLive = max(maxLive, table.liveNodeCount)
                maxAttached = max(maxAttached, table.attachedItemCount)
            }
            #expect(maxAttached <= 26)     // the preload range: 5 screens of 20-point rows
            #expect(maxLive <= 36)         // plus one screen of retention each side
            let bitmaps = table.subnodes.filter { $0.layer?.contents != nil }.count
            #expect(bitmaps <= 16)         // the display range: 2.5 screens
        }

        @Test func pagerSnapsToPages() throws {
            defer { NodeScheduler.shared.synchronousDisplay = false }
            let source = ModelDataSource([Array(0..<5)])
            let pager = PagerNode()
            let loop = try EventLoop(clock: .virtual)
            pager.animationLoop = loop
            let h = CollectionHarness(pager, source: source)
            #expect(pager.contentSize == Size(width: 500, height: 100))
            #expect(pager.frameForItem(at: ItemPath(item: 2)) == Rect(x: 200, y: 0, width: 100, height: 100))
            let d = InputDispatcher(rootNode: pager)
            // A slow drag past half a page turns it.
            d.down(90, 50, at: 0)
            for i in 1...8 { d.move(90 - Double(i) * 10, 50, at: Double(i) * 0.1) }
            d.up(at: 0.9)
            for _ in 0..<60 { loop.advance(by: .milliseconds(16)); h.harness.iterate() }
            #expect(pager.contentOffset.x == 100)
            #expect(pager.currentPageIndex == 1)
            // A short fast flick turns one page, not more.
            d.down(90, 50, at: 1)
            for i in 1...3 { d.move(90 - Double(i) * 8, 50, at: 1 + Double(i) * 0.01) }
            d.up(at: 1.04)
            for _ in 0..<60 { loop.advance(by: .milliseconds(16)); h.harness.iterate() }
            #expect(pager.contentOffset.x == 200)
            // Keys.
            d.key(.right, at: 3)
            for _ in 0..<60 { loop.advance(by: .milliseconds(16)); h.harness.iterate() }
            #expect(pager.currentPageIndex == 3)
            d.key(.home, at: 5)
            for _ in 0..<60 { loop.advance(by: .milliseconds(16)); h.harness.iterate() }
            #expect(pager.contentOffset.x == 0)
            h.settle()
        }
    }
}
