import Foundation
import Testing
import SilkGeometry
import SilkRaster
@testable import SilkNodes

/// Tap and long-press timing on the dispatcher's clock: event timestamps plus `tick(now:)`.
@Suite struct InputGestureTests {
    private func setUp() -> (InputDispatcher, TouchRecorder, Locked<[String]>) {
        let n = TouchRecorder(Rect(x: 0, y: 0, width: 100, height: 100))
        let root = node(Rect(x: 0, y: 0, width: 200, height: 200), [n])
        let fired = Locked<[String]>([])
        n.addGestureRecognizer(TapGestureRecognizer { r in
            fired.withLock { $0.append("tap at \(r.location(in: r.node)!)") }
        })
        n.addGestureRecognizer(LongPressGestureRecognizer { _ in fired.withLock { $0.append("long") } })
        return (InputDispatcher(rootNode: root), n, fired)
    }

    @Test func aQuickLiftNearTheStartIsATap() {
        let (d, n, fired) = setUp()
        d.down(50, 50, at: 10)
        d.move(57, 55, at: 10.2)                   // 8.6 pt: within the slop
        d.up(at: 10.49)
        #expect(fired.current == ["tap at (57, 55)"])
        // The tap recognizer cancels the node's touch instead of letting it end.
        #expect(n.entries.last == "cancelled")
    }

    @Test func movingTooFarOrHoldingTooLongIsNoTap() {
        let (d, _, fired) = setUp()
        d.down(50, 50, at: 10)
        d.move(61, 50, at: 10.1)                   // 11 pt
        d.move(50, 50, at: 10.2)                   // coming back does not revive it
        d.up(at: 10.3)
        #expect(fired.current.isEmpty)

        d.down(50, 50, at: 20)
        d.move(60, 50, at: 20.1)                   // moved 10 pt: long press is still possible
        d.up(at: 20.5)                             // 0.5 s is no longer a tap
        #expect(fired.current == ["long"])         // … the long press fired at 20.5 first
    }

    @Test func aLongPressRecognizesOnTheClockWhileHeld() {
        let (d, n, fired) = setUp()
        d.down(50, 50, at: 10)
        #expect(d.nextDeadline == 10.5)
        d.tick(now: 10.3)
        d.tick(now: 10.499)
        #expect(fired.current.isEmpty)
        d.tick(now: 10.5)
        #expect(fired.current == ["long"])
        #expect(n.entries == ["began (50, 50)", "cancelled"])
        #expect(d.nextDeadline == nil)
        d.up(at: 11)
        #expect(fired.current == ["long"])          // no tap after a long press
        #expect(n.entries.count == 2)               // and nothing more for the node
    }

    @Test func aLongPressDueBeforeTheNextEventRecognizesFirst() {
        let (d, _, fired) = setUp()
        d.down(50, 50, at: 10)
        d.move(52, 50, at: 10.7)                    // no tick was called: the event's time counts
        #expect(fired.current == ["long"])
    }

    @Test func movingCancelsALongPress() {
        let (d, _, fired) = setUp()
        d.down(50, 50, at: 10)
        d.move(50, 62, at: 10.2)
        d.tick(now: 11)
        d.up(at: 11.1)
        #expect(fired.current.isEmpty)
    }

    @Test func recognizersAboveAControlLeaveTapsToIt() {
        let control = LoggedControl(Rect(x: 10, y: 10, width: 30, height: 30))
        let card = node(Rect(x: 0, y: 0, width: 100, height: 100), [control])
        let root = node(Rect(x: 0, y: 0, width: 200, height: 200), [card])
        let fired = Locked<[String]>([])
        card.addGestureRecognizer(TapGestureRecognizer { _ in fired.withLock { $0.append("card tap") } })
        card.addGestureRecognizer(LongPressGestureRecognizer { _ in fired.withLock { $0.append("card long") } })
        let d = InputDispatcher(rootNode: root)
        d.down(20, 20, at: 1)
        d.up(at: 1.1)
        #expect(fired.current.isEmpty)
        #expect(control.log.contains("primaryActionTriggered"))
        // A tap beside the control is the card's.
        d.down(80, 80, at: 2)
        d.up(at: 2.1)
        #expect(fired.current == ["card tap"])
        // A long press over the control is the card's too, and cancels the control's touch.
        d.down(20, 20, at: 3)
        d.tick(now: 3.6)
        d.up(at: 3.7)
        #expect(fired.current == ["card tap", "card long"])
        #expect(control.log.suffix(2) == ["touchDown", "touchCancel"])
    }

