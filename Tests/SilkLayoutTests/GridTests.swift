import Foundation
import SilkGeometry
import Testing
@testable import SilkLayout
import SilkLayoutTools

/// `GridLayoutSpec`: track sizing, placement, alignment, and the Chromium grid corpus.
@Suite struct GridTests {
    @Test func fixedFractionAndFlexibleColumnsShareTheWidth() throws {
        let grid = GridLayoutSpec(columns: [.points(50), .fraction(0.25), .fr(1), .fr(3)], columnGap: 10,
                                  items: (0..<4).map { _ in GridItem(leaf(0, 20)) })
        let l = try grid.layoutThatFits(exactly(400, 100))
        // 400 − 30 gaps − 50 − 100 = 220 for 4 fr: 55 and 165.
        #expect(frames(l).map(\.minX) == [0, 60, 170, 235])
        #expect(frames(l).map(\.width) == [50, 100, 55, 165])
    }

    @Test func autoTracksTakeTheirContentThenStretch() throws {
        let grid = GridLayoutSpec(columns: [.auto, .auto],
                                  items: [GridItem(leaf(50, 10), justifySelf: .start), GridItem(leaf(80, 10), justifySelf: .start)])
        let l = try grid.layoutThatFits(exactly(300, 10))
        // Bases 0, limits 50/80; maximised to 50/80, then 170 of free space split: 135, 165.
        #expect(frames(l) == [rect(0, 0, 50, 10), rect(135, 0, 80, 10)])
        let packed = GridLayoutSpec(columns: [.auto, .auto], justifyContent: .start,
                                    items: [GridItem(leaf(50, 10)), GridItem(leaf(80, 10))])
        #expect(frames(try packed.layoutThatFits(exactly(300, 10))) == [rect(0, 0, 50, 10), rect(50, 0, 80, 10)])
    }

    @Test func minmaxClampsAndFitContentShrinksTheGrid() throws {
        let grid = GridLayoutSpec(columns: [.minmax(.points(30), .points(60)), .auto],
                                  items: [GridItem(leaf(100, 10)), GridItem(leaf(20, 10))])
        // Unbounded width: the grid is its max-content width, 60 + 20.
        let l = try grid.layoutThatFits(.unconstrained)
        #expect(l.size == Size(width: 80, height: 10))
        #expect(frames(l).map(\.width) == [60, 20])
    }

    @Test func autoPlacementFlowsRowsAndSpans() throws {
        let items = [GridItem(leaf(0, 0), column: .span(2)), GridItem(leaf(0, 0)), GridItem(leaf(0, 0)),
                     GridItem(leaf(0, 0), column: .line(1), row: .line(1))]
        let grid = GridLayoutSpec(columns: [.points(10), .points(10), .points(10)], autoRows: .points(10), items: items)
        let l = try grid.layoutThatFits(exactly(30, 100))
        // The definite item takes (1,1); the span-2 item goes after it, the rest wrap.
        #expect(frames(l).map(\.origin) == [Point(x: 10, y: 0), Point(x: 0, y: 10), Point(x: 10, y: 10), Point(x: 0, y: 0)])
        #expect(frames(l)[0].width == 20)
    }

    @Test func densePackingFillsHoles() throws {
        let items = [GridItem(leaf(0, 0)), GridItem(leaf(0, 0), column: .span(3)), GridItem(leaf(0, 0))]
        let sparse = GridLayoutSpec(columns: Array(repeating: .points(10), count: 3), autoRows: .points(10), items: items)
        let dense = GridLayoutSpec(columns: Array(repeating: .points(10), count: 3), autoRows: .points(10),
                                   autoFlow: .rowDense, items: items)
        #expect(frames(try sparse.layoutThatFits(exactly(30, 30)))[2].origin == Point(x: 0, y: 20))
        #expect(frames(try dense.layoutThatFits(exactly(30, 30)))[2].origin == Point(x: 10, y: 0))
    }

    @Test func columnFlowFillsColumnsFirst() throws {
        let grid = GridLayoutSpec(columns: [], rows: [.points(10), .points(10)], autoColumns: .points(20),
                                  autoFlow: .column, items: (0..<3).map { _ in GridItem(leaf(0, 0)) })
        let l = try grid.layoutThatFits(exactly(100, 20))
        #expect(frames(l).map(\.origin) == [Point(x: 0, y: 0), Point(x: 0, y: 10), Point(x: 20, y: 0)])
    }

    @Test func negativeLinesCountFromTheEnd() throws {
        let grid = GridLayoutSpec(columns: [.points(10), .points(20), .points(30)],
                                  items: [GridItem(leaf(0, 5), column: GridPlacement(start: 1, end: -1))])
        #expect(frames(try grid.layoutThatFits(exactly(60, 5))) == [rect(0, 0, 60, 5)])
    }

    @Test func itemsAlignInTheirAreasAndContentDistributes() throws {
        let grid = GridLayoutSpec(columns: [.points(40), .points(40)], rows: [.points(40)],
                                  justifyContent: .spaceBetween, alignContent: .end,
                                  items: [GridItem(leaf(10, 10), justifySelf: .center, alignSelf: .end),
                                          GridItem(leaf(10, 10), justifySelf: .end, alignSelf: .center)])
        let l = try grid.layoutThatFits(exactly(100, 50))
        #expect(frames(l) == [rect(15, 40, 10, 10), rect(90, 25, 10, 10)])
    }

