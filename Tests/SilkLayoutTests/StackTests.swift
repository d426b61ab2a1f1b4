import SilkGeometry
import Testing
@testable import SilkLayout

/// ASStackLayoutSpec semantics: Texture's defaults (flexShrink 0, alignItems start), spacing,
/// spacingBefore/After, baselines from ascender/descender, wrapping with lineSpacing.
@Suite struct StackTests {
    @Test func fitsContentWithinABoundedRange() throws {
        let stack = StackLayoutSpec(direction: .horizontal, spacing: 10, alignItems: .start, children: [leaf(50, 20), leaf(30, 40)])
        let layout = try stack.layoutThatFits(upTo(300, .infinity))
        #expect(layout.size == Size(width: 90, height: 40))
        #expect(frames(layout) == [rect(0, 0, 50, 20), rect(60, 0, 30, 40)])
    }

    @Test func honoursTheRangeMinimum() throws {
        let stack = StackLayoutSpec(direction: .horizontal, justifyContent: .end, alignItems: .start, children: [leaf(50, 20)])
        let layout = try stack.layoutThatFits(SizeRange(min: Size(width: 200, height: 30), max: Size(width: 300, height: 100)))
        #expect(layout.size == Size(width: 200, height: 30))
        #expect(frames(layout) == [rect(150, 0, 50, 20)])
    }

    @Test func childrenDoNotShrinkByDefault() throws {
        let stack = StackLayoutSpec(direction: .horizontal, alignItems: .start, children: [leaf(200, 10), leaf(200, 10)])
        let layout = try stack.layoutThatFits(exactly(300, 10))
        #expect(frames(layout).map(\.width) == [200, 200])

        var shrinks = Style()
        shrinks.flexShrink = 1
        let shrinking = StackLayoutSpec(direction: .horizontal, alignItems: .start, children: [
            leaf(200, 10, style: shrinks), leaf(200, 10, style: shrinks)])
        #expect(frames(try shrinking.layoutThatFits(exactly(300, 10))).map(\.width) == [150, 150])
    }

    @Test func growDistributesFreeSpaceByFactor() throws {
        var one = Style(), two = Style()
        one.flexGrow = 1
        two.flexGrow = 2
        let stack = StackLayoutSpec(direction: .horizontal, alignItems: .start, children: [leaf(0, 10, style: one), leaf(0, 10, style: two)])
        #expect(frames(try stack.layoutThatFits(exactly(300, 10))).map(\.width) == [100, 200])
    }

    @Test func spacingBeforeAndAfterAddToSpacing() throws {
        var before = Style()
        before.spacingBefore = 5
        var after = Style()
        after.spacingAfter = 7
        let stack = StackLayoutSpec(direction: .horizontal, spacing: 10, alignItems: .start, children: [
            leaf(50, 20, style: after), leaf(30, 20, style: before), leaf(10, 20)])
        let layout = try stack.layoutThatFits(upTo(500, 100))
        #expect(frames(layout).map(\.minX) == [0, 72, 112])
        #expect(layout.size.width == 122)
    }

    @Test func justifyContent() throws {
        func xs(_ j: StackJustifyContent) throws -> [Double] {
            let s = StackLayoutSpec(direction: .horizontal, justifyContent: j, alignItems: .start, children: [leaf(20, 10), leaf(20, 10)])
            return frames(try s.layoutThatFits(exactly(100, 10))).map(\.minX)
        }
        #expect(try xs(.start) == [0, 20])
        #expect(try xs(.center) == [30, 50])
        #expect(try xs(.end) == [60, 80])
        #expect(try xs(.spaceBetween) == [0, 80])
        #expect(try xs(.spaceAround) == [15, 65])
        #expect(try xs(.spaceEvenly) == [20, 60])
    }

