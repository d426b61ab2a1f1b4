import Foundation
import Testing
import SilkGeometry
import SilkLayout
@testable import SilkNodes

/// A data source with section headers: items `model[section]` (20 points tall each), a header
/// of `headerHeight` points over every section listed in `headed`.
final class HeaderedSource: CollectionDataSource, @unchecked Sendable {
    var model: [[Int]]
    var headed: Set<Int>
    let headerHeight: Double
    var headerBlocksAsked: [Int] = []
    init(_ model: [[Int]], headed: Set<Int>? = nil, headerHeight: Double = 20) {
        self.model = model
        self.headed = headed ?? Set(model.indices)
        self.headerHeight = headerHeight
    }
    func numberOfSections(in collection: CollectionNode) -> Int { model.count }
    func collection(_ collection: CollectionNode, numberOfItemsInSection section: Int) -> Int { model[section].count }
    func collection(_ collection: CollectionNode, nodeBlockForItemAt path: ItemPath) -> CellNodeBlock {
        let v = model[path.section][path.item]
        return { ValueCell(value: v, height: 20) }
    }
    func collection(_ collection: CollectionNode, identifierForItemAt path: ItemPath) -> AnyHashable? {
        model[path.section][path.item]
    }
    func collection(_ collection: CollectionNode, nodeBlockForHeaderInSection section: Int) -> CellNodeBlock? {
        guard headed.contains(section) else { return nil }
        headerBlocksAsked.append(section)
        let h = headerHeight
        return { HeaderCell(section: section, height: h) }
    }
}

final class HeaderCell: CellNode, @unchecked Sendable {
    let section: Int
    init(section: Int, height: Double) {
        self.section = section
        super.init()
        backgroundColor = .blue
        style.height = .points(height)
    }
}

/// The collection's own harness, loaded (CollectionHarness needs a ModelDataSource).
private func makeTable(_ source: HeaderedSource, size: Size = Size(width: 100, height: 100),
                       layout: FlowLayout = .list) -> (CollectionNode, Harness) {
    let c = CollectionNode(layout: layout)
    c.dataSource = source
    let h = Harness(root: c, size: size)
    h.iterate()
    c.waitUntilAllUpdatesAreProcessed()
    h.iterate()
    return (c, h)
}

private func settle(_ c: CollectionNode, _ h: Harness) {
    for _ in 0..<10 { h.iterate(); c.waitUntilAllUpdatesAreProcessed(); h.iterate() }
}

@Suite struct FlowLayoutHeaderTests {
    @Test func headersGoAboveTheirSectionsInsets() {
        let layout = FlowLayout(columns: 1, itemSpacing: 0, lineSpacing: 0, sectionInsets: EdgeInsets(top: 5, left: 0, bottom: 7, right: 0))
        let r = layout.layout(itemSizes: [[Size(width: 100, height: 20), Size(width: 100, height: 20)], [Size(width: 100, height: 30)]],
                              headerSizes: [Size(width: 100, height: 10), nil], viewport: Size(width: 100, height: 50))
        #expect(r.headerFrames.count == 2)
        #expect(r.headerFrames[0] == Rect(x: 0, y: 0, width: 100, height: 10))
        #expect(r.headerFrames[1] == nil)
        #expect(r.frames[0].map(\.minY) == [15, 35])         // header 10 + top inset 5
        #expect(r.sectionFrames[0] == Rect(x: 0, y: 0, width: 100, height: 62))  // … + 40 + bottom 7
        #expect(r.frames[1][0].minY == 67)                    // no header: the top inset only
        #expect(r.contentSize.height == 104)
        // Without headers the layout is what it always was.
        let plain = layout.layout(itemSizes: [[Size(width: 100, height: 20)]], viewport: Size(width: 100, height: 50))
        #expect(plain.headerFrames.isEmpty && plain.sectionFrames.isEmpty && plain.frames[0][0].minY == 5)
    }

    @Test func pinnedHeaderFollowsTheTopAndIsPushedUpByTheNextSection() {
        let header = Rect(x: 0, y: 100, width: 100, height: 30)
        func y(_ top: Double) -> Double { FlowLayout.pinnedHeaderFrame(header, sectionMaxY: 400, visibleMinY: top).minY }
        #expect(y(0) == 100)      // above: where it was laid out
        #expect(y(100) == 100)
        #expect(y(150) == 150)    // its section scrolls under it
        #expect(y(369) == 369)
        #expect(y(370) == 370)    // its bottom meets the next section's top …
        #expect(y(385) == 370)    // … which pushes it up
        #expect(y(1000) == 370)
        #expect(y(.nan) == 100 && y(.infinity) == 100 && y(-.infinity) == 100)
        // A section no taller than its header never moves it.
        #expect(FlowLayout.pinnedHeaderFrame(header, sectionMaxY: 120, visibleMinY: 200).minY == 100)
        #expect(FlowLayout.pinnedHeaderFrame(header, sectionMaxY: .nan, visibleMinY: 200) == header)
    }

