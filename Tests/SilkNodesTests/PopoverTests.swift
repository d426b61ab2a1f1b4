import Foundation
import Testing
import SilkGeometry
import SilkInput
import SilkLayout
import SilkRaster
import SilkRender
@testable import SilkNodes

/// `PopoverPlacement`: below, flipped above, clamped, and absurd input.
@Suite struct PopoverPlacementTests {
    let window = Rect(x: 0, y: 0, width: 400, height: 300)

    /// Inside `bounds` less `margin` (the origin is rounded: half a point of slack).
    func inside(_ r: Rect, _ bounds: Rect, margin: Double = 8) -> Bool {
        [r.minX, r.minY, r.width, r.height].allSatisfy(\.isFinite) && r.width >= 0 && r.height >= 0
            && r.minX >= bounds.minX + margin - 0.5 && r.minY >= bounds.minY + margin - 0.5
            && r.maxX <= bounds.maxX - margin + 0.5 && r.maxY <= bounds.maxY - margin + 0.5
    }

    @Test func opensBelowAtLeastAsWideAsTheAnchor() {
        let p = PopoverPlacement(size: Size(width: 120, height: 100), anchor: Rect(x: 20, y: 20, width: 160, height: 40), bounds: window)
        #expect(p.frame == Rect(x: 20, y: 64, width: 160, height: 100) && !p.opensAbove)
        // Wider than the anchor: keeps its own width, leading edges aligned.
        let wide = PopoverPlacement(size: Size(width: 200, height: 100), anchor: Rect(x: 20, y: 20, width: 160, height: 40), bounds: window)
        #expect(wide.frame == Rect(x: 20, y: 64, width: 200, height: 100))
    }

    @Test func flipsAboveWhenThereIsNoRoomBelow() {
        let p = PopoverPlacement(size: Size(width: 120, height: 100), anchor: Rect(x: 20, y: 240, width: 160, height: 40), bounds: window)
        #expect(p.frame == Rect(x: 20, y: 136, width: 160, height: 100) && p.opensAbove)
    }

    @Test func tooTallForEitherSideTakesTheRoomierOneInsideTheWindow() {
        // 280 tall: 292 − 144 below, 96 − 8 above; neither fits, below has more.
        let p = PopoverPlacement(size: Size(width: 120, height: 280), anchor: Rect(x: 20, y: 100, width: 160, height: 40), bounds: window)
        #expect(p.frame == Rect(x: 20, y: 12, width: 160, height: 280) && !p.opensAbove)
        // Anchor low in the window: above has more room.
        let q = PopoverPlacement(size: Size(width: 120, height: 280), anchor: Rect(x: 20, y: 200, width: 160, height: 40), bounds: window)
        #expect(q.opensAbove && inside(q.frame, window))
    }

    @Test func clampedToTheWindowSides() {
        let right = PopoverPlacement(size: Size(width: 120, height: 50), anchor: Rect(x: 350, y: 20, width: 40, height: 30), bounds: window)
        #expect(right.frame == Rect(x: 272, y: 54, width: 120, height: 50))
        let left = PopoverPlacement(size: Size(width: 120, height: 50), anchor: Rect(x: -30, y: 20, width: 40, height: 30), bounds: window)
        #expect(left.frame.minX == 8)
        // Right to left: trailing edges line up.
        let rtl = PopoverPlacement(size: Size(width: 150, height: 50), anchor: Rect(x: 300, y: 20, width: 60, height: 30), bounds: window,
                                   rightToLeft: true)
        #expect(rtl.frame == Rect(x: 210, y: 54, width: 150, height: 50))
    }

    @Test func anchorsOutsideTheWindowStillGiveAFrameInsideIt() {
        for anchor in [Rect(x: 1000, y: 1000, width: 50, height: 20), Rect(x: -500, y: -500, width: 50, height: 20),
                       Rect(x: 100, y: 900, width: 50, height: 20), Rect(x: 100, y: -90, width: 50, height: 20),
                       Rect(x: 10, y: 10, width: -50, height: -20), Rect(x: 0, y: 0, width: 1e12, height: 1e12)] {
            let p = PopoverPlacement(size: Size(width: 120, height: 80), anchor: anchor, bounds: window)
            #expect(inside(p.frame, window), "\(anchor) → \(p.frame)")
        }
        // Above the window: it opens below, pushed in at the top.
        let above = PopoverPlacement(size: Size(width: 120, height: 80), anchor: Rect(x: 100, y: -90, width: 50, height: 20), bounds: window)
        #expect(above.frame.minY == 8)
    }

