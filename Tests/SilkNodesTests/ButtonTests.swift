import Foundation
import Testing
import SilkGeometry
import SilkLayout
import SilkRaster
import SilkRender
@testable import SilkNodes

// Node passes share one global NodeScheduler: two harnesses running at once take each other's
// dirty nodes (and unload each other's layers). So every suite that runs a `Harness` must run
// alone; nesting this one in PipelineTests (which is `.serialized`, and that applies to nested
// suites) serializes it with the pipeline tests without touching their file.
extension PipelineTests {

/// Buttons, the focus ring and the hit-test debug overlay as drawn: a node pass on the test
/// thread (PipelineTests' `Harness`), then the whole layer tree composited into one bitmap.
///
/// The nodes draw synchronously through their own `displaysAsynchronously = false` rather than
/// the global `NodeScheduler.shared.synchronousDisplay`, so no other test's jobs are affected.
@Suite(.serialized) struct ButtonRenderingTests {
    static let size = Size(width: 200, height: 100)

    /// A 120×40 button at (40, 30) in a 200×100 window.
    private func makeButton() -> (ButtonNode, DisplayNode) {
        let button = ButtonNode()
        button.style.width = .points(120)
        button.style.height = .points(40)
        for n in [button, button.titleNode, button.imageNode, button.backgroundImageNode] as [DisplayNode] {
            n.displaysAsynchronously = false
        }
        let root = DisplayNode()
        root.addSubnode(button)
        root.layoutSpecBlock = { _, _ in
            InsetLayoutSpec(insets: EdgeInsets(top: 30, left: 40, bottom: .infinity, right: .infinity), child: button)
        }
        return (button, root)
    }

    private func solid(_ color: Color) -> Bitmap {
        let b = try! Bitmap(width: 4, height: 4)
        b.fill(color)
        return b
    }

    /// Composites the window.
    private func screen(_ h: Harness) -> Bitmap {
        let compositor = try! Compositor(pixelWidth: Int(Self.size.width), pixelHeight: Int(Self.size.height), clearColor: .white)
        compositor.compositeFully(h.host.snapshot(), at: 0)
        return compositor.backBuffer
    }

    /// Pixels in `rect` whose colour is near `color` (channel distance ≤ 40, for anti-aliasing and rounding).
    private func count(_ color: Color, in rect: Rect, of bitmap: Bitmap) -> Int {
        let want = color.premultipliedARGB32
        var n = 0
        for y in Int(rect.minY)..<Int(rect.maxY) {
            for x in Int(rect.minX)..<Int(rect.maxX) {
                let p = bitmap.argb32(x: x, y: y)
                let close = [16, 8, 0].allSatisfy { s in abs(Int((p >> s) & 0xff) - Int((want >> s) & 0xff)) <= 40 }
                if close { n += 1 }
            }
        }
        return n
    }

    @Test func stateChangesSwapTheTitleAndBackground() {
        let (button, root) = makeButton()
        let bold = TextAttributes(fontSize: 22, fontWeight: .bold, color: .red)
        button.setTitle("PRESS", attributes: bold, for: .normal)
        var white = bold
        white.color = .white
        button.setTitle("PRESS", attributes: white, for: .highlighted)
        button.setBackgroundImage(solid(.green), for: .normal)
        button.setBackgroundImage(solid(.blue), for: .highlighted)
        let h = Harness(root: root, size: Self.size)
        h.iterate()
        #expect(button.frame == Rect(x: 40, y: 30, width: 120, height: 40))
        #expect(root.subnodes.count == 1 && button.subnodes.count == 2)    // background + title
        let title = button.titleNode.frame.offsetBy(dx: 40, dy: 30)
        var s = screen(h)
        #expect(s.argb32(x: 42, y: 32) == 0xff00_ff00)                    // green background
        #expect(count(.red, in: title, of: s) > 20)
        #expect(count(.white, in: title, of: s) == 0)

        let d = InputDispatcher(rootNode: root)
        d.down(100, 50, at: 1)
        #expect(button.state == .highlighted)
        h.iterate()
        s = screen(h)
        #expect(s.argb32(x: 42, y: 32) == 0xff00_00ff)                    // blue background
        #expect(count(.white, in: title, of: s) > 20)
        #expect(count(.red, in: title, of: s) == 0)

        d.up(at: 1.1)
        h.iterate()
        s = screen(h)
        #expect(s.argb32(x: 42, y: 32) == 0xff00_ff00)
        #expect(count(.red, in: title, of: s) > 20)
    }

