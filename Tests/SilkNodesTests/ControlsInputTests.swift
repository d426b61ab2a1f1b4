import Foundation
import Testing
import SilkGeometry
@testable import SilkNodes

/// Touch, hit testing and keyboard operation of the standard controls (Controls/), through a
/// window's `InputDispatcher` on hand-placed frames (no pass).
@Suite struct ControlsInputTests {
    /// `control` at `frame` in a 400×400 root, focused; its `.valueChanged` events counted.
    private func setUp<C: ControlNode>(_ control: C, _ frame: Rect) -> (InputDispatcher, C, Locked<Int>) {
        control.frame = frame
        let root = node(Rect(x: 0, y: 0, width: 400, height: 400), [control])
        let d = InputDispatcher(rootNode: root)
        let changes = Locked(0)
        control.addTarget(for: .valueChanged) { _, _ in changes.withLock { $0 += 1 } }
        return (d, control, changes)
    }
    private func tap(_ d: InputDispatcher, _ x: Double, _ y: Double, at t: Double) {
        d.down(x, y, at: t)
        d.up(at: t + 0.05)
    }

    @Test func switchTogglesByTapEnterAndSpaceNotWhenDisabled() {
        let (d, s, changes) = setUp(SwitchNode(), Rect(x: 10, y: 10, width: 52, height: 32))
        #expect(d.rootNode.hitTest(Point(x: 30, y: 20)) === s)
        #expect(d.rootNode.hitTest(Point(x: 80, y: 20)) !== s)
        tap(d, 30, 20, at: 1)
        #expect(s.isOn && s.isSelected && changes.current == 1)
        tap(d, 200, 200, at: 2)                                  // outside: nothing
        #expect(s.isOn && changes.current == 1)
        d.focus(s)
        d.key(.space, at: 3)
        #expect(!s.isOn && changes.current == 2)
        d.key(.enter, at: 4)
        #expect(s.isOn && changes.current == 3)
        s.isEnabled = false
        #expect(focusChain(in: d.rootNode).isEmpty)
        tap(d, 30, 20, at: 5)
        d.key(.space, at: 6)
        #expect(s.isOn && changes.current == 3)
        s.isOn = false                                           // the app sets it: no event
        #expect(changes.current == 3 && !s.isSelected)
    }

    @Test func checkBoxChecksAndAMixedBoxBecomesChecked() {
        let (d, c, changes) = setUp(CheckBoxNode(title: "Sound"), Rect(x: 10, y: 10, width: 120, height: 32))
        tap(d, 100, 20, at: 1)                                   // the label takes taps too
        #expect(c.isChecked && changes.current == 1)
        c.isMixed = true
        d.focus(c)
        d.key(.space, at: 2)
        #expect(c.isChecked && !c.isMixed && changes.current == 2)
        d.key(.space, at: 3)
        #expect(!c.isChecked && changes.current == 3)
    }

    @Test func radioGroupTapsAndArrowsSkipDisabledOptions() {
        let r = RadioGroupNode(options: ["A", "B", "C"], selectedIndex: 0)
        r.disabledOptions = [1]
        let (d, _, changes) = setUp(r, Rect(x: 0, y: 0, width: 200, height: 120))   // rows of 40
        tap(d, 50, 100, at: 1)
        #expect(r.selectedIndex == 2 && changes.current == 1)
        tap(d, 50, 60, at: 2)                                    // the disabled option
        #expect(r.selectedIndex == 2 && changes.current == 1)
        d.down(50, 20, at: 3); d.up(50, 100, at: 3.1)            // lifted on another row: nothing
        #expect(r.selectedIndex == 2)
        d.focus(r)
        d.key(.down, at: 4)                                      // wraps to A
        #expect(r.selectedIndex == 0 && changes.current == 2)
        d.key(.down, at: 5)                                      // skips B
        #expect(r.selectedIndex == 2)
        d.key(.home, at: 6)
        #expect(r.selectedIndex == 0 && changes.current == 4)
        r.selectedIndex = 7                                      // out of range: none
        #expect(r.selectedIndex == nil)
        d.key(.enter, at: 7)                                     // none selected: the first
        #expect(r.selectedIndex == 0)
    }

