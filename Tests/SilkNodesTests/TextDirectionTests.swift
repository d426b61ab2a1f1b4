import SilkGeometry
import SilkLayout
import SilkRaster
import Testing
@testable import SilkNodes

/// Text nodes align `natural` paragraphs by their layout direction, and hug their text, so a
/// right-to-left title in a button stays centred.
@Suite struct TextDirectionTests {
    private func text(_ s: String, _ alignment: TextAlignment = .natural) -> TextNode {
        TextNode(AttributedText(s, attributes: TextAttributes(fontSize: 16, alignment: alignment)))
    }

    @Test func naturalTextFollowsTheNodesLayoutDirection() throws {
        for s in ["hello", "שלום"] {
            let node = text(s)
            let range = SizeRange(exactly: Size(width: 300, height: 40))
            _ = try node.layoutThatFits(range, context: LayoutContext(direction: .rtl))
            #expect(node.layoutDirection == .rtl)
            #expect(abs(node.layout(forWidth: 300).lines[0].rect.maxX - 300) < 0.01, "\(s) rtl")
            _ = try node.layoutThatFits(range, context: LayoutContext(direction: .ltr))
            #expect(node.layoutDirection == .ltr)
            #expect(abs(node.layout(forWidth: 300).lines[0].rect.minX) < 0.01, "\(s) ltr")
        }
    }

    @Test func aNodesOwnDirectionWinsOverItsContext() throws {
        let node = text("hello")
        node.style.direction = .rtl
        let stack = StackLayoutSpec(direction: .vertical, children: [node])
        _ = try stack.layoutThatFits(SizeRange(exactly: Size(width: 200, height: 100)), context: LayoutContext(direction: .ltr))
        #expect(node.layoutDirection == .rtl)
        #expect(abs(node.layout(forWidth: 200).lines[0].rect.maxX - 200) < 0.01)
    }

    @Test func explicitAlignmentIsKeptInBothDirections() throws {
        let node = text("hello", .left)
        _ = try node.layoutThatFits(SizeRange(exactly: Size(width: 300, height: 40)), context: LayoutContext(direction: .rtl))
        #expect(abs(node.layout(forWidth: 300).lines[0].rect.minX) < 0.01)
    }

    @Test func rightToLeftTextHugsItsLines() throws {
        let node = text("שלום")
        for d in [LayoutDirection.ltr, .rtl] {
            let size = try node.layoutThatFits(SizeRange(max: Size(width: 300, height: 100)), context: LayoutContext(direction: d)).size
            #expect(size.width < 100, "\(d)")
        }
    }

    /// The known bug: a Hebrew or Arabic button title sat at the button's right edge.
    @Test func buttonTitleInARightToLeftScriptIsCentred() throws {
        for (title, direction) in [("שלום", LayoutDirection.ltr), ("مرحبا", .ltr), ("שלום", .rtl), ("hello", .rtl)] {
            let button = ButtonNode()
            button.setTitle(title)
            let layout = try button.layoutThatFits(SizeRange(exactly: Size(width: 200, height: 44)),
                                                   context: LayoutContext(direction: direction))
            NodePass.apply(layout, to: button)
            let f = button.titleNode.frame
            #expect(f.width < 100, "\(title) \(direction)")
            #expect(abs(f.midX - 100) < 1, "\(title) \(direction): title at \(f)")
        }
    }
}
