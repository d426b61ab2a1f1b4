// Nodes on the real main loop: a window shows a node tree, and changes made from a background
// thread, through DispatchQueue.main, from a @MainActor task and from a loop timer all reach the
// screen through the node pass → display queue → committer → render thread chain. XCTest runs on
// the process's main thread (swift-testing gives it to dispatch_main), so these are XCTestCases.
#if canImport(XCTest)
import Foundation
import XCTest
import SilkGeometry
import SilkLayout
import SilkNodes
import SilkRaster
import SilkRender
import SilkRunLoop
@testable import Silk

final class SwatchNode: DisplayNode, @unchecked Sendable {
    private var _color: Color = .red
    var color: Color {
        get { lock.withLock { _color } }
        set { lock.withLock { _color = newValue }; setNeedsDisplay() }
    }
    override class var drawsContent: Bool { true }
    override func drawParameters() -> (any Sendable)? { color }
    override class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {
        context.canvas.fill(context.bounds, with: .color(parameters as? Color ?? .black))
    }
}

final class WindowLoopTests: XCTestCase {
    func testNodeChangesFromEveryThreadReachTheScreenThroughTheLoop() throws {
        // XCTest runs this on the main thread: the main actor's executor.
        try MainActor.assumeIsolated { try Self.runOnMain() }
    }

    @MainActor
    private static func runOnMain() throws {
        let app = Application(backend: .headless)
        let window = try app.makeWindow(size: Size(width: 120, height: 80), headlessClock: .virtual)
        let presenter = try XCTUnwrap(window.presenter as? HeadlessPresenter)
        // The tree is built on a background queue, as apps built on Texture do.
        let built = DispatchSemaphore(value: 0)
        let box = Locked<(DisplayNode, SwatchNode)?>(nil)
        DispatchQueue.global().async {
            let root = DisplayNode()
            let swatch = SwatchNode()
            swatch.style.width = 40
            swatch.style.height = 40
            root.addSubnode(swatch)
            root.layoutSpecBlock = { _, _ in InsetLayoutSpec(insets: EdgeInsets(all: 10), child: swatch) }
            box.withLock { $0 = (root, swatch) }
            built.signal()
        }
        built.wait()
        let (root, swatch) = box.current!
        window.setRootNode(root)

        func shows(_ color: Color) -> Bool {
            (try? presenter.currentFrame().argb32(x: 20, y: 20)) == color.premultipliedARGB32
        }
        let loop = app.loop
        // Presenting happens on the render thread and does not wake the main loop (nothing in
        // an app needs it to); a ticker makes `run(until:)` re-check its condition.
        let ticker = loop.addTimer(after: .milliseconds(5), repeating: .milliseconds(5)) {}
        defer { loop.cancelTimer(ticker) }
        XCTAssertEqual(loop.run(until: { shows(.red) }, timeout: .seconds(10)), .conditionMet, "first display")

        // From a background thread: the setter marks the node; the loop is woken and redraws.
        Thread.detachNewThread { swatch.color = .green }
        XCTAssertEqual(loop.run(until: { shows(.green) }, timeout: .seconds(10)), .conditionMet, "background thread")

        DispatchQueue.global().async { DispatchQueue.main.async { swatch.color = .blue } }
        XCTAssertEqual(loop.run(until: { shows(.blue) }, timeout: .seconds(10)), .conditionMet, "DispatchQueue.main")

        Task.detached { await MainActor.run { swatch.color = .white } }
        XCTAssertEqual(loop.run(until: { shows(.white) }, timeout: .seconds(10)), .conditionMet, "@MainActor")

        loop.addTimer(after: .milliseconds(5)) { swatch.color = .black }
        XCTAssertEqual(loop.run(until: { shows(.black) }, timeout: .seconds(10)), .conditionMet, "loop timer")
        window.close()
    }
}
extension WindowLoopTests {
    /// A long press fed through `Window.handle` is recognized by the window's deadline timer on
    /// the real loop, once, however many events re-arm that timer meanwhile.
    func testLongPressDeadlineIsServedByOneTimer() throws {
        try MainActor.assumeIsolated { try Self.longPressOnMain() }
    }

    @MainActor
    private static func longPressOnMain() throws {
        let app = Application(backend: .headless)
        let window = try app.makeWindow(size: Size(width: 100, height: 100), headlessClock: .virtual)
        let root = DisplayNode()
        let target = DisplayNode()
        target.style.width = 60
        target.style.height = 60
        root.addSubnode(target)
        root.layoutSpecBlock = { _, _ in InsetLayoutSpec(insets: EdgeInsets(all: 20), child: target) }
        let fired = Locked(0)
        target.addGestureRecognizer(LongPressGestureRecognizer { recognizer in
            if recognizer.state == .recognized { fired.withLock { $0 += 1 } }
        })
        window.setRootNode(root)
        let loop = app.loop
        _ = loop.run(until: { target.frame.width == 60 }, timeout: .seconds(5))
        let t0 = InputClock.now
        window.handle(InputEvent(.touchDown(id: 1, Point(x: 50, y: 50)), timestamp: t0))
        // Small moves within the allowed movement: each re-arms the deadline timer.
        for k in 1...20 {
            window.handle(InputEvent(.touchMove(id: 1, Point(x: 50 + Double(k % 3), y: 50)), timestamp: t0 + Double(k) * 0.001))
        }
        XCTAssertEqual(loop.run(until: { fired.current > 0 }, timeout: .seconds(3)), .conditionMet)
        _ = loop.run(until: { false }, timeout: .milliseconds(700))
        XCTAssertEqual(fired.current, 1)
        window.close()
    }
}
#endif
