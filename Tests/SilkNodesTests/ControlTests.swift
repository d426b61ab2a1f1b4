import Foundation
import Testing
import SilkGeometry
@testable import SilkNodes

@Suite struct ControlTests {
    private func setUp() -> (InputDispatcher, LoggedControl) {
        let c = LoggedControl(Rect(x: 50, y: 50, width: 40, height: 20))
        c.trackingMargin = 10
        let root = node(Rect(x: 0, y: 0, width: 300, height: 300), [c])
        return (InputDispatcher(rootNode: root), c)
    }

    @Test func dragOutAndBackThenUpInsideTriggersThePrimaryAction() {
        let (d, c) = setUp()
        d.down(60, 60, at: 1)
        #expect(c.isHighlighted && c.isTracking)
        #expect(c.state == .highlighted)
        d.move(95, 60, at: 1.1)           // outside the bounds, inside the tracking margin
        #expect(c.isHighlighted)
        d.move(150, 60, at: 1.2)          // outside the tracking area
        #expect(!c.isHighlighted)
        d.move(70, 65, at: 1.3)
        #expect(c.isHighlighted)
        d.up(at: 1.4)
        #expect(!c.isHighlighted && !c.isTracking)
        #expect(c.log == ["touchDown", "touchDragOutside", "touchDragOutside", "touchDragInside",
                          "touchUpInside", "primaryActionTriggered"])
    }

    @Test func upOutsideDoesNotTriggerTheAction() {
        let (d, c) = setUp()
        d.down(60, 60, at: 1)
        d.move(200, 200, at: 1.1)
        d.up(at: 1.2)
        #expect(c.log == ["touchDown", "touchDragOutside", "touchUpOutside"])
        #expect(!c.isHighlighted)
    }

    @Test func aCancelledTouchSendsTouchCancel() {
        let (d, c) = setUp()
        d.down(60, 60, at: 1)
        d.handle(InputEvent(.touchCancel(id: 1), timestamp: 1.1))
        #expect(c.log == ["touchDown", "touchCancel"])
        #expect(!c.isHighlighted)
    }

    @Test func slopExtendsWhereAControlCanBeTouched() {
        let (d, c) = setUp()
        c.hitTestSlop = EdgeInsets(all: -15)
        d.down(40, 40, at: 1)             // 10 pt above-left of the bounds
        d.up(at: 1.1)
        #expect(c.log == ["touchDown", "touchUpInside", "primaryActionTriggered"])
    }

    @Test func aQuickSecondTapIsTouchDownRepeat() {
        let (d, c) = setUp()
        d.down(60, 60, at: 1); d.up(at: 1.05)
        d.down(62, 61, at: 1.2); d.up(at: 1.25)
        #expect(c.log.filter { $0.hasPrefix("touchDown") } == ["touchDown", "touchDownRepeat"])
    }

    @Test func theMouseDrivesAControlLikeAFinger() {
        let (d, c) = setUp()
        d.handle(InputEvent(.pointerDown(.left, Point(x: 60, y: 60)), timestamp: 1))
        d.handle(InputEvent(.pointerUp(.left, Point(x: 61, y: 60)), timestamp: 1.1))
        #expect(c.log == ["touchDown", "touchDragInside", "touchUpInside", "primaryActionTriggered"])
    }

    @Test func aDisabledControlSwallowsTouchesAndSendsNothing() {
        let behind = TouchRecorder(Rect(x: 0, y: 0, width: 300, height: 300))
        let c = LoggedControl(Rect(x: 50, y: 50, width: 40, height: 20))
        behind.addSubnode(c)
        let root = node(Rect(x: 0, y: 0, width: 300, height: 300), [behind])
        let d = InputDispatcher(rootNode: root)
        c.isEnabled = false
        #expect(c.state == .disabled)
        #expect(d.hitTest(Point(x: 60, y: 60)) === c)
        d.down(60, 60, at: 1); d.up(at: 1.1)
        #expect(c.log.isEmpty && behind.entries.isEmpty)
        #expect(!c.isFocusable)
        // Disabling mid-touch ends the tracking silently.
        c.isEnabled = true
        d.down(60, 60, at: 2)
        c.isEnabled = false
        d.up(at: 2.1)
        #expect(c.log == ["touchDown"])
        #expect(!c.isHighlighted && !c.isTracking)
    }

    @Test func targetsCanBeRemovedAndStateCombines() {
        let c = ControlNode()
        let count = Locked(0)
        let token = c.addTarget(for: [.touchUpInside, .valueChanged]) { _, _ in count.withLock { $0 += 1 } }
        c.sendActions(for: [.touchUpInside, .valueChanged, .touchDown])
        #expect(count.current == 2)
        c.removeTarget(token)
        c.sendActions(for: .allEvents)
        #expect(count.current == 2)
        c.isSelected = true
        c.isHighlighted = true
        #expect(c.state == [.selected, .highlighted])
        c.isEnabled = false
        #expect(c.state == [.selected, .disabled])             // disabling drops the highlight
    }

    @Test func stateDidChangeRunsOnEachChange() {
        final class Watched: ControlNode, @unchecked Sendable {
            let states = Locked<[ControlState]>([])
            override func stateDidChange() { states.withLock { $0.append(state) } }
        }
        let c = Watched()
        c.isHighlighted = true
        c.isHighlighted = true                                 // unchanged: no call
        c.isSelected = true
        c.isHighlighted = false
        #expect(c.states.current == [.highlighted, [.highlighted, .selected], .selected])
    }
}