    @Test func alignItems() throws {
        func ys(_ a: StackAlignItems) throws -> [Rect] {
            let s = StackLayoutSpec(direction: .horizontal, alignItems: a, children: [leaf(20, 10), leaf(20, 30)])
            return frames(try s.layoutThatFits(exactly(100, 50)))
        }
        #expect(try ys(.start) == [rect(0, 0, 20, 10), rect(20, 0, 20, 30)])
        #expect(try ys(.end) == [rect(0, 40, 20, 10), rect(20, 20, 20, 30)])
        #expect(try ys(.center) == [rect(0, 20, 20, 10), rect(20, 10, 20, 30)])
        #expect(try ys(.stretch) == [rect(0, 0, 20, 50), rect(20, 0, 20, 50)])
    }

    @Test func childrenStretchAcrossByDefaultAsInTexture() throws {
        let s = StackLayoutSpec(direction: .horizontal, children: [leaf(10, 10), leaf(10, 30)])
        #expect(frames(try s.layoutThatFits(exactly(100, 50))).map(\.height) == [50, 50])
    }

    @Test func alignSelfOverridesAlignItems() throws {
        var end = Style()
        end.alignSelf = .end
        let s = StackLayoutSpec(direction: .vertical, alignItems: .start, children: [leaf(20, 10), leaf(20, 10, style: end)])
        #expect(frames(try s.layoutThatFits(exactly(100, 100))) == [rect(0, 0, 20, 10), rect(80, 10, 20, 10)])
    }

    @Test func firstBaselinesAlignByAscender() throws {
        var a = Style(), b = Style()
        a.ascender = 20
        b.ascender = 10
        let s = StackLayoutSpec(direction: .horizontal, alignItems: .baselineFirst,
                                children: [leaf(50, 30, style: a), leaf(50, 20, style: b)])
        let layout = try s.layoutThatFits(upTo(500, 500))
        #expect(frames(layout) == [rect(0, 0, 50, 30), rect(50, 10, 50, 20)])
        #expect(layout.size.height == 30)
    }

    @Test func lastBaselinesAlignByDescender() throws {
        var a = Style(), b = Style()
        a.descender = -5   // last baseline 25 from the top
        b.descender = -2   // 18 from the top
        let s = StackLayoutSpec(direction: .horizontal, alignItems: .baselineLast,
                                children: [leaf(50, 30, style: a), leaf(50, 20, style: b)])
        let layout = try s.layoutThatFits(upTo(500, 500))
        #expect(frames(layout) == [rect(0, 0, 50, 30), rect(50, 7, 50, 20)])
    }

    @Test func wrapsIntoLinesSeparatedByLineSpacing() throws {
        let s = StackLayoutSpec(direction: .horizontal, spacing: 10, alignItems: .start, flexWrap: .wrap, lineSpacing: 5,
                                children: [leaf(40, 10), leaf(40, 10), leaf(40, 10)])
        let layout = try s.layoutThatFits(SizeRange(min: Size(width: 100, height: 0), max: Size(width: 100, height: .infinity)))
        #expect(frames(layout) == [rect(0, 0, 40, 10), rect(50, 0, 40, 10), rect(0, 15, 40, 10)])
        #expect(layout.size == Size(width: 100, height: 25))
    }

    @Test func wrapReverseAndAlignContent() throws {
        let s = StackLayoutSpec(direction: .horizontal, alignItems: .start, flexWrap: .wrapReverse, alignContent: .start,
                                children: [leaf(60, 10), leaf(60, 10)])
        let layout = try s.layoutThatFits(exactly(100, 50))
        #expect(frames(layout) == [rect(0, 40, 60, 10), rect(0, 30, 60, 10)])

        let stretched = StackLayoutSpec(direction: .horizontal, alignItems: .stretch, flexWrap: .wrap,
                                        alignContent: .stretch, children: [leaf(60, 10), leaf(60, 10)])
        #expect(frames(try stretched.layoutThatFits(exactly(100, 50))).map(\.height) == [25, 25])
    }

    @Test func reversedDirections() throws {
        let row = StackLayoutSpec(direction: .horizontalReverse, alignItems: .start, children: [leaf(20, 10), leaf(30, 10)])
        #expect(frames(try row.layoutThatFits(exactly(100, 10))).map(\.minX) == [80, 50])
        let column = StackLayoutSpec(direction: .verticalReverse, alignItems: .start, children: [leaf(20, 10), leaf(30, 20)])
        #expect(frames(try column.layoutThatFits(exactly(100, 100))).map(\.minY) == [90, 70])
    }

