import Foundation
import SilkGeometry
import Testing
@testable import SilkLayout
import SilkLayoutTools

/// Right-to-left layout: stacks mirror as a browser mirrors flexbox, logical edges resolve by
/// direction, the Texture-style specs mirror their horizontal vocabulary, and the Yoga corpus's
/// RTL half (Chrome's frames) matches.
@Suite struct DirectionTests {
    func rtlContext() -> LayoutContext { LayoutContext(direction: .rtl) }

    @Test func yogaCorpusMatchesInRightToLeft() throws {
        let url = try #require(Bundle.module.url(forResource: "yoga-flexbox-rtl", withExtension: "json",
                                                 subdirectory: "Fixtures"))
        let cases = try CorpusFile.load(contentsOf: url)
        #expect(cases.count == 494)
        #expect(cases.allSatisfy { $0.direction == .rtl })
        let failures = cases.compactMap { c in CorpusEvaluator.run(c, tolerance: 0).failure.map { "\(c.name): \($0)" } }
        print("corpus RTL: \(cases.count - failures.count)/\(cases.count) exact")
        #expect(failures.isEmpty, "\(failures.count) failing: \(failures.prefix(10).joined(separator: "\n"))")
    }

    @Test func horizontalStackRunsFromTheRight() throws {
        let stack = StackLayoutSpec(direction: .horizontal, spacing: 5, children: [leaf(10, 10), leaf(20, 10)])
        let l = try stack.layoutThatFits(exactly(100, 10), context: rtlContext())
        #expect(frames(l) == [rect(90, 0, 10, 10), rect(65, 0, 20, 10)])
        // `horizontalReverse` in RTL runs from the left, as `row-reverse` does in the browser.
        let reverse = StackLayoutSpec(direction: .horizontalReverse, children: [leaf(10, 10), leaf(20, 10)])
        #expect(frames(try reverse.layoutThatFits(exactly(100, 10), context: rtlContext()))
                == [rect(0, 0, 10, 10), rect(10, 0, 20, 10)])
    }

    @Test func verticalStackAlignsToTheRight() throws {
        let stack = StackLayoutSpec(direction: .vertical, alignItems: .start, children: [leaf(10, 10), leaf(20, 10)])
        let l = try stack.layoutThatFits(exactly(100, 40), context: rtlContext())
        #expect(frames(l) == [rect(90, 0, 10, 10), rect(80, 10, 20, 10)])
        let end = StackLayoutSpec(direction: .vertical, alignItems: .end, children: [leaf(10, 10)])
        #expect(frames(try end.layoutThatFits(exactly(100, 40), context: rtlContext())) == [rect(0, 0, 10, 10)])
    }

    @Test func directionInheritsAndAChildMayOverride() throws {
        var ltr = Style(); ltr.direction = .ltr
        let inner = StackLayoutSpec(direction: .horizontal, style: ltr, children: [leaf(10, 10)])
        var innerStyle = inner.style; innerStyle.width = 50
        let wrapped = StackLayoutSpec(direction: .horizontal, style: innerStyle, children: [leaf(10, 10)])
        var rtlStyle = Style(); rtlStyle.direction = .rtl
        let outer = StackLayoutSpec(direction: .horizontal, alignItems: .start, style: rtlStyle,
                                    children: [wrapped, StackLayoutSpec(direction: .horizontal, style: sized(50, 10),
                                                                        children: [leaf(10, 10)])])
        let l = try outer.layoutThatFits(exactly(100, 10))
        // The outer stack is RTL (from the style, not the context): the LTR child sits at the
        // right and keeps its leaf on its left; the inheriting one is RTL inside.
        #expect(allFrames(l) == [rect(0, 0, 100, 10), rect(50, 0, 50, 10), rect(0, 0, 10, 10),
                                 rect(0, 0, 50, 10), rect(40, 0, 10, 10)])
    }

    @Test func logicalEdgesResolveByDirection() throws {
        var s = sized(10, 10)
        s.margin = EdgeDimensions(start: 5, end: 0)
        s.margin.left = 1   // A physical edge under a logical one loses, as in Yoga.
        let stack = StackLayoutSpec(direction: .horizontal, children: [leaf(10, 10, style: s)])
        #expect(frames(try stack.layoutThatFits(exactly(100, 10))) == [rect(5, 0, 10, 10)])
        #expect(frames(try stack.layoutThatFits(exactly(100, 10), context: rtlContext())) == [rect(85, 0, 10, 10)])
        // A physical margin stays physical in RTL.
        var p = sized(10, 10); p.margin.left = 5
        let physical = StackLayoutSpec(direction: .horizontal, children: [leaf(10, 10, style: p)])
        #expect(frames(try physical.layoutThatFits(exactly(100, 10), context: rtlContext())) == [rect(90, 0, 10, 10)])

        var padded = Style(); padded.padding = EdgeDimensions(start: 7, end: 0); padded.borderStart = 3
        let box = StackLayoutSpec(direction: .horizontal, style: padded, children: [leaf(10, 10)])
        #expect(frames(try box.layoutThatFits(exactly(100, 10), context: rtlContext())) == [rect(80, 0, 10, 10)])
        #expect(frames(try box.layoutThatFits(exactly(100, 10))) == [rect(10, 0, 10, 10)])
    }

    @Test func insetsFavourTheInlineStartSide() throws {
        var abs = sized(10, 10)
        abs.positionType = .absolute
        abs.insets = PositionInsets(left: 5, right: 20)
        let stack = StackLayoutSpec(direction: .horizontal, children: [leaf(10, 10, style: abs)])
        #expect(frames(try stack.layoutThatFits(exactly(100, 10))) == [rect(5, 0, 10, 10)])
        #expect(frames(try stack.layoutThatFits(exactly(100, 10), context: rtlContext())) == [rect(70, 0, 10, 10)])
        var rel = sized(10, 10)
        rel.insets = PositionInsets(left: 5, right: 20)
        let relStack = StackLayoutSpec(direction: .horizontal, children: [leaf(10, 10, style: rel)])
        #expect(frames(try relStack.layoutThatFits(exactly(100, 10))) == [rect(5, 0, 10, 10)])
        #expect(frames(try relStack.layoutThatFits(exactly(100, 10), context: rtlContext())) == [rect(70, 0, 10, 10)])
        var logical = sized(10, 10)
        logical.positionType = .absolute
        logical.insets.start = 4
        let logicalStack = StackLayoutSpec(direction: .horizontal, children: [leaf(10, 10, style: logical)])
        #expect(frames(try logicalStack.layoutThatFits(exactly(100, 10), context: rtlContext())) == [rect(86, 0, 10, 10)])
    }

    @Test func textureSpecsMirror() throws {
        let inset = InsetLayoutSpec(insets: EdgeInsets(top: 0, left: 2, bottom: 0, right: 8), child: leaf(50, 20))
        #expect(frames(try inset.layoutThatFits(exactly(100, 20), context: rtlContext())) == [rect(8, 0, 90, 20)])
        let relative = RelativeLayoutSpec(horizontalPosition: .start, verticalPosition: .start, child: leaf(10, 10))
        #expect(frames(try relative.layoutThatFits(exactly(100, 20), context: rtlContext())) == [rect(90, 0, 10, 10)])
        let corner = CornerLayoutSpec(child: leaf(40, 40), corner: leaf(10, 10), location: .topLeft,
                                      offset: Point(x: 2, y: 0))
        #expect(frames(try corner.layoutThatFits(exactly(40, 40), context: rtlContext()))
                == [rect(0, 0, 40, 40), rect(33, -5, 10, 10)])
        var placed = sized(10, 10); placed.layoutPosition = Point(x: 5, y: 3)
        let absolute = AbsoluteLayoutSpec(children: [leaf(10, 10, style: placed)])
        #expect(frames(try absolute.layoutThatFits(exactly(100, 20), context: rtlContext())) == [rect(85, 3, 10, 10)])
        // A spec's own style direction wins over the pass's.
        var ltr = Style(); ltr.direction = .ltr
        let pinned = RelativeLayoutSpec(horizontalPosition: .start, verticalPosition: .start, style: ltr, child: leaf(10, 10))
        #expect(frames(try pinned.layoutThatFits(exactly(100, 20), context: rtlContext())) == [rect(0, 0, 10, 10)])
    }

    @Test func specInsideARightToLeftStackMirrors() throws {
        var rtl = Style(); rtl.direction = .rtl
        let relative = RelativeLayoutSpec(horizontalPosition: .start, verticalPosition: .start, style: sized(50, 10),
                                          child: leaf(10, 10))
        let stack = StackLayoutSpec(direction: .vertical, style: rtl, children: [relative])
        let l = try stack.layoutThatFits(exactly(100, 10))
        // The 50-wide spec sits at the stack's start (right); its child at the spec's start (right).
        #expect(allFrames(l) == [rect(0, 0, 100, 10), rect(50, 0, 50, 10), rect(40, 0, 10, 10)])
    }

    @Test func overlayFilesAreCheckedAndMerged() throws {
        let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("silk-overlay-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let base = #"{"cases":[{"name":"a","root":{"style":{"flexDirection":"row","width":100,"height":10},"children":[{"style":{"width":10,"marginLeft":5}}]}}]}"#
        try Data(base.utf8).write(to: dir.appendingPathComponent("base.json"))
        func load(_ text: String) throws -> [CorpusCase] {
            let url = dir.appendingPathComponent("overlay.json")
            try Data(text.utf8).write(to: url)
            return try CorpusFile.load(contentsOf: url)
        }
        let good = try load(#"{"base":"base.json","direction":"rtl","cases":[{"name":"a","expected":[[0,0,100,10],[75,0,10,10]],"styles":{"0":{"width":10,"marginStart":15}}}]}"#)
        #expect(good.count == 1 && good[0].direction == .rtl)
        #expect(CorpusEvaluator.run(good[0], tolerance: 0).passed)
        let wrong = try load(#"{"base":"base.json","direction":"rtl","cases":[{"name":"a","expected":[[0,0,100,10],[85,0,10,10]]}]}"#)
        #expect(!CorpusEvaluator.run(wrong[0], tolerance: 0).passed)   // the physical margin stays left
        func message(_ text: String) -> String? {
            do { _ = try load(text); return nil } catch let e as CorpusError { return e.message } catch { return "\(error)" }
        }
        #expect(message(#"{"base":"../base.json","cases":[]}"#)?.contains("next to the overlay") == true)
        #expect(message(#"{"base":"missing.json","cases":[]}"#)?.contains("no such file") == true)
        #expect(message(#"{"base":"base.json","cases":[{"name":"zz"}]}"#)?.contains("no such case") == true)
        #expect(message(#"{"base":"base.json","cases":[{"name":"a","expected":[[0,0,1,1]]}]}"#)?.contains("fewer expected frames") == true)
        #expect(message(#"{"base":"base.json","cases":[{"name":"a","expected":[[0,0,1,1],[0,0,1,1],[0,0,1,1]]}]}"#)?.contains("3 expected frames for 2 nodes") == true)
        #expect(message(#"{"base":"base.json","cases":[{"name":"a","styles":{"3":{}}}]}"#)?.contains("names no node") == true)
        #expect(message(#"{"base":"base.json","direction":"up","cases":[]}"#)?.contains("not \"ltr\"") == true)
        #expect(message(#"{"base":"overlay.json","cases":[]}"#)?.contains("itself an overlay") == true)
        // Without a file there is no directory to find the base in.
        #expect(throws: CorpusError.self) { try CorpusFile.parse(Data(#"{"base":"base.json","cases":[]}"#.utf8)) }
    }
}

/// A stand-in for a text node: a fixed size with first and last baselines.
struct TextLeaf: LayoutElement {
    var style = Style()
    let size: Size
    let first: Double, last: Double
    func calculateLayoutThatFits(_ constrainedSize: SizeRange, context: LayoutContext) throws(LayoutError) -> Layout {
        Layout(element: self, size: constrainedSize.clamp(size), baselines: LayoutBaselines(first: first, last: last))
    }
}

/// Texture's `ASStackLayoutAlignItemsBaselineFirst/Last` with text of different sizes.
@Suite struct BaselineTests {
    @Test func firstBaselinesLineUp() throws {
        let big = TextLeaf(size: Size(width: 40, height: 30), first: 24, last: 24)
        let small = TextLeaf(size: Size(width: 20, height: 12), first: 10, last: 10)
        let stack = StackLayoutSpec(direction: .horizontal, alignItems: .baselineFirst, children: [big, small])
        let l = try stack.layoutThatFits(upTo(200, 200))
        #expect(frames(l) == [rect(0, 0, 40, 30), rect(40, 14, 20, 12)])
        #expect(l.size.height == 30)
    }

    @Test func lastBaselinesLineUp() throws {
        // Two lines of big text (last baseline 54) beside one small line.
        let big = TextLeaf(size: Size(width: 40, height: 60), first: 24, last: 54)
        let small = TextLeaf(size: Size(width: 20, height: 12), first: 10, last: 10)
        let first = StackLayoutSpec(direction: .horizontal, alignItems: .baselineFirst, children: [big, small])
        let last = StackLayoutSpec(direction: .horizontal, alignItems: .baselineLast, children: [big, small])
        #expect(frames(try first.layoutThatFits(upTo(200, 200)))[1].minY == 14)
        #expect(frames(try last.layoutThatFits(upTo(200, 200)))[1].minY == 44)
    }

    @Test func paddingAndNestingKeepBaselines() throws {
        var padded = Style(); padded.padding.top = 6
        let big = TextLeaf(style: padded, size: Size(width: 40, height: 30), first: 24, last: 24)
        let small = TextLeaf(size: Size(width: 20, height: 12), first: 10, last: 10)
        // A column whose first child is the small text: its baseline is that child's.
        let column = StackLayoutSpec(direction: .vertical, alignItems: .start, children: [small])
        let stack = StackLayoutSpec(direction: .horizontal, alignItems: .baselineFirst, children: [big, column])
        let l = try stack.layoutThatFits(upTo(200, 200))
        // big's baseline is 6 + 24 = 30 from its top; the column moves down 30 − 10.
        #expect(frames(l) == [rect(0, 0, 40, 36), rect(40, 20, 20, 12)])
    }

    @Test func withoutTextTheBottomEdgeIsTheBaseline() throws {
        let stack = StackLayoutSpec(direction: .horizontal, alignItems: .baselineFirst, children: [leaf(10, 30), leaf(10, 10)])
        #expect(frames(try stack.layoutThatFits(upTo(100, 100))) == [rect(0, 0, 10, 30), rect(10, 20, 10, 10)])
    }
}

@Suite struct DirectionDefaultsTests {
    @Test func localesOfRightToLeftLanguagesAreRightToLeft() {
        #expect(LayoutDirection.forLocale("ar_EG.UTF-8") == .rtl)
        #expect(LayoutDirection.forLocale("he") == .rtl)
        #expect(LayoutDirection.forLocale("fa-IR") == .rtl)
        #expect(LayoutDirection.forLocale("en_US.UTF-8") == .ltr)
        #expect(LayoutDirection.forLocale("C.UTF-8") == .ltr)
        #expect(LayoutDirection.forLocale("") == .ltr)
    }

    @Test func aNodeCachesEachDirectionSeparately() throws {
        let child = leaf(10, 10)
        let node = LayoutNode(name: "row", content: .layoutSpec { _ in
            StackLayoutSpec(direction: .horizontal, children: [child])
        })
        node.addSubnode(child)
        let range = exactly(100, 10)
        let ltr = try node.layoutThatFits(range, context: LayoutContext())
        let rtl = try node.layoutThatFits(range, context: LayoutContext(direction: .rtl))
        #expect(allFrames(ltr)[2] == rect(0, 0, 10, 10))
        #expect(allFrames(rtl)[2] == rect(90, 0, 10, 10))
        #expect(allFrames(try node.layoutThatFits(range, context: LayoutContext())) == allFrames(ltr))
    }
}