    @Test func segmentedControlSelectsTheTouchedSegmentAndFollowsArrows() {
        let s = SegmentedControlNode(options: ["Day", "Week", "Month"], selectedIndex: 0)
        let (d, _, changes) = setUp(s, Rect(x: 100, y: 100, width: 300, height: 40))
        tap(d, 350, 120, at: 1)
        #expect(s.selectedIndex == 2 && changes.current == 1)
        tap(d, 350, 120, at: 2)                                  // already selected: no event
        #expect(changes.current == 1)
        tap(d, 99, 120, at: 3)                                   // left of the control: root
        #expect(s.selectedIndex == 2)
        d.focus(s)
        d.key(.right, at: 4)
        #expect(s.selectedIndex == 0)
        d.key(.left, at: 5)
        #expect(s.selectedIndex == 2)
        d.key(.end, at: 6)
        #expect(s.selectedIndex == 2 && changes.current == 3)
        s.isEnabled = false
        d.key(.left, at: 7)
        #expect(s.selectedIndex == 2)
    }

    @Test func sliderFollowsTheFingerSnapsToStepsAndTakesKeys() {
        // Thumb 24: the track runs from x 12 to 212 of a 224-wide slider at x 0.
        let s = SliderNode(value: 0, minimum: 0, maximum: 100)
        let (d, _, changes) = setUp(s, Rect(x: 0, y: 0, width: 224, height: 40))
        d.down(112, 20, at: 1)
        #expect(abs(s.value - 50) < 0.001 && s.isHighlighted)
        d.move(62, 300, at: 1.1)                                 // strayed far below: still drags
        #expect(abs(s.value - 25) < 0.001)
        d.move(-50, 20, at: 1.2)
        #expect(s.value == 0)
        d.up(at: 1.3)
        #expect(changes.current == 3 && !s.isHighlighted)
        s.step = 10
        s.value = 44
        #expect(s.value == 40)
        d.focus(s)
        d.key(.right, at: 2)
        #expect(s.value == 50)
        d.key(.pageDown, at: 3)
        #expect(s.value == 40)
        d.key(.end, at: 4)
        #expect(s.value == 100)
        d.key(.up, at: 5)                                        // at the end: no change, no event
        #expect(s.value == 100 && changes.current == 6)
        s.value = .nan
        #expect(s.value == 100)
        s.minimumValue = .infinity                               // absurd: ignored, not a crash
        s.maximumValue = -5                                      // below the minimum: ordered
        #expect(s.minimumValue <= s.maximumValue && s.value >= s.minimumValue && s.value <= s.maximumValue)
    }

    @Test func stepperStepsByItsButtonsAndStopsAtItsBounds() {
        let s = StepperNode(value: 9, minimum: 0, maximum: 10)
        let (d, _, changes) = setUp(s, Rect(x: 0, y: 0, width: 150, height: 40))   // buttons 44 wide
        tap(d, 140, 20, at: 1)
        #expect(s.value == 10 && changes.current == 1)
        tap(d, 140, 20, at: 2)                                   // at the maximum: nothing
        #expect(s.value == 10 && changes.current == 1)
        tap(d, 75, 20, at: 3)                                    // the value in the middle: nothing
        #expect(s.value == 10)
        tap(d, 10, 20, at: 4)
        #expect(s.value == 9 && s.formattedValue == "9")
        d.focus(s)
        d.key(.down, at: 5)
        #expect(s.value == 8)
        d.handle(InputEvent(.keyDown(.character("+"), text: "+"), timestamp: 6))
        #expect(s.value == 9)
        d.key(.home, at: 7)
        #expect(s.value == 0 && changes.current == 5)
        #expect(StepperNode(step: .nan).step == 1)
    }

    @Test func progressAndActivityTakeNoFocusAndClampTheirValues() {
        let p = ProgressBarNode(progress: 2)
        #expect(p.progress == 1)
        p.progress = .nan
        #expect(p.progress == 0)
        p.progress = -1
        #expect(p.progress == 0)
        let a = ActivityIndicatorNode()
        let root = node(Rect(x: 0, y: 0, width: 100, height: 100), [p, a])
        p.frame = Rect(x: 0, y: 0, width: 100, height: 8)
        a.frame = Rect(x: 0, y: 20, width: 32, height: 32)
        #expect(focusChain(in: root).isEmpty)
        #expect(!a.isHidden)
        a.isAnimating = false
        #expect(a.isHidden)
        a.hidesWhenStopped = false
        #expect(!a.isHidden)
    }

