import Foundation
import Testing
import SilkGeometry
import SilkLayout
import SilkRaster
import SilkRender
@testable import SilkNodes

extension PipelineTests {
    /// A node tree far deeper than layout allows (docs/reliability.md): layout refuses it with
    /// `LayoutError.nestingTooDeep`, the pass reports the error and keeps running, and nothing
    /// overflows a main-thread-sized (8 MiB) stack — not the pass's walks over the tree, and not
    /// releasing it. 1,000 levels rather than 10,000: attaching a subnode walks to the root, so
    /// building a chain costs O(depth²) (10,000 levels took 280 s in a debug build; the
    /// 10,000-deep layout case is `DepthTests` in SilkLayoutTests).
    @Suite(.serialized) struct DeepTreeTests {
        @Test func aThousandDeepNodeTreeIsReportedNotAStackOverflow() {
            let outcome = onThread(stackSize: 8 << 20) { () -> String in
                let root = DisplayNode()
                var parent = root
                for _ in 0..<1_000 {
                    let child = DisplayNode()
                    parent.addSubnode(child)
                    parent.layoutSpecBlock = { _, _ in InsetLayoutSpec(insets: EdgeInsets(all: 0), child: child) }
                    parent = child
                }
                let h = Harness(root: root, size: Size(width: 100, height: 100))
                h.iterate()
                h.iterate()
                return h.pass.statistics.lastLayoutError ?? "no error"
            }
            #expect(outcome == LayoutError.nestingTooDeep(maximumDepth: LayoutContext.defaultMaximumDepth).description)
        }
    }
}

/// Runs `body` on a thread with the given stack size and waits for it.
func onThread<T: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> T) -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.value = body()
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
    return box.value!
}

private final class ResultBox<T>: @unchecked Sendable { var value: T? }
