import SilkGeometry
import Testing
@testable import SilkLayout

/// Texture semantics of the non-stack specs.
@Suite struct SpecTests {
    @Test func insetAddsSpaceAroundTheChild() throws {
        let spec = InsetLayoutSpec(insets: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4), child: leaf(50, 20))
        let layout = try spec.layoutThatFits(upTo(200, 200))
        #expect(layout.size == Size(width: 56, height: 24))
        #expect(frames(layout) == [rect(2, 1, 50, 20)])
    }

    @Test func insetPassesTheRangeMinusInsetsToTheChild() throws {
        let spec = InsetLayoutSpec(insets: EdgeInsets(all: 10), child: leaf(50, 20))
        let layout = try spec.layoutThatFits(exactly(200, 100))
        #expect(layout.size == Size(width: 200, height: 100))
        #expect(frames(layout) == [rect(10, 10, 180, 80)])
    }

    @Test func infiniteInsetPushesTheChildToTheOtherSide() throws {
        let spec = InsetLayoutSpec(insets: EdgeInsets(top: .infinity, left: 10, bottom: 0, right: .infinity),
                                   child: leaf(50, 20))
        let layout = try spec.layoutThatFits(exactly(200, 100))
        #expect(layout.size == Size(width: 200, height: 100))
        #expect(frames(layout) == [rect(10, 80, 50, 20)])
    }

    @Test func infiniteInsetsOnBothSidesCenter() throws {
        let spec = InsetLayoutSpec(insets: EdgeInsets(top: 0, left: .infinity, bottom: 0, right: .infinity),
                                   child: leaf(50, 20))
        let layout = try spec.layoutThatFits(exactly(200, 20))
        #expect(frames(layout) == [rect(75, 0, 50, 20)])
        // Unbounded: there is no space to push into, the spec hugs the child.
        let unbounded = try spec.layoutThatFits(.unconstrained)
        #expect(unbounded.size == Size(width: 50, height: 20))
    }

    @Test func overlayIsTheChildsSizeAndCoversIt() throws {
        let spec = OverlayLayoutSpec(child: leaf(50, 20), overlay: leaf(10, 10))
        let layout = try spec.layoutThatFits(upTo(100, 100))
        #expect(layout.size == Size(width: 50, height: 20))
        #expect(frames(layout) == [rect(0, 0, 50, 20), rect(0, 0, 50, 20)])
    }

    @Test func backgroundIsBehindAndTheChildsSize() throws {
        let back = leaf(300, 300, name: "back")
        let spec = BackgroundLayoutSpec(child: leaf(50, 20), background: back)
        let layout = try spec.layoutThatFits(upTo(100, 100))
        #expect(layout.size == Size(width: 50, height: 20))
        #expect(frames(layout) == [rect(0, 0, 50, 20), rect(0, 0, 50, 20)])
        #expect((layout.sublayouts[0].element as? LayoutNode) === back)
    }

    @Test func centerFillsABoundedRangeAndCenters() throws {
        let spec = CenterLayoutSpec(child: leaf(50, 20))
        let layout = try spec.layoutThatFits(upTo(200, 100))
        #expect(layout.size == Size(width: 200, height: 100))
        #expect(frames(layout) == [rect(75, 40, 50, 20)])
    }

    @Test func centerSizingOptions() throws {
        let minXY = try CenterLayoutSpec(sizingOptions: .minimumSize, child: leaf(50, 20)).layoutThatFits(upTo(200, 100))
        #expect(minXY.size == Size(width: 50, height: 20))
        #expect(frames(minXY) == [rect(0, 0, 50, 20)])
        let minX = try CenterLayoutSpec(sizingOptions: .minimumWidth, child: leaf(50, 20)).layoutThatFits(upTo(200, 100))
        #expect(minX.size == Size(width: 50, height: 100))
        #expect(frames(minX) == [rect(0, 40, 50, 20)])
        // An unbounded axis takes the child's length.
        let open = try CenterLayoutSpec(child: leaf(50, 20)).layoutThatFits(upTo(200, .infinity))
        #expect(open.size == Size(width: 200, height: 20))
    }

    @Test func centerOnOneAxisKeepsTheOtherAtTheStart() throws {
        let x = try CenterLayoutSpec(centeringOptions: .x, child: leaf(50, 20)).layoutThatFits(upTo(200, 100))
        #expect(frames(x) == [rect(75, 0, 50, 20)])
        // Not centering on y means the child takes the range's minimum height.
        let y = try CenterLayoutSpec(centeringOptions: .y, child: leaf(50, 20)).layoutThatFits(exactly(200, 100))
        #expect(frames(y) == [rect(0, 40, 200, 20)])
    }

    @Test func ratioUsesTheMaximumWidth() throws {
        let spec = RatioLayoutSpec(ratio: 0.5, child: leaf(0, 0))
        let layout = try spec.layoutThatFits(upTo(200, .infinity))
        #expect(layout.size == Size(width: 200, height: 100))
        #expect(frames(layout) == [rect(0, 0, 200, 100)])
    }

    @Test func ratioPicksTheOptionClosestToTheRatio() throws {
        let spec = RatioLayoutSpec(ratio: 0.5, child: leaf(0, 0))
        // Width-first would be 300×150, clamped to 300×100 (ratio ⅓); height-first is 200×100.
        #expect(try spec.layoutThatFits(upTo(300, 100)).size == Size(width: 200, height: 100))
        // No maximum: the child decides.
        #expect(try spec.layoutThatFits(.unconstrained).size == Size(width: 0, height: 0))
    }

    @Test func relativePositions() throws {
        func frame(_ h: RelativePosition, _ v: RelativePosition) throws -> Rect {
            let spec = RelativeLayoutSpec(horizontalPosition: h, verticalPosition: v, child: leaf(50, 20))
            return try spec.layoutThatFits(upTo(200, 100)).sublayouts[0].frame
        }
        #expect(try frame(.start, .start) == rect(0, 0, 50, 20))
        #expect(try frame(.end, .end) == rect(150, 80, 50, 20))
        #expect(try frame(.center, .end) == rect(75, 80, 50, 20))
        #expect(try frame(.end, .center) == rect(150, 40, 50, 20))
    }

    @Test func relativeSizingOptionShrinksToTheChild() throws {
        let spec = RelativeLayoutSpec(horizontalPosition: .end, verticalPosition: .end, sizingOptions: .minimumHeight,
                                      child: leaf(50, 20))
        let layout = try spec.layoutThatFits(upTo(200, 100))
        #expect(layout.size == Size(width: 200, height: 20))
        #expect(frames(layout) == [rect(150, 0, 50, 20)])
    }

    @Test func absolutePlacesChildrenAtTheirPositions() throws {
        var a = sized(30, 30), b = sized(10, 10)
        a.layoutPosition = Point(x: 10, y: 20)
        b.layoutPosition = Point(x: 50, y: 5)
        let children: [any LayoutElement] = [StackLayoutSpec(style: a, children: []), StackLayoutSpec(style: b, children: [])]
        let spec = AbsoluteLayoutSpec(children: children)
        let layout = try spec.layoutThatFits(upTo(200, 200))
        #expect(layout.size == Size(width: 200, height: 200))
        #expect(frames(layout) == [rect(10, 20, 30, 30), rect(50, 5, 10, 10)])
    }

    @Test func absoluteSizeToFitWrapsTheChildren() throws {
        var a = sized(30, 30), b = sized(10, 10)
        a.layoutPosition = Point(x: 10, y: 20)
        b.layoutPosition = Point(x: 50, y: 5)
        let spec = AbsoluteLayoutSpec(sizing: .sizeToFit, children: [leaf(0, 0, style: a), leaf(0, 0, style: b)])
        #expect(try spec.layoutThatFits(upTo(200, 200)).size == Size(width: 60, height: 50))
        // Unbounded ranges size to fit even by default.
        #expect(try AbsoluteLayoutSpec(children: [leaf(0, 0, style: a)]).layoutThatFits(.unconstrained).size
                == Size(width: 40, height: 50))
    }

    @Test func cornerCentersTheCornerElementOnTheCorner() throws {
        func layout(_ location: CornerLocation, wraps: Bool = false, offset: Point = .zero) throws -> Layout {
            try CornerLayoutSpec(child: leaf(100, 50), corner: leaf(20, 20), location: location, offset: offset,
                                 wrapsCorner: wraps).layoutThatFits(upTo(300, 300))
        }
        #expect(frames(try layout(.topLeft)) == [rect(0, 0, 100, 50), rect(-10, -10, 20, 20)])
        #expect(frames(try layout(.topRight)) == [rect(0, 0, 100, 50), rect(90, -10, 20, 20)])
        #expect(frames(try layout(.bottomLeft)) == [rect(0, 0, 100, 50), rect(-10, 40, 20, 20)])
        #expect(frames(try layout(.bottomRight, offset: Point(x: -5, y: 2)))
                == [rect(0, 0, 100, 50), rect(85, 42, 20, 20)])
        #expect(try layout(.topRight).size == Size(width: 100, height: 50))
    }

    @Test func cornerWrapsTheCornerWhenAsked() throws {
        let layout = try CornerLayoutSpec(child: leaf(100, 50), corner: leaf(20, 20), location: .topRight,
                                          wrapsCorner: true).layoutThatFits(upTo(300, 300))
        #expect(layout.size == Size(width: 110, height: 60))
        #expect(frames(layout) == [rect(0, 10, 100, 50), rect(90, 0, 20, 20)])
    }

    @Test func wrapperIsAsLargeAsItsLargestChild() throws {
        let layout = try WrapperLayoutSpec(children: [leaf(50, 10), leaf(20, 40)]).layoutThatFits(upTo(300, 300))
        #expect(layout.size == Size(width: 50, height: 40))
        #expect(frames(layout) == [rect(0, 0, 50, 10), rect(0, 0, 20, 40)])
    }

    @Test func styleSizesApplyToEveryElement() throws {
        var s = Style()
        s.width = .fraction(0.5)
        s.maxHeight = 10
        let spec = InsetLayoutSpec(insets: .zero, style: s, child: leaf(30, 30))
        let layout = try spec.layoutThatFits(upTo(300, 300), parentSize: Size(width: 300, height: 300))
        #expect(layout.size == Size(width: 150, height: 10))
    }
}