    @Test func unpinnedHeadersScrollWithTheirSections() {
        var layout = FlowLayout.list
        layout.sectionHeadersPinToVisibleBounds = false
        let r = layout.layout(itemSizes: [[Size(width: 10, height: 100)]], headerSizes: [Size(width: 10, height: 20)],
                              viewport: Size(width: 10, height: 50))
        #expect(layout.displayedHeaderFrame(inSection: 0, of: r, visible: Rect(x: 0, y: 60, width: 10, height: 50))?.minY == 0)
        #expect(FlowLayout.list.displayedHeaderFrame(inSection: 0, of: r, visible: Rect(x: 0, y: 60, width: 10, height: 50))?.minY == 60)
        #expect(FlowLayout.list.displayedHeaderFrame(inSection: 3, of: r, visible: .zero) == nil)
    }

    /// A layout that does not implement headers (the protocol's defaults) places none.
    @Test func layoutsWithoutHeaderSupportPlaceNone() {
        let r = PagerLayout().layout(itemSizes: [[Size(width: 1, height: 1)]], headerSizes: [Size(width: 5, height: 5)],
                                     viewport: Size(width: 10, height: 10))
        #expect(r.headerFrames.isEmpty)
        #expect(PagerLayout().constrainedSize(forHeaderInSection: 0, viewport: Size(width: .nan, height: 3)).max.width == 0)
    }
}

extension PipelineTests {
    @Suite(.serialized) struct SectionHeaderTests {
        /// Three sections of five 20-point rows, each under a 20-point header, in 100×100:
        /// sections span 0–120, 120–240, 240–360.
        @Test func headersPinAtSeveralOffsetsAndArePushedUp() {
            let source = HeaderedSource([[0, 1, 2, 3, 4], [10, 11, 12, 13, 14], [20, 21, 22, 23, 24]])
            let (c, h) = makeTable(source)
            #expect(c.contentSize.height == 360)
            #expect(c.frameForItem(at: ItemPath(item: 0, section: 1))?.minY == 140)
            func expectHeaders(at offset: Double, _ y0: Double, _ y1: Double, sourceLocation: SourceLocation = #_sourceLocation) {
                c.setContentOffset(Point(x: 0, y: offset))
                settle(c, h)
                #expect(c.contentOffset.y == offset, sourceLocation: sourceLocation)
                #expect(c.frameForHeader(inSection: 0)?.minY == y0, "header 0 at offset \(offset)", sourceLocation: sourceLocation)
                #expect(c.frameForHeader(inSection: 1)?.minY == y1, "header 1 at offset \(offset)", sourceLocation: sourceLocation)
                // Attached header nodes are where they are shown.
                for s in 0..<3 {
                    if let n = c.nodeForHeader(inSection: s), n.supernode === c {
                        #expect(n.frame == c.frameForHeader(inSection: s), "header \(s) node at offset \(offset)", sourceLocation: sourceLocation)
                    }
                }
                #expect(c.nodeForHeader(inSection: 0)?.supernode === c || offset > 120, sourceLocation: sourceLocation)
            }
            expectHeaders(at: 0, 0, 120)
            expectHeaders(at: 50, 50, 120)        // pinned to the top
            expectHeaders(at: 99, 99, 120)
            expectHeaders(at: 100, 100, 120)      // touching the next header
            expectHeaders(at: 110, 100, 120)      // pushed up: its bottom stays on the next one's top
            expectHeaders(at: 130, 100, 130)      // the next one is pinned now
            expectHeaders(at: 260, 100, 220)      // the end: 1 pushed up by 2
            #expect(c.frameForHeader(inSection: 2)?.minY == 260)
            // The pinned header draws above the rows it covers.
            let subs = c.subnodes
            if let hi = subs.firstIndex(where: { $0 === c.nodeForHeader(inSection: 2) }),
               let cell = c.nodeForItem(at: ItemPath(item: 0, section: 2)), let ci = subs.firstIndex(where: { $0 === cell }) {
                #expect(hi > ci)
            } else {
                Issue.record("header 2 or its first row is not attached")
            }
        }

        @Test func hitTestingFindsThePinnedHeaderNotTheRowUnderIt() {
            let source = HeaderedSource([[0, 1, 2, 3, 4], [10, 11, 12, 13, 14]])
            let (c, h) = makeTable(source)
            c.setContentOffset(Point(x: 0, y: 50))
            settle(c, h)
            // y = 5 on screen is content y = 55: row 2 of section 0 (40–60) under the pinned header.
            let hit = c.hitTest(Point(x: 50, y: 5))
            #expect(hit === c.nodeForHeader(inSection: 0))
            // Below the header, the row.
            let row = c.hitTest(Point(x: 50, y: 30))
            #expect((row as? ValueCell)?.value == 3)   // content y = 80
            // Pushed up: the bottom of header 0 and the top of header 1.
            c.setContentOffset(Point(x: 0, y: 110))
            settle(c, h)
            #expect(c.hitTest(Point(x: 50, y: 5)) === c.nodeForHeader(inSection: 0))    // content 115: header 0 at 100–120
            #expect(c.hitTest(Point(x: 50, y: 15)) === c.nodeForHeader(inSection: 1))   // content 125: header 1 at 120–140
        }

