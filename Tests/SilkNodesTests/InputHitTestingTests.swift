import Foundation
import Testing
import SilkGeometry
@testable import SilkNodes

@Suite struct InputHitTestingTests {
    @Test func slopGrowsAndShrinksTheHitArea() {
        let small = node(Rect(x: 50, y: 50, width: 20, height: 20))
        small.hitTestSlop = EdgeInsets(all: -10)
        let shrunk = node(Rect(x: 120, y: 50, width: 40, height: 40))
        shrunk.hitTestSlop = EdgeInsets(top: 10, left: 10, bottom: 10, right: 10)
        let root = node(Rect(x: 0, y: 0, width: 200, height: 200), [small, shrunk])
        let d = InputDispatcher(rootNode: root)
        #expect(d.hitTest(Point(x: 41, y: 41)) === small)     // in the slop
        #expect(d.hitTest(Point(x: 79.5, y: 60)) === small)
        #expect(d.hitTest(Point(x: 39, y: 60)) === root)       // beyond it
        #expect(d.hitTest(Point(x: 80, y: 60)) === root)       // the far edge is exclusive
        #expect(d.hitTest(Point(x: 125, y: 55)) === root)      // in the bounds, outside the shrunk area
        #expect(d.hitTest(Point(x: 140, y: 70)) === shrunk)
        #expect(d.hitTest(Point(x: 250, y: 10)) == nil)        // outside the window
    }

    @Test func clippingAncestorsCutOffSubnodesAndSlop() {
        let child = node(Rect(x: 90, y: 10, width: 20, height: 20))
        child.hitTestSlop = EdgeInsets(all: -8)
        let card = node(Rect(x: 0, y: 0, width: 100, height: 100), [child])
        let root = node(Rect(x: 0, y: 0, width: 300, height: 300), [card])
        let d = InputDispatcher(rootNode: root)
        // Not clipped: what sticks out, and its slop, can be hit.
        #expect(d.hitTest(Point(x: 105, y: 15)) === child)
        #expect(d.hitTest(Point(x: 95, y: 5)) === child)
        card.clipsToBounds = true
        #expect(d.hitTest(Point(x: 105, y: 15)) === root)
        #expect(d.hitTest(Point(x: 95, y: 15)) === child)
        #expect(d.hitTest(Point(x: 95, y: 3)) === child)       // slop inside the card still counts
        // A clipping grandparent clips too.
        card.clipsToBounds = false
        let outer = node(Rect(x: 0, y: 0, width: 100, height: 100))
        root.addSubnode(outer)
        card.removeFromSupernode()
        outer.addSubnode(card)
        outer.clipsToBounds = true
        #expect(d.hitTest(Point(x: 105, y: 15)) === root)
    }

    @Test func hiddenTransparentAndNonInteractiveSubtreesTakeNoTouches() {
        let a = node(Rect(x: 10, y: 10, width: 10, height: 10))
        let b = node(Rect(x: 0, y: 0, width: 5, height: 5))
        let parent = node(Rect(x: 0, y: 0, width: 50, height: 50), [a])
        let root = node(Rect(x: 0, y: 0, width: 100, height: 100), [parent])
        a.addSubnode(b)
        let d = InputDispatcher(rootNode: root)
        #expect(d.hitTest(Point(x: 12, y: 12)) === b)
        b.isHidden = true
        #expect(d.hitTest(Point(x: 12, y: 12)) === a)
        a.opacity = 0
        #expect(d.hitTest(Point(x: 12, y: 12)) === parent)
        a.opacity = 1
        b.isHidden = false
        parent.isUserInteractionEnabled = false
        // The whole subtree is skipped; the point falls through to the root.
        #expect(d.hitTest(Point(x: 12, y: 12)) === root)
        parent.isUserInteractionEnabled = true
        a.isUserInteractionEnabled = false
        #expect(d.hitTest(Point(x: 12, y: 12)) === parent)
    }

    @Test func laterSubnodesAreOnTop() {
        let below = node(Rect(x: 0, y: 0, width: 50, height: 50))
        let above = node(Rect(x: 25, y: 25, width: 50, height: 50))
        let root = node(Rect(x: 0, y: 0, width: 100, height: 100), [below, above])
        let d = InputDispatcher(rootNode: root)
        #expect(d.hitTest(Point(x: 30, y: 30)) === above)
        #expect(d.hitTest(Point(x: 10, y: 10)) === below)
        root.moveSubnode(above, to: 0)
        #expect(d.hitTest(Point(x: 30, y: 30)) === below)
        #expect(d.hitTest(Point(x: 60, y: 60)) === above)
    }

    /// A stand-in for the containers issue's ScrollNode: its subnodes are offset by a content
    /// offset, which hit testing and conversion must honour.
    final class OffsetNode: DisplayNode, @unchecked Sendable {
        let offset: Point
        init(offset: Point) { self.offset = offset; super.init() }
        override func convertToSubnodeSpace(_ p: Point) -> Point { p + offset }
        override func convertFromSubnodeSpace(_ p: Point) -> Point { p - offset }
    }

    @Test func subnodeSpaceHookOffsetsHitTestingAndConversion() {
        let scroller = OffsetNode(offset: Point(x: 0, y: 40))
        scroller.frame = Rect(x: 10, y: 10, width: 80, height: 80)
        scroller.clipsToBounds = true
        let row = TouchRecorder(Rect(x: 0, y: 100, width: 80, height: 20))
        scroller.addSubnode(row)
        let root = node(Rect(x: 0, y: 0, width: 100, height: 100), [scroller])
        let d = InputDispatcher(rootNode: root)
        // The row's top is at 10 + 100 - 40 = 70 in the window.
        #expect(d.hitTest(Point(x: 20, y: 69)) === scroller)
        #expect(d.hitTest(Point(x: 20, y: 71)) === row)
        #expect(row.convert(Point(x: 5, y: 5), to: nil) == Point(x: 15, y: 75))
        #expect(row.convert(Point(x: 15, y: 75), from: nil) == Point(x: 5, y: 5))
        d.down(20, 75, at: 1)
        #expect(row.entries == ["began (10, 5)"])
        // Clipped: the part of the row scrolled below the scroller's bottom edge is not hit.
        scroller.frame = Rect(x: 10, y: 10, width: 80, height: 62)
        #expect(d.hitTest(Point(x: 20, y: 73)) === root)
    }

    @Test func hitAreasForTheDebugOverlayAreClipped() {
        let control = ControlNode()
        control.frame = Rect(x: 80, y: 10, width: 20, height: 20)
        control.hitTestSlop = EdgeInsets(all: -10)
        let card = node(Rect(x: 10, y: 10, width: 100, height: 100), [control])
        let root = node(Rect(x: 0, y: 0, width: 200, height: 200), [card])
        var areas = visibleHitAreas(in: root) { $0 is ControlNode }.map(\.rect)
        #expect(areas == [Rect(x: 80, y: 10, width: 40, height: 40)])
        card.clipsToBounds = true
        areas = visibleHitAreas(in: root) { $0 is ControlNode }.map(\.rect)
        #expect(areas == [Rect(x: 80, y: 10, width: 30, height: 40)])
        card.isHidden = true
        #expect(visibleHitAreas(in: root) { $0 is ControlNode }.isEmpty)
    }
}