    @Test func rightToLeftColumnsRunFromTheRight() throws {
        let grid = GridLayoutSpec(columns: [.points(10), .points(20)], columnGap: 5, justifyContent: .start,
                                  items: [GridItem(leaf(0, 5)), GridItem(leaf(0, 5))])
        #expect(frames(try grid.layoutThatFits(exactly(100, 5), context: LayoutContext(direction: .rtl)))
                == [rect(90, 0, 10, 5), rect(65, 0, 20, 5)])
    }

    @Test func absurdInputStaysBounded() throws {
        // Lines and spans far beyond the limit are clamped; NaN and negative gaps are 0.
        let grid = GridLayoutSpec(columns: [.points(.nan), .points(-5), .fr(.infinity)], columnGap: .nan,
                                  rowGap: -3,
                                  items: [GridItem(leaf(1, 1), column: GridPlacement(start: Int.max, span: Int.max)),
                                          GridItem(leaf(1, 1), row: GridPlacement(start: -Int.max))])
        let l = try grid.layoutThatFits(exactly(100, 100))
        #expect(l.sublayouts.count == 2)
        #expect(l.size == Size(width: 100, height: 100))
    }

    @Test func cssTrackListsAndPlacementsParse() {
        #expect(CSSGridMapping.parseTrackList("10px 20% 1fr auto minmax(5px, 2fr)")
                == [.points(10), .fraction(0.2), .fr(1), .auto, .minmax(.points(5), .flex(2))])
        #expect(CSSGridMapping.parseTrackList("repeat(3, 10px)") == Array(repeating: .points(10), count: 3))
        #expect(CSSGridMapping.parseTrackList("minmax(1fr, 10px)") == nil)
        #expect(CSSGridMapping.parseTrackList("repeat(100000, 1px)") == nil)
        #expect(CSSGridMapping.parsePlacement("2 / span 3") == GridPlacement(start: 2, span: 3))
        #expect(CSSGridMapping.parsePlacement("1 / -1") == GridPlacement(start: 1, end: -1))
        #expect(CSSGridMapping.parsePlacement("span 2") == .span(2))
        #expect(CSSGridMapping.parsePlacement("0") == nil)
        #expect(CSSGridMapping.parsePlacement("a / b") == nil)
    }

    @Test func aGridRootFailsItsCaseOnly() throws {
        let cases = try CorpusFile.parse(Data(#"{"cases":[{"name":"g","root":{"style":{"display":"grid"}}}]}"#.utf8))
        #expect(CorpusEvaluator.run(cases[0]).failure?.contains("grid at the root") == true)
    }

    /// CSS §11.5 step 2, as Chromium lays it out: an item whose max-content contribution is 0
    /// (a `width: 100%` box with no content) still sets its track's growth limit, so the
    /// spanning item grows the next `auto` track (98) and leaves this one at 0.
    @Test func aZeroContributionSetsTheGrowthLimit() throws {
        let cases = try CorpusFile.parse(Data(#"{"cases":[{"name":"zero_contribution_sets_growth_limit","root":{"style":{"positionType":"absolute","width":414},"children":[{"style":{"display":"grid","gridTemplateColumns":"1fr auto auto 69px 1fr"},"children":[{"style":{"width":"100%","height":10,"gridColumn":"2"},"expected":{"left":123.5,"top":0,"width":0,"height":10}},{"style":{"width":98,"height":10,"gridColumn":"2 / span 2","justifySelf":"start"},"expected":{"left":123.5,"top":10,"width":98,"height":10}},{"style":{"height":10,"gridColumn":"4"},"expected":{"left":221.5,"top":10,"width":69,"height":10}}],"expected":{"left":0,"top":0,"width":414,"height":20}}],"expected":{"left":0,"top":0,"width":414,"height":20}}}]}"#.utf8))
        #expect(CorpusEvaluator.run(cases[0], tolerance: 1).failure == nil)   // Chromium keeps half points
    }

    /// Random grids laid out by headless Chromium (Tools/layout-corpus/chromium_grid.py).
    @Test func chromiumGridCorpus() throws {
        let url = try #require(Bundle.module.url(forResource: "chromium-grid", withExtension: "json",
                                                 subdirectory: "Fixtures"))
        let cases = try CorpusFile.load(contentsOf: url)
        #expect(cases.count == 150)
        let failures = cases.compactMap { c in CorpusEvaluator.run(c, tolerance: 1).failure.map { "\(c.name): \($0)" } }
        print("grid corpus: \(cases.count - failures.count)/\(cases.count) match Chromium")
        for f in failures { print("  grid corpus failure: \(f)") }
        // The measured rate is 149/150 (docs/layout.md "Grid": the one left is a fit-content grid
        // whose min-content width exceeds its range).
        #expect(cases.count - failures.count >= 149, "\(failures.prefix(5).joined(separator: "\n"))")
    }
}
