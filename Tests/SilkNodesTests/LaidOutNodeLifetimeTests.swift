import Foundation
import Testing
import SilkGeometry
import SilkLayout
import SilkRender
@testable import SilkNodes

/// Nodes are freed once nothing holds them — also after they were laid out: a node's layout
/// cache must not hold the node itself (a `Layout` holds its element), or no laid-out node, and
/// no cell a collection releases, would ever be freed.
extension PipelineTests {
    final class SpecNode: DisplayNode, @unchecked Sendable {
        let child = DisplayNode()
        override init() {
            super.init()
            child.style.height = .points(20)
            addSubnode(child)
        }
        override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
            InsetLayoutSpec(insets: EdgeInsets(top: 4, left: 4, bottom: 4, right: 4), child: child)
        }
    }

    @Test func aLaidOutNodeIsFreed() throws {
        weak var node: SpecNode?
        weak var child: DisplayNode?
        do {
            let n = SpecNode()
            node = n; child = n.child
            let h = Harness(root: n, size: Size(width: 100, height: 60))
            h.iterate()  // laid out (and its layout cached) by a pass, as in a window
            #expect(n.child.frame == Rect(x: 4, y: 4, width: 92, height: 52))
            let range = SizeRange(min: .zero, max: Size(width: 100, height: 100))
            let first = try n.layoutThatFits(range)
            let again = try n.layoutThatFits(range)  // from the cache
            #expect(first.size.height == 28 && again.size == first.size)
            #expect(again.element as AnyObject === n)
        }
        // The scheduler drops requests of trees no pass shows at the next pass (anyone's).
        Harness(root: DisplayNode()).iterate()
        #expect(node == nil)
        #expect(child == nil)
    }
}