    @Test func controlsKeepTheirAccessibilityCurrentAndTakeItsActions() {
        let sw = SwitchNode()
        sw.accessibilityLabel = "Wi-Fi"
        #expect(sw.isAccessibilityElement && sw.accessibilityRole == .`switch` && sw.accessibilityStates.contains(.checkable))
        #expect(sw.performAccessibilityAction(.activate))
        #expect(sw.isOn && sw.accessibilityStates.contains(.checked))
        sw.isEnabled = false
        #expect(sw.accessibilityStates.contains(.disabled) && !sw.performAccessibilityAction(.activate) && sw.isOn)

        let box = CheckBoxNode(title: "Sound")
        box.isMixed = true
        #expect(box.accessibilityRole == .checkBox && box.accessibilityLabel == "Sound" && box.accessibilityStates.contains(.mixed))
        #expect(box.performAccessibilityAction(.activate) && box.accessibilityStates.contains(.checked)
                && !box.accessibilityStates.contains(.mixed))

        let slider = SliderNode(value: 0.5)
        #expect(slider.accessibilityRole == .slider && slider.accessibilityValue == "50 %")
        #expect(slider.performAccessibilityAction(.increment))
        #expect(slider.accessibilityValueRange == AccessibilityValueRange(current: 0.55, minimum: 0, maximum: 1, step: 0))
        #expect(!slider.performAccessibilityAction(.activate))

        let stepper = StepperNode(value: 2, minimum: 0, maximum: 3)
        #expect(stepper.performAccessibilityAction(.decrement) && stepper.value == 1 && stepper.accessibilityValue == "1")
        #expect(stepper.accessibilityRole == .spinButton && stepper.accessibilityValueRange?.maximum == 3)

        let radio = RadioGroupNode(options: ["A", "B"], selectedIndex: 0)
        #expect(radio.performAccessibilityAction(.increment) && radio.selectedIndex == 1 && radio.accessibilityValue == "B")

        let bar = ProgressBarNode(progress: 0.25)
        #expect(bar.accessibilityRole == .progressBar && bar.accessibilityValue == "25 %" && !bar.accessibilityStates.contains(.focusable))
        bar.isIndeterminate = true
        #expect(bar.accessibilityStates.contains(.busy) && bar.accessibilityValueRange == nil)
        let spinner = ActivityIndicatorNode()
        #expect(spinner.accessibilityStates.contains(.busy) && spinner.accessibilityLabel == "Loading")
    }
}

@Suite struct AlertAndToastTests {
    @Test func alertButtonsEnterAndBackChooseTheirActions() {
        let chosen = Locked<[String]>([])
        let alert = AlertController(title: "Delete?", message: "Gone for good.", actions: [
            AlertAction("Cancel", style: .cancel) { chosen.withLock { $0.append("cancel") } },
            AlertAction("Delete", style: .destructive) { chosen.withLock { $0.append("delete") } },
            AlertAction("Archive") { chosen.withLock { $0.append("archive") } },
        ])
        #expect(alert.alertNode.buttons.count == 3 && alert.alertNode.accessibilityRole == .alert)
        alert.alertNode.buttons[1].sendActions(for: .primaryActionTriggered)   // a tap or Enter on the button
        #expect(alert.alertNode.keyDown(KeyInput(key: .enter)))                // Enter: the first default action
        #expect(alert.handleBack())                                            // Escape: the cancel action
        #expect(chosen.current == ["delete", "archive", "cancel"])
        #expect(AlertController(title: "Note", message: "").alertNode.buttons.count == 1)   // no actions: OK
    }

    @Test func aToastSitsAtTheBottomCentreAndTakesNoTouches() {
        let screen = node(Rect(x: 0, y: 0, width: 400, height: 300))
        screen.theme = .dark
        let toast = ToastNode.show("Saved", in: screen, duration: .nan)
        #expect(toast.supernode === screen && toast.accessibilityRole == .notification)
        #expect(abs(toast.frame.midX - 200) <= 1 && toast.frame.maxY <= 260 && toast.frame.minY > 150)
        #expect(toast.backgroundColor == Theme.dark.colors.text.withAlpha(0.92))
        #expect(screen.hitTest(Point(x: 200, y: toast.frame.midY)) === screen)
    }
}