        @Test func headersEnterAndLeaveTheRangesLikeCells() {
            // 20 sections of 200 points: only the headers of sections near the viewport are attached.
            let model = (0..<20).map { s in (0..<10).map { s * 100 + $0 } }
            let source = HeaderedSource(model)
            let (c, h) = makeTable(source)
            #expect(c.attachedHeaderCount >= 1 && c.attachedHeaderCount <= 3)
            let h0 = try! #require(c.nodeForHeader(inSection: 0))
            #expect(h0.interfaceState.contains(.visible))
            c.setContentOffset(Point(x: 0, y: 2200))   // section 10 (220 points each) at the top
            settle(c, h)
            #expect(h0.supernode == nil && !h0.interfaceState.contains(.visible))
            let h10 = try! #require(c.nodeForHeader(inSection: 10))
            #expect(h10.supernode === c && h10.interfaceState.contains(.visible))
            #expect(h10.accessibilityRole == .heading)
            #expect(c.attachedHeaderCount <= 6)
        }

        @Test func sectionUpdatesKeepMoveAndRemakeHeaders() {
            let source = HeaderedSource([[0, 1], [10, 11], [20, 21]])
            let (c, h) = makeTable(source)
            let old = (0..<3).map { c.nodeForHeader(inSection: $0) as? HeaderCell }
            source.headerBlocksAsked = []
            // Insert a section at 1, delete the old 2, reload the old 0, move nothing.
            source.model = [[0, 1], [5], [10, 11]]
            c.performBatchUpdates({ c.insertSections([1]); c.deleteSections([2]); c.reloadSections([0]) })
            settle(c, h)
            #expect(source.headerBlocksAsked.sorted() == [0, 1])
            let now = (0..<3).map { c.nodeForHeader(inSection: $0) as? HeaderCell }
            #expect(now[0] !== old[0] && now[0]?.section == 0)       // reloaded: made anew
            #expect(now[1]?.section == 1 && now[1] !== old[1])       // inserted
            #expect(now[2] === old[1])                               // kept, now section 2
            #expect(old[2]?.supernode == nil)                        // deleted with its section
            let y2 = c.frameForHeader(inSection: 2)?.minY
            #expect(y2 == 100, "\(String(describing: y2)) offset \(c.contentOffset)")
            // Item updates leave headers alone.
            source.headerBlocksAsked = []
            source.model[2].append(12)
            c.insertItems(at: [ItemPath(item: 2, section: 2)])
            settle(c, h)
            #expect(source.headerBlocksAsked.isEmpty && c.nodeForHeader(inSection: 2) === old[1])
            // A move takes its header along.
            source.model = [[10, 11, 12], [0, 1], [5]]
            c.performBatchUpdates({ c.moveSection(2, toSection: 0); c.moveSection(0, toSection: 1); c.moveSection(1, toSection: 2) })
            settle(c, h)
            #expect(c.nodeForHeader(inSection: 0) === old[1] && c.nodeForHeader(inSection: 1) === now[0])
            #expect(source.headerBlocksAsked.isEmpty)
        }

        @Test func sectionsWithoutHeadersAndReloads() {
            let source = HeaderedSource([[0, 1], [10, 11]], headed: [1])
            let (c, h) = makeTable(source)
            #expect(c.nodeForHeader(inSection: 0) == nil && c.frameForHeader(inSection: 0) == nil)
            #expect(c.frameForItem(at: ItemPath(item: 0, section: 0))?.minY == 0)
            #expect(c.frameForHeader(inSection: 1)?.minY == 40)
            let before = c.nodeForHeader(inSection: 1)
            c.reloadData()
            settle(c, h)
            // reloadData asks again: a new header node, the old one gone.
            #expect(c.nodeForHeader(inSection: 1) !== before && before?.supernode == nil)
            #expect(c.nodeForHeader(inSection: 7) == nil)
        }

        /// Right to left, a header is mirrored like the rows (full width: same place) and still pins.
        @Test func headersOfAGridPinToo() {
            let source = HeaderedSource([[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [10, 11]])
            let grid = FlowLayout(columns: 2, itemSpacing: 0, lineSpacing: 0, sectionInsets: EdgeInsets())
            let (c, h) = makeTable(source, layout: grid)
            #expect(c.frameForItem(at: ItemPath(item: 1, section: 0)) == Rect(x: 50, y: 20, width: 50, height: 20))
            c.setContentOffset(Point(x: 0, y: 30))
            settle(c, h)
            #expect(c.nodeForHeader(inSection: 0)?.frame == Rect(x: 0, y: 30, width: 100, height: 20))
        }
    }
}
