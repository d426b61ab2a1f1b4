import SilkGeometry
import Testing
@testable import SilkLayout

@Suite struct DebugTests {
    @Test func asciiArtDrawsNestedBoxes() {
        let spec = StackLayoutSpec(direction: .horizontal, children: [
            InsetLayoutSpec(insets: EdgeInsets(all: 4), child: leaf(4, 4, name: "image")),
            leaf(0, 0, name: "text")])
        let art = spec.asciiArtString
        let lines = art.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("Stack(horizontal)") == true)
        #expect(art.contains("[image]") && art.contains("[text]"))
        // Side by side: the inset's box and the text share a line.
        #expect(lines.contains { $0.contains("Inset") && $0.contains("[text]") })
        #expect(Set(lines.map(\.count)).count == 1)   // a rectangle
    }

    @Test func asciiArtOfAVeryDeepTreeIsCut() {
        var e: any LayoutElement = leaf(1, 1)
        for _ in 0..<300 { e = WrapperLayoutSpec(e) }
        #expect(e.asciiArtString.contains("[…]"))
    }

    @Test func recursiveDescriptionListsEveryLayout() throws {
        let spec = StackLayoutSpec(direction: .vertical, children: [leaf(10, 20, name: "a"), leaf(30, 5, name: "b")])
        let text = try spec.layoutThatFits(upTo(100, 100)).recursiveDescription
        #expect(text == """
            Stack(vertical) {0, 0, 30×25}
              a {0, 0, 30×20}
              b {0, 20, 30×5}

            """)
    }

    @Test func flattenedGivesLeafElementsInRootCoordinates() throws {
        let a = leaf(10, 10, name: "a"), b = leaf(10, 10, name: "b")
        let spec = InsetLayoutSpec(insets: EdgeInsets(all: 5), child:
            StackLayoutSpec(direction: .horizontal, spacing: 3, children: [a, b]))
        let flat = try spec.layoutThatFits(upTo(100, 100)).flattened()
        #expect(flat.count == 2)
        #expect((flat[0].element as? LayoutNode) === a && (flat[1].element as? LayoutNode) === b)
        #expect(flat.map(\.frame) == [rect(5, 5, 10, 10), rect(18, 5, 10, 10)])
    }

    @Test func roundingFollowsYogasPixelGrid() {
        let child = Layout(element: leaf(0, 0), size: Size(width: 10.4, height: 10.5), position: Point(x: 0.3, y: 0.5))
        let root = Layout(element: leaf(0, 0), size: Size(width: 20.6, height: 20), sublayouts: [child])
        let r = root.roundedToPixelGrid()
        #expect(r.size == Size(width: 21, height: 20))
        #expect(r.sublayouts[0].frame == rect(0, 1, 11, 10))
        let r2 = root.roundedToPixelGrid(scale: 2)
        #expect(r2.sublayouts[0].frame == rect(0.5, 0.5, 10, 10.5))
    }
}