    @Test func aWindowSmallerThanThePopoverShrinksIt() {
        let small = Rect(x: 0, y: 0, width: 100, height: 50)
        let p = PopoverPlacement(size: Size(width: 300, height: 200), anchor: Rect(x: 10, y: 10, width: 40, height: 20), bounds: small)
        #expect(p.frame.width == 84 && p.frame.height == 34 && inside(p.frame, small))
        // Smaller than its margins: what is left, in the middle.
        let tiny = PopoverPlacement(size: Size(width: 300, height: 200), anchor: Rect(x: 1, y: 1, width: 4, height: 4),
                                    bounds: Rect(x: 0, y: 0, width: 10, height: 6))
        #expect(tiny.frame == Rect(x: 5, y: 3, width: 0, height: 0))
        let empty = PopoverPlacement(size: Size(width: 10, height: 10), anchor: .zero, bounds: .zero)
        #expect(empty.frame == .zero)
    }

    @Test func nanAndInfinityNeverLeak() {
        let nan = Double.nan, inf = Double.infinity
        // A NaN anchor: centred.
        let centred = PopoverPlacement(size: Size(width: 100, height: 50), anchor: Rect(x: nan, y: 0, width: 10, height: 10), bounds: window)
        #expect(centred.frame == Rect(x: 150, y: 125, width: 100, height: 50))
        // A NaN or infinite size counts as 0 (the anchor's width remains).
        let sized = PopoverPlacement(size: Size(width: nan, height: inf), anchor: Rect(x: 20, y: 20, width: 60, height: 20), bounds: window)
        #expect(sized.frame == Rect(x: 20, y: 44, width: 60, height: 0))
        // A NaN window: an empty frame at the origin.
        let lost = PopoverPlacement(size: Size(width: 100, height: 50), anchor: Rect(x: 20, y: 20, width: 60, height: 20),
                                    bounds: Rect(x: 0, y: 0, width: nan, height: 300))
        #expect(lost.frame == Rect(x: 0, y: 0, width: 0, height: 0))
        // NaN margin and gap: 0.
        let tight = PopoverPlacement(size: Size(width: 100, height: 50), anchor: Rect(x: 20, y: 20, width: 60, height: 20), bounds: window,
                                     margin: nan, gap: -inf)
        #expect(tight.frame == Rect(x: 20, y: 40, width: 100, height: 50))
        // A sweep of absurd values: always finite and inside a finite window.
        let values: [Double] = [nan, inf, -inf, -1e300, -5, 0, 0.5, 7, 250, 1e300]
        for a in values { for b in values { for c in values {
            let p = PopoverPlacement(size: Size(width: c, height: b), anchor: Rect(x: a, y: b, width: c, height: a), bounds: window, margin: c)
            let r = p.frame
            #expect([r.minX, r.minY, r.width, r.height].allSatisfy(\.isFinite) && r.width >= 0 && r.height >= 0)
            #expect(r.minX >= -0.5 && r.minY >= -0.5 && r.maxX <= 400.5 && r.maxY <= 300.5, "\(a) \(b) \(c) → \(r)")
        } } }
    }
}

/// A window-sized root with a screen, a timer the test fires, and a dispatcher for its tree.
final class Scene {
    let screenNode = DisplayNode()
    let screen: NodeController
    let root: RootController
    let timer = ManualTimer()
    let d: InputDispatcher

    init(size: Size = Size(width: 400, height: 300)) {
        screenNode.frame = Rect(size: size)
        screen = NodeController(node: screenNode)
        root = RootController(content: screen)
        root.timer = timer.timer
        root.node.frame = Rect(size: size)
        root.beginAppearanceTransition(true, animated: false)
        root.endAppearanceTransition(animated: false)
        d = InputDispatcher(rootNode: root.node)
    }

    /// A dropdown at `frame` on the screen, presenting from it.
    func dropdown(_ options: [String], selected: Int?, frame: Rect = Rect(x: 20, y: 20, width: 160, height: 40)) -> DropdownNode {
        let dropdown = DropdownNode(options: options, selectedIndex: selected)
        dropdown.frame = frame
        screenNode.addSubnode(dropdown)
        dropdown.presentingController = screen
        return dropdown
    }

