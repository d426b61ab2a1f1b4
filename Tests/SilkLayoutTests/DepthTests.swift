import Foundation
import SilkGeometry
import SilkSystem
import Testing
@testable import SilkLayout

/// Runs `body` on a thread with the given stack size and waits for it.
func onThread<T: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> T) -> T {
    let result = Locked<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        let value = body()
        result.withLock { $0 = value }
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
    return result.withLock { $0! }
}

@Suite struct DepthTests {
    static func chain(_ depth: Int) -> any LayoutElement {
        var element: any LayoutElement = leaf(10, 10)
        for i in 0..<depth {
            element = i % 2 == 0
                ? InsetLayoutSpec(insets: EdgeInsets(all: 1), child: element)
                : StackLayoutSpec(direction: .vertical, alignItems: .stretch, children: [element])
        }
        return element
    }

    /// A 10,000-deep tree is refused with an error instead of overflowing the stack. (The
    /// thread's large stack is for building and releasing the test's own 10,000-deep tree,
    /// which Swift does recursively.)
    @Test func tenThousandDeepTreeThrowsNestingTooDeep() {
        let outcome = onThread(stackSize: 64 << 20) { () -> String in
            let tree = Self.chain(10_000)
            do {
                _ = try tree.layoutThatFits(upTo(1000, 1000))
                return "laid out"
            } catch {
                return "\(error)"
            }
        }
        #expect(outcome == LayoutError.nestingTooDeep(maximumDepth: LayoutContext.defaultMaximumDepth).description)
    }

    @Test func deepNodeBoundariesAreCountedToo() {
        let outcome = onThread(stackSize: 64 << 20) { () -> String in
            var node = LayoutNode(intrinsicSize: Size(width: 1, height: 1))
            for _ in 0..<500 {
                let child = node
                node = LayoutNode(content: .layoutSpec { _ in InsetLayoutSpec(insets: .zero, child: child) })
            }
            do { _ = try node.layoutThatFits(upTo(10, 10)); return "laid out" } catch { return "\(error)" }
        }
        #expect(outcome.contains("maximum depth"))
    }

    /// The deepest allowed tree lays out on a modest thread stack (debug builds need about
    /// four times the release build's 2.3 KiB per level).
    @Test func maximumDepthLaysOutOnAModestStack() {
        let size = onThread(stackSize: 4 << 20) { () -> Size? in
            try? Self.chain(LayoutContext.defaultMaximumDepth - 1).layoutThatFits(upTo(1000, 1000)).size
        }
        #expect(size == Size(width: 10 + 128, height: 10 + 128))
    }

    @Test func aSmallerMaximumCanBeChosen() {
        #expect(throws: LayoutError.nestingTooDeep(maximumDepth: 10)) {
            try Self.chain(20).layoutThatFits(upTo(100, 100), context: LayoutContext(maximumDepth: 10))
        }
    }
}
