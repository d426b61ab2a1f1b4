import SilkGeometry
import SilkSystem
import Testing
@testable import SilkLayout

/// A leaf that counts its measurements.
final class CountingLeaf: Sendable {
    final class Counter: Sendable { let value = Locked(0) }
    let calls = Counter()
    let node: LayoutNode
    init(_ size: Size, style: Style = Style()) {
        let calls = self.calls
        node = LayoutNode(name: "counting", style: style, measure: { _ in
            calls.value.withLock { $0 += 1 }
            return size
        })
    }
    var count: Int { calls.value.withLock { $0 } }
}

@Suite struct CacheTests {
    /// A container node whose spec stacks `children`.
    func container(_ children: [LayoutNode]) -> LayoutNode {
        let node = LayoutNode(name: "container", content: .layoutSpec { _ in
            StackLayoutSpec(direction: .vertical, spacing: 5, alignItems: .start, children: children)
        })
        for c in children { node.addSubnode(c) }
        return node
    }

    @Test func sameConstrainedSizeHitsTheCache() throws {
        let a = CountingLeaf(Size(width: 10, height: 10))
        let root = container([a.node])
        let first = try root.layoutThatFits(upTo(100, 100))
        let calls = a.count
        let second = try root.layoutThatFits(upTo(100, 100))
        #expect(a.count == calls)
        #expect(allFrames(first) == allFrames(second))
        #expect(root.cachedLayoutCount >= 1)
    }

    @Test func aDifferentConstrainedSizeIsANewEntry() throws {
        // Wider than both ranges, so each lays the leaf out at a different width (a narrower
        // leaf is as wide in both, and its own cache answers the second pass).
        let a = CountingLeaf(Size(width: 150, height: 10))
        let root = container([a.node])
        _ = try root.layoutThatFits(upTo(100, 100))
        let calls = a.count
        _ = try root.layoutThatFits(upTo(80, 100))
        #expect(a.count > calls)
        _ = try root.layoutThatFits(upTo(100, 100))
        _ = try root.layoutThatFits(upTo(80, 100))
        #expect(root.cachedLayoutCount == 2)
    }

    @Test func invalidationWalksUpToTheRoot() throws {
        let a = CountingLeaf(Size(width: 10, height: 10)), b = CountingLeaf(Size(width: 20, height: 20))
        let middle = container([a.node])
        let root = container([middle, b.node])
        _ = try root.layoutThatFits(upTo(100, 100))
        let (rootVersion, middleVersion, bVersion) = (root.layoutVersion, middle.layoutVersion, b.node.layoutVersion)
        let (aCalls, bCalls) = (a.count, b.count)

        a.node.invalidateLayout()
        #expect(middle.layoutVersion == middleVersion + 1)
        #expect(root.layoutVersion == rootVersion + 1)
        #expect(b.node.layoutVersion == bVersion)          // siblings are untouched
        #expect(root.cachedLayoutCount == 0 && middle.cachedLayoutCount == 0)

        _ = try root.layoutThatFits(upTo(100, 100))
        #expect(a.count > aCalls)
        #expect(b.count == bCalls)                          // b came from its own cache
    }

    @Test func changingStyleInvalidatesAndChangesTheLayout() throws {
        let a = CountingLeaf(Size(width: 10, height: 10))
        let root = container([a.node])
        let before = try root.layoutThatFits(upTo(100, 100))
        #expect(before.size == Size(width: 10, height: 10))
        a.node.style = sized(30, 40)
        let after = try root.layoutThatFits(upTo(100, 100))
        #expect(after.size == Size(width: 30, height: 40))
    }

    @Test func aMeasuredSizeRequestedExactlyReusesTheLayout() throws {
        let cache = LayoutCache()
        let layout = Layout(element: leaf(1, 1), size: Size(width: 40, height: 20))
        cache.store(layout, for: upTo(100, 100), version: 3)
        #expect(cache.layout(for: exactly(40, 20), version: 3) != nil)
        #expect(cache.layout(for: exactly(40, 21), version: 3) == nil)
        #expect(cache.layout(for: upTo(100, 100), version: 4) == nil)   // stale version
    }

    @Test func cacheKeepsAFewEntriesAndDropsOldVersions() {
        let cache = LayoutCache(capacity: 2)
        let l = Layout(element: leaf(1, 1), size: .zero)
        cache.store(l, for: upTo(1, 1), version: 1)
        cache.store(l, for: upTo(2, 2), version: 1)
        cache.store(l, for: upTo(3, 3), version: 1)
        #expect(cache.count == 2)
        #expect(cache.layout(for: upTo(1, 1), version: 1) == nil)
        cache.store(l, for: upTo(4, 4), version: 2)
        #expect(cache.count == 1)
    }
}