    func click(_ x: Double, _ y: Double, at t: Double) {
        d.handle(InputEvent(.pointerDown(.left, Point(x: x, y: y)), timestamp: t))
        d.handle(InputEvent(.pointerUp(.left, Point(x: x, y: y)), timestamp: t + 0.05))
    }
}

@Suite struct DropdownPopoverTests {
    @Test func thePopoverOpensUnderTheControlAndTheKeysChoose() throws {
        let s = Scene()
        let dropdown = s.dropdown(["Red", "Green", "Blue"], selected: 0)
        let changes = Locked<[Int]>([])
        dropdown.addTarget(for: .valueChanged) { [weak dropdown] _, _ in changes.withLock { $0.append(dropdown?.selectedIndex ?? -1) } }

        s.d.focus(dropdown)
        s.d.key(.enter, at: 1)
        let controller = try #require(dropdown.presentedList as? PickerListController)
        let list = try #require(controller.list)
        // Anchored: just under the box, as wide as it at least, rounded and outlined.
        let card = controller.node.frame
        #expect(card.minX == 20 && card.minY == 64 && card.width >= 160, "\(card)")
        #expect(controller.node.cornerRadius > 0 && dropdown.accessibilityStates.contains(.expanded))
        // The focus moved into the list (no ring: the highlighted row shows it); Tab stays there.
        #expect(s.d.focusedNode === list && list.highlightedIndex == 0)
        s.d.key(.tab, at: 1.1)
        #expect(s.d.focusedNode === list)
        // Down, Down, Down (stops at the end), Up, Enter: Green.
        for (i, k) in [Key.down, .down, .down, .up].enumerated() { s.d.key(k, at: 2 + Double(i) * 0.1) }
        #expect(list.highlightedIndex == 1 && dropdown.selectedIndex == 0 && changes.current.isEmpty)
        s.d.key(.enter, at: 3)
        s.timer.fire()
        #expect(dropdown.selectedIndex == 1 && changes.current == [1] && dropdown.presentedList == nil)
        #expect(s.root.presentedControllers.isEmpty && !dropdown.accessibilityStates.contains(.expanded))
        // The focus is back on the dropdown, with its ring (the keyboard had it there).
        #expect(s.d.focusedNode === dropdown && dropdown.showsFocusRing)
    }

    @Test func escapeAndAClickOutsideDismissAndAClickOnARowChooses() throws {
        let s = Scene()
        let dropdown = s.dropdown(["Red", "Green", "Blue"], selected: 2)
        let changes = Locked(0)
        dropdown.addTarget(for: .valueChanged) { _, _ in changes.withLock { $0 += 1 } }

        // Escape: closed, nothing chosen, focus back.
        s.d.focus(dropdown)
        s.d.key(.enter, at: 1)
        #expect(s.root.presentedControllers.count == 1)
        s.d.key(.escape, at: 2)
        s.timer.fire()
        #expect(s.root.presentedControllers.isEmpty && dropdown.presentedList == nil && s.d.focusedNode === dropdown)

        // A click outside (on the clear backdrop): closed, nothing chosen; the screen behind
        // gets no touch.
        let behind = TouchRecorder(Rect(x: 300, y: 200, width: 80, height: 80))
        s.screenNode.addSubnode(behind)
        s.click(150, 20, at: 3)   // opens (the pointer)
        s.timer.fire()            // the fade in ends: the window takes touches again
        let card = try #require(dropdown.presentedList).node
        #expect(card.frame.minY == 64 && card.cornerRadius > 0)
        s.click(340, 240, at: 4)
        s.timer.fire()
        #expect(s.root.presentedControllers.isEmpty && behind.entries.isEmpty && changes.current == 0 && dropdown.selectedIndex == 2)

        // A click on the first row chooses it.
        s.click(150, 20, at: 5)
        s.timer.fire()
        let open = try #require(dropdown.presentedList).node
        let firstRow = Point(x: open.frame.midX, y: open.frame.minY + 4 + 20)
        s.click(firstRow.x, firstRow.y, at: 6)
        s.timer.fire()
        #expect(dropdown.selectedIndex == 0 && changes.current == 1 && s.root.presentedControllers.isEmpty)
        // Choosing the row already selected closes the list too, and sends nothing.
        s.click(150, 20, at: 7)
        s.timer.fire()
        s.d.key(.enter, at: 8)
        s.timer.fire()
        #expect(s.root.presentedControllers.isEmpty && changes.current == 1)
    }

