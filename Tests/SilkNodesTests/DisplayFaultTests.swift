import Foundation
import Testing
import SilkGeometry
import SilkLayout
import SilkRaster
import SilkRender
@testable import SilkNodes

/// A node whose drawing throws while `failing` is set (a decoder error, a font that went away).
final class FailingNode: DisplayNode, @unchecked Sendable {
    struct DrawFailure: Error, CustomStringConvertible { var description: String { "the test's drawing failed" } }
    struct Params: Sendable { let failing: Bool }
    private var _failing = true
    var failing: Bool {
        get { lock.withLock { _failing } }
        set { lock.withLock { _failing = newValue }; setNeedsDisplay() }
    }
    override init() {
        super.init()
        style.width = .points(20)
        style.height = .points(20)
    }
    override class var drawsContent: Bool { true }
    override func drawParameters() -> (any Sendable)? { Params(failing: failing) }
    override class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {
        guard let p = parameters as? Params else { return }
        if p.failing { throw DrawFailure() }
        context.canvas.fill(context.bounds, with: .color(.white))
    }
}

extension PipelineTests {
    /// Faults in display jobs (docs/reliability.md): the node shows nothing or its placeholder,
    /// the error is recorded and counted, and the rest of the tree and later frames go on.
    @Suite(.serialized) struct DisplayFaultTests {
        @Test func aThrowingDisplayJobShowsThePlaceholderAndIsReported() {
            let root = DisplayNode()
            let failing = FailingNode()
            failing.placeholderEnabled = true
            failing.placeholderColor = Color(rgb: 0x808080)
            let sibling = ColorNode(.white)
            root.addSubnode(failing)
            root.addSubnode(sibling)
            root.layoutSpecBlock = { _, _ in
                StackLayoutSpec(direction: .horizontal, alignItems: .start, children: [failing, sibling])
            }
            let h = Harness(root: root, size: Size(width: 60, height: 40))
            #expect(h.iterate(until: { sibling.layer?.contents != nil && failing.lastDisplayError != nil }))
            #expect(failing.lastDisplayError == "the test's drawing failed")
            #expect(failing.layer?.contents == nil)
            #expect(h.pass.committer.statistics.displayErrors >= 1)
            // The placeholder stays up: the compositor shows its colour where the node is.
            let compositor = try! Compositor(pixelWidth: 60, pixelHeight: 40, clearColor: .black)
            compositor.composite(h.host.snapshot(), at: 0)
            #expect(compositor.backBuffer.argb32(x: 5, y: 5) == 0xff80_8080)
            #expect(compositor.backBuffer.argb32(x: 25, y: 5) == 0xffff_ffff)

            // The fault passes: the next display draws and clears the error.
            failing.failing = false
            #expect(h.iterate(until: { failing.layer?.contents != nil }))
            #expect(failing.lastDisplayError == nil)
            #expect(h.pixel(failing, 5, 5) == 0xffff_ffff)
        }

        /// A bitmap that cannot be allocated (here: a node 40,000 points wide, over
        /// `RasterLimits.maxBitmapDimension`) fails its job with the size error; siblings draw.
        @Test func anUnallocatableBitmapFailsOnlyThatNode() {
            let root = DisplayNode()
            let huge = ColorNode(.white, size: Size(width: 40_000, height: 10))
            let sibling = ColorNode(.white)
            root.addSubnode(huge)
            root.addSubnode(sibling)
            root.layoutSpecBlock = { _, _ in
                StackLayoutSpec(direction: .vertical, alignItems: .start, children: [huge, sibling])
            }
            let h = Harness(root: root, size: Size(width: 100, height: 60))
            #expect(h.iterate(until: { sibling.layer?.contents != nil && huge.lastDisplayError != nil }))
            #expect(huge.lastDisplayError?.contains("larger than 32768 pixels") == true, "\(huge.lastDisplayError ?? "nil")")
            #expect(huge.layer?.contents == nil)
            #expect(huge.counter.value == 0, "draw never ran without a bitmap")
        }
    }
}