    @Test func fractionsAndMarginsAndPadding() throws {
        var half = Style()
        half.width = .fraction(0.5)
        half.margin = EdgeDimensions(top: 0, left: 10, bottom: 0, right: 0)
        var padded = Style()
        padded.padding = EdgeDimensions(all: 5)
        let s = StackLayoutSpec(direction: .horizontal, alignItems: .start, style: padded, children: [leaf(0, 10, style: half)])
        let layout = try s.layoutThatFits(exactly(210, 50))
        #expect(frames(layout) == [rect(15, 5, 100, 10)])
    }

    @Test func absoluteChildrenUseInsets() throws {
        var pinned = Style()
        pinned.positionType = .absolute
        pinned.insets = PositionInsets(bottom: 5, right: 10)
        let s = StackLayoutSpec(direction: .vertical, alignItems: .start, children: [leaf(20, 20), leaf(30, 10, style: pinned)])
        let layout = try s.layoutThatFits(exactly(100, 100))
        #expect(frames(layout) == [rect(0, 0, 20, 20), rect(60, 85, 30, 10)])
    }

    @Test func displayNoneTakesNoSpace() throws {
        var hidden = Style()
        hidden.display = .none
        let s = StackLayoutSpec(direction: .horizontal, spacing: 0, alignItems: .start, children: [leaf(20, 10, style: hidden), leaf(30, 10)])
        #expect(frames(try s.layoutThatFits(upTo(100, 100))) == [rect(0, 0, 0, 0), rect(0, 0, 30, 10)])
    }

    @Test func contentBoxAddsPaddingAndBorderToTheSize() throws {
        var box = sized(100, 50)
        box.boxSizing = .contentBox
        box.padding = EdgeDimensions(all: 5)
        box.border = EdgeInsets(all: 2)
        let s = StackLayoutSpec(direction: .vertical, children: [StackLayoutSpec(alignItems: .start, style: box, children: [])])
        #expect(frames(try s.layoutThatFits(upTo(500, 500))) == [rect(0, 0, 114, 64)])
    }

    @Test func displayContentsLiftsChildrenIntoTheParent() throws {
        var contents = Style()
        contents.display = .contents
        let wrapper = StackLayoutSpec(style: contents, children: [leaf(10, 10), leaf(20, 10)])
        let s = StackLayoutSpec(direction: .horizontal, spacing: 5, alignItems: .start, children: [leaf(30, 10), wrapper])
        let layout = try s.layoutThatFits(upTo(500, 500))
        #expect(frames(layout) == [rect(0, 0, 30, 10), rect(0, 0, 0, 0)])
        #expect(frames(layout.sublayouts[1]) == [rect(35, 0, 10, 10), rect(50, 0, 20, 10)])
    }

    @Test func aspectRatioSizesTheOtherAxis() throws {
        var square = Style()
        square.aspectRatio = 2
        square.width = 50
        let s = StackLayoutSpec(direction: .vertical, children: [StackLayoutSpec(alignItems: .start, style: square, children: [])])
        #expect(frames(try s.layoutThatFits(upTo(100, 100))) == [rect(0, 0, 50, 25)])
    }

    @Test func nestedStacksWithNonStackSpecsBetweenThem() throws {
        let inner = StackLayoutSpec(direction: .vertical, spacing: 2, alignItems: .start, children: [leaf(10, 10), leaf(20, 10)])
        let outer = StackLayoutSpec(direction: .horizontal, spacing: 4, alignItems: .center, children: [
            InsetLayoutSpec(insets: EdgeInsets(all: 3), child: inner), leaf(5, 5)])
        let layout = try outer.layoutThatFits(upTo(200, 200))
        #expect(layout.size == Size(width: 35, height: 28))
        #expect(frames(layout) == [rect(0, 0, 26, 28), rect(30, 11.5, 5, 5)])
        #expect(frames(layout.sublayouts[0]) == [rect(3, 3, 20, 22)])
    }
}