    @Test func nearTheBottomItOpensAbove() throws {
        let s = Scene()
        let dropdown = s.dropdown(["A", "B", "C", "D"], selected: 0, frame: Rect(x: 300, y: 240, width: 90, height: 40))
        s.d.focus(dropdown)
        s.d.key(.space, at: 1)
        let card = try #require(dropdown.presentedList).node.frame
        #expect(card.maxY <= 236 && card.maxX <= 392 && card.width >= 90, "\(card)")
    }

    @Test func aFingerStillGetsABottomSheet() throws {
        let s = Scene()
        let dropdown = s.dropdown(["Red", "Green"], selected: 0)
        s.d.down(100, 40, at: 1)
        s.d.up(at: 1.05)
        let card = try #require(dropdown.presentedList).node
        #expect(card.cornerRadius == 0 && card.frame.width == 400 && card.frame.maxY == 300)
    }
}

@Suite struct AlertFocusTrapTests {
    /// A screen with two buttons, the first focused.
    func screen() -> (Scene, [ButtonNode]) {
        let s = Scene()
        let buttons = (0..<2).map { i in
            let b = ButtonNode()
            b.setTitle("Button \(i)")
            b.frame = Rect(x: 20, y: 20 + Double(i) * 50, width: 120, height: 40)
            s.screenNode.addSubnode(b)
            return b
        }
        s.d.focus(buttons[0])
        return (s, buttons)
    }

    @Test func tabCyclesInsideTheAlertAndEnterChoosesTheDefault() throws {
        let (s, behind) = screen()
        let chosen = Locked<[String]>([])
        let alert = AlertController(title: "Save?", message: "Changes are kept.",
                                    actions: [AlertAction("Cancel", style: .cancel) { chosen.withLock { $0.append("cancel") } },
                                              AlertAction("Save") { chosen.withLock { $0.append("save") } }])
        #expect(s.screen.present(alert))
        let (cancel, save) = (alert.alertNode.buttons[0], alert.alertNode.buttons[1])
        #expect(s.d.focusedNode === save && save.showsFocusRing)
        // Tab and Shift-Tab cycle through the two buttons only.
        var seen: [DisplayNode?] = []
        for i in 0..<4 { s.d.key(.tab, at: 1 + Double(i)); seen.append(s.d.focusedNode) }
        #expect(seen.count == 4 && seen[0] === cancel && seen[1] === save && seen[2] === cancel && seen[3] === save)
        s.d.key(.tab, .shift, at: 6)
        #expect(s.d.focusedNode === cancel)
        s.d.key(.tab, .shift, at: 7)
        #expect(s.d.focusedNode === save)
        #expect(!behind.contains { $0 === s.d.focusedNode })
        // Keys pressed with the focus somewhere behind still go to the alert.
        s.d.focus(behind[1])
        s.d.key(.enter, at: 8)
        s.timer.fire()
        #expect(chosen.current == ["save"] && s.root.presentedControllers.isEmpty)
        // Afterwards the focus is where it was before the alert, and Tab walks the screen again.
        #expect(s.d.focusedNode === behind[0])
        s.d.key(.tab, at: 9)
        #expect(s.d.focusedNode === behind[1])
    }

    /// A destructive confirm (Cancel, Delete) that records the action chosen.
    func deleteConfirm() -> (AlertController, Locked<[String]>) {
        let chosen = Locked<[String]>([])
        let confirm = AlertController(title: "Delete?", message: "This cannot be undone.",
                                      actions: [AlertAction("Cancel", style: .cancel) { chosen.withLock { $0.append("cancel") } },
                                                AlertAction("Delete", style: .destructive) { chosen.withLock { $0.append("delete") } }])
        return (confirm, chosen)
    }

    @Test func escapeCancelsAConfirmAndTheFocusReturns() throws {
        let (s, behind) = screen()
        let (confirm, chosen) = deleteConfirm()
        s.screen.present(confirm)
        // No default action: the focus starts on the safe choice.
        #expect(s.d.focusedNode === confirm.alertNode.buttons[0])
        s.d.key(.escape, at: 1)
        s.timer.fire()
        #expect(chosen.current == ["cancel"] && s.root.presentedControllers.isEmpty && s.d.focusedNode === behind[0])

        // Enter on the focused destructive button chooses it.
        s.screen.present(confirm)
        s.d.key(.tab, at: 2)
        #expect(s.d.focusedNode === confirm.alertNode.buttons[1])
        s.d.key(.enter, at: 3)
        s.timer.fire()
        #expect(chosen.current == ["cancel", "delete"] && s.d.focusedNode === behind[0])
    }