    @Test func disabledAndSelectedStatesPickTheirContent() {
        let (button, root) = makeButton()
        button.setTitle("Go", for: .normal)
        button.setTitle("Wait", for: .disabled)
        button.setBackgroundColor(.gray, for: .normal)
        button.setBackgroundColor(.black, for: .selected)
        let h = Harness(root: root, size: Self.size)
        h.iterate()
        #expect(button.layer?.backgroundColor == .gray)
        button.isSelected = true
        h.iterate()
        #expect(button.layer?.backgroundColor == .black)
        #expect(button.currentAttributedTitle?.string == "Go")
        button.isEnabled = false
        h.iterate()
        #expect(button.titleNode.attributedText.string == "Wait")
        #expect(button.layer?.backgroundColor == .black)                  // [.selected, .disabled] → no disabled colour: selected
    }

    @Test func imageAndTitleAreStackedWithSpacingInsetsAndAlignment() {
        let (button, root) = makeButton()
        button.setTitle("Title", attributes: TextAttributes(fontSize: 14))
        button.setImage(solid(.red).scaledCopy(10))
        button.contentSpacing = 6
        let h = Harness(root: root, size: Self.size)
        h.iterate()
        let image = button.imageNode.frame, title = button.titleNode.frame
        #expect(image.size == Size(width: 10, height: 10))
        #expect(title.minX == image.maxX + 6)
        // Centred on both axes.
        #expect(abs((image.minX + title.maxX) / 2 - 60) <= 0.5)
        #expect(abs(image.midY - 20) <= 0.5 && abs(title.midY - 20) <= 0.5)

        button.imagePosition = .afterTitle
        button.contentHorizontalAlignment = .start
        button.contentEdgeInsets = EdgeInsets(top: 0, left: 5, bottom: 0, right: 5)
        h.iterate()
        #expect(button.titleNode.frame.minX == 5)
        #expect(button.imageNode.frame.minX == button.titleNode.frame.maxX + 6)

        button.laysOutHorizontally = false
        button.imagePosition = .beforeTitle
        button.contentVerticalAlignment = .start
        h.iterate()
        #expect(button.imageNode.frame.minY == 0)
        #expect(button.titleNode.frame.minY == 16)
        #expect(button.imageNode.frame.minX == 5 && button.titleNode.frame.minX == 5)
    }

    @Test func theFocusRingIsDrawnOnTheFocusedControl() {
        let (button, root) = makeButton()
        button.setTitle("OK")
        let other = ButtonNode()
        other.displaysAsynchronously = false
        root.addSubnode(other)
        other.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        let h = Harness(root: root, size: Self.size)
        h.iterate()
        let d = InputDispatcher(rootNode: root)
        d.key(.tab, at: 1)
        #expect(d.focusedNode === button)
        h.iterate()
        #expect(button.layer?.borderWidth == FocusRing.width)
        var s = screen(h)
        let leftEdge = Rect(x: 40, y: 40, width: 2, height: 20)
        #expect(count(FocusRing.color, in: leftEdge, of: s) == 40)               // the ring's left edge
        d.down(195, 95, at: 2); d.up(at: 2.1)                                    // touching elsewhere blurs
        h.iterate()
        s = screen(h)
        #expect(button.layer?.borderWidth == 0)
        #expect(count(FocusRing.color, in: leftEdge, of: s) == 0)
    }

    @Test func theHitTestDebugOverlayTintsEachControlsHitArea() {
        ControlNode.showsHitTestDebugOverlay = true
        defer { ControlNode.showsHitTestDebugOverlay = false }
        let (button, root) = makeButton()
        button.hitTestSlop = EdgeInsets(top: -10, left: -20, bottom: -10, right: -20)
        let h = Harness(root: root, size: Self.size)
        h.iterate()
        let d = InputDispatcher(rootNode: root)
        d.tick(now: 1)
        let overlay = d.hitTestDebugOverlayLayer
        #expect(overlay?.superlayer === h.host)
        #expect(overlay?.sublayers.map(\.frame) == [Rect(x: 20, y: 20, width: 160, height: 60)])
        let s = screen(h)
        // Inside the slop, outside the button: the tint over the white window.
        let tinted = s.argb32(x: 25, y: 25)
        #expect(tinted != 0xffff_ffff)
        #expect(s.argb32(x: 15, y: 25) == 0xffff_ffff)
        ControlNode.showsHitTestDebugOverlay = false
        d.tick(now: 2)
        #expect(d.hitTestDebugOverlayLayer == nil && overlay?.superlayer == nil)
    }
}

}

private extension Bitmap {
    /// A `side`×`side` copy (the fill is uniform, so any scaling will do).
    func scaledCopy(_ side: Int) -> Bitmap {
        let b = try! Bitmap(width: side, height: side)
        b.fill(Color(premultipliedARGB32: argb32(x: 0, y: 0)))
        return b
    }
}