    /// The shape of a scroll container's pan: recognizes after 10 pt, takes the touch from the
    /// control under it, and keeps following the finger.
    @Test func aContinuousRecognizerFollowsTheTouchAfterRecognizing() {
        final class Pan: GestureRecognizer, @unchecked Sendable {
            let moves = Locked<[Double]>([])
            override func touchMoved(_ touch: Touch) {
                if state == .possible && touch.distanceFromStart > 10 { recognize() }
                if state == .recognized { moves.withLock { $0.append(touch.location.y) } }
            }
        }
        let control = LoggedControl(Rect(x: 0, y: 0, width: 100, height: 30))
        let list = node(Rect(x: 0, y: 0, width: 100, height: 200), [control])
        let root = node(Rect(x: 0, y: 0, width: 100, height: 200), [list])
        let began = Locked(0)
        let pan = Pan { _ in began.withLock { $0 += 1 } }
        list.addGestureRecognizer(pan)
        let d = InputDispatcher(rootNode: root)
        d.down(50, 10, at: 1)
        d.move(50, 15, at: 1.05)
        d.move(50, 25, at: 1.1)
        d.move(50, 40, at: 1.15)
        d.up(at: 1.2)
        #expect(began.current == 1)
        #expect(pan.moves.current == [25, 40])
        #expect(control.log == ["touchDown", "touchDragInside", "touchCancel"])
        #expect(pan.state == .possible)                        // reset for the next gesture
    }

    @Test func doubleTapsCountAndDoubleTapRecognizerFiresOnTheSecond() {
        let n = TouchRecorder(Rect(x: 0, y: 0, width: 100, height: 100))
        let root = node(Rect(x: 0, y: 0, width: 200, height: 200), [n])
        let fired = Locked<Int>(0)
        let double = TapGestureRecognizer { _ in fired.withLock { $0 += 1 } }
        double.numberOfTapsRequired = 2
        n.addGestureRecognizer(double)
        let d = InputDispatcher(rootNode: root)
        d.down(50, 50, at: 1); d.up(at: 1.05)
        #expect(fired.current == 0)
        d.down(53, 52, at: 1.3); d.up(at: 1.35)
        #expect(fired.current == 1)
        // Too late for a second tap.
        d.down(50, 50, at: 5); d.up(at: 5.05)
        d.down(50, 50, at: 5.5); d.up(at: 5.55)
        #expect(fired.current == 1)
    }
}

/// Links in a TextNode.
@Suite struct InputTextLinkTests {
    private func linkedText() -> (TextNode, DisplayNode, Rect) {
        var text = AttributedText("Read the ", attributes: TextAttributes(fontSize: 16))
        text.append(AttributedText("manual", attributes: TextAttributes(fontSize: 16, link: "silk://manual")))
        text.append(AttributedText(" today.", attributes: TextAttributes(fontSize: 16)))
        let t = TextNode(text)
        t.frame = Rect(x: 10, y: 10, width: 300, height: 40)
        let root = node(Rect(x: 0, y: 0, width: 400, height: 100), [t])
        let link = t.textLayout.rects(for: 9..<15)[0]
        return (t, root, link.offsetBy(dx: 10, dy: 10))
    }

    private func highlight(_ t: TextNode) -> [Rect] { (t.drawParameters() as? TextNode.Parameters)?.highlight ?? [] }

    @Test func tappingALinkCallsLinkTappedAndHighlightsWhileDown() {
        let (t, root, link) = linkedText()
        let tapped = Locked<[String]>([])
        t.linkTapped = { url in tapped.withLock { $0.append(url) } }
        let d = InputDispatcher(rootNode: root)
        d.down(link.midX, link.midY, at: 1)
        #expect(!highlight(t).isEmpty)
        d.move(link.maxX + 40, link.midY, at: 1.1)  // off the link: no highlight
        #expect(highlight(t).isEmpty)
        d.move(link.midX + 1, link.midY, at: 1.2)   // back on it
        #expect(!highlight(t).isEmpty)
        d.up(at: 1.3)
        #expect(highlight(t).isEmpty)
        #expect(tapped.current == ["silk://manual"])
        // Lifting off the link taps nothing.
        d.down(link.midX, link.midY, at: 2)
        d.move(link.maxX + 40, link.midY, at: 2.1)
        d.up(at: 2.2)
        #expect(tapped.current == ["silk://manual"])
    }

    @Test func holdingALinkLongPressesItInsteadOfTapping() {
        let (t, root, link) = linkedText()
        let log = Locked<[String]>([])
        t.linkTapped = { url in log.withLock { $0.append("tap \(url)") } }
        t.linkLongPressed = { url in log.withLock { $0.append("long \(url)") } }
        t.shouldHighlightLink = { _ in false }
        let d = InputDispatcher(rootNode: root)
        d.down(link.midX, link.midY, at: 1)
        #expect(highlight(t).isEmpty)
        #expect(d.nextDeadline == 1.5)
        d.tick(now: 1.5)
        d.up(at: 1.8)
        #expect(log.current == ["long silk://manual"])
    }

    @Test func touchesOffTheLinksGoToTheSupernodes() {
        let (t, _, link) = linkedText()
        t.linkTapped = { _ in }
        let parent = TouchRecorder(Rect(x: 0, y: 0, width: 400, height: 100))
        t.removeFromSupernode()
        parent.addSubnode(t)
        let root = node(Rect(x: 0, y: 0, width: 400, height: 100), [parent])
        let d = InputDispatcher(rootNode: root)
        d.down(link.maxX + 100, link.midY, at: 1)  // on the text's node, past the line's end
        d.up(at: 1.1)
        #expect(parent.entries.count == 2)
        d.down(link.midX, link.midY, at: 2)        // on the link: the parent sees nothing
        d.up(at: 2.1)
        #expect(parent.entries.count == 2)
    }
}