    @Test func aTapOnTheBackdropChoosesCancel() {
        let (s, behind) = screen()
        let (confirm, chosen) = deleteConfirm()
        s.screen.present(confirm)
        s.timer.fire()
        // The top-left corner is backdrop: the alert card is centred.
        s.click(3, 3, at: 1)
        s.timer.fire()
        #expect(chosen.current == ["cancel"] && s.root.presentedControllers.isEmpty && s.d.focusedNode === behind[0])
        // Without a cancel action the tap just dismisses.
        let note = AlertController(title: "Note", message: "Hello")
        s.screen.present(note)
        s.timer.fire()
        s.click(3, 3, at: 2)
        s.timer.fire()
        #expect(s.root.presentedControllers.isEmpty)
    }

    @Test func aFocusedNodeThatLeftTheWindowIsNotRestored() {
        let (s, behind) = screen()
        let alert = AlertController(title: "Note", message: "Hello")
        s.screen.present(alert)
        behind[0].removeFromSupernode()
        s.d.key(.escape, at: 1)
        s.timer.fire()
        #expect(s.root.presentedControllers.isEmpty && s.d.focusedNode == nil)
    }
}

@Suite(.serialized) struct SwitchAnimationTests {
    init() { NodeScheduler.shared.synchronousDisplay = false }

    /// The mean x of the thumb's pixels (the theme's white thumb) on the switch's middle row.
    func thumbX(_ b: Bitmap) -> Double? {
        var xs: [Int] = []
        for x in 0..<52 where b.argb32(x: x, y: 16) == 0xffff_ffff { xs.append(x) }
        return xs.isEmpty ? nil : Double(xs.reduce(0, +)) / Double(xs.count)
    }

    @Test func theThumbSlidesOnTheFrameClock() throws {
        let sw = SwitchNode()
        sw.displaysAsynchronously = false
        let root = DisplayNode()
        root.addSubnode(sw)
        root.layoutSpecBlock = { _, _ in StackLayoutSpec(direction: .vertical, alignItems: .start, children: [sw]) }
        let h = Harness(root: root, size: Size(width: 60, height: 40))
        #expect(h.iterate(until: { h.pass.isDisplayComplete }))
        let comp = try Compositor(pixelWidth: 60, pixelHeight: 40, clearColor: .black)
        comp.composite(h.host.snapshot(), at: 0)
        let off = try #require(thumbX(comp.backBuffer))

        sw.performPrimaryAction()
        _ = h.iterate(until: { h.pass.isDisplayComplete })
        h.iterate()
        #expect(sw.isOn && sw.thumbNode.layer?.animations.contains { $0.property.key == .position } == true)
        comp.composite(h.host.snapshot(), at: 1)            // the slide starts at this frame
        let start = try #require(thumbX(comp.backBuffer))
        comp.composite(h.host.snapshot(), at: 1 + SwitchNode.toggleDuration / 2)
        let mid = try #require(thumbX(comp.backBuffer))
        comp.composite(h.host.snapshot(), at: 1 + SwitchNode.toggleDuration * 0.75)
        let later = try #require(thumbX(comp.backBuffer))
        let frame = comp.composite(h.host.snapshot(), at: 2)
        frame.completions.forEach { $0() }
        let end = try #require(thumbX(comp.backBuffer))
        #expect(abs(start - off) < 1, "the slide starts where the thumb was: \(off) \(start)")
        #expect(end - off > 15, "the thumb reached the on end: \(off) → \(end)")
        #expect(mid > off + 3 && mid < end - 3, "half way it is between the ends: \(off) \(mid) \(end)")
        #expect(later > mid && later < end, "it keeps moving: \(mid) \(later) \(end)")
        #expect(!frame.hasRunningAnimations)

        // Set by the app: no slide, the thumb is at the off end at once.
        let slides: Int = sw.thumbNode.layer?.animations.count ?? 0
        sw.isOn = false
        let after: Int = sw.thumbNode.layer?.animations.count ?? 0
        #expect(after <= slides && sw.thumbNode.frame.minX < 5)
    }
}
