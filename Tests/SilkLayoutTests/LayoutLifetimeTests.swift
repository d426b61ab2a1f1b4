import SilkGeometry
import Testing
@testable import SilkLayout

/// A node's layout cache must not keep the node alive (found by `make test-asan`: every node
/// that had been laid out leaked through node → cache → layout → node).
@Suite struct LayoutLifetimeTests {
    @Test func aLaidOutNodeIsFreedWithItsCache() throws {
        weak var weakParent: LayoutNode?
        weak var weakChild: LayoutNode?
        do {
            let child = LayoutNode(intrinsicSize: Size(width: 10, height: 10))
            let parent = LayoutNode(content: .layoutSpec { _ in InsetLayoutSpec(insets: EdgeInsets(all: 2), child: child) })
            weakParent = parent; weakChild = child
            let first = try parent.layoutThatFits(upTo(100, 100))
            let cached = try parent.layoutThatFits(upTo(100, 100))
            #expect(parent.cachedLayoutCount == 1)
            #expect(cached.element as? LayoutNode === parent, "a cache hit names the node again")
            #expect(cached.size == first.size && cached.size == Size(width: 14, height: 14))
        }
        #expect(weakParent == nil)
        #expect(weakChild == nil)
    }
}
