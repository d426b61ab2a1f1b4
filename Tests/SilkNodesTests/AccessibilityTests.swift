import Foundation
import Testing
import SilkGeometry
import SilkSystem
@testable import SilkNodes

/// Records the changes posted for the nodes it watches (tests run in parallel, so other tests'
/// nodes post too).
final class ChangeRecorder: AccessibilityObserver, @unchecked Sendable {
    let watched: Set<UInt64>
    let changes = Locked<[AccessibilityChangeKind]>([])
    init(_ nodes: [DisplayNode]) { watched = Set(nodes.map(\.accessibilityID)) }
    func accessibilityDidChange(_ change: AccessibilityChange, node: DisplayNode) {
        if watched.contains(change.nodeID) { changes.withLock { $0.append(change.kind) } }
    }
    var log: [AccessibilityChangeKind] { changes.current }
}

@Suite struct AccessibilityAPITests {
    @Test func plainNodesAreNotElementsAndIDsAreUnique() {
        let a = DisplayNode(), b = DisplayNode()
        #expect(!a.isAccessibilityElement)
        #expect(a.accessibilityRole == .none)
        #expect(a.accessibilityLabel == nil && a.accessibilityStates.isEmpty && a.accessibilityActions.isEmpty)
        #expect(a.accessibilityID != b.accessibilityID)
        #expect(!a.performAccessibilityAction(.activate))
    }

    @Test func settersPostOnlyRealChanges() {
        let n = DisplayNode()
        let rec = ChangeRecorder([n])
        let token = AccessibilityNotifications.addObserver(rec)
        defer { AccessibilityNotifications.removeObserver(token) }
        n.accessibilityLabel = "Volume"
        n.accessibilityLabel = "Volume"          // same: no post
        n.accessibilityStates = [.focusable]
        n.setAccessibilityStates(.focusable, true) // already set: no post
        n.setDefaultAccessibilityLabel("ignored")  // the explicit label still wins: no post
        #expect(n.accessibilityLabel == "Volume")
        n.accessibilityLabel = nil                 // falls back to the default
        #expect(n.accessibilityLabel == "ignored")
        n.accessibilityValueRange = AccessibilityValueRange(current: 5, minimum: 0, maximum: 10, step: 1)
        #expect(rec.log == [.label, .states(old: [], new: [.focusable]), .label, .valueRange])
    }

    @Test func controlsAreButtonsThatTrackTheirStateAndActivate() {
        let c = LoggedControl(Rect(x: 0, y: 0, width: 40, height: 20))
        #expect(c.isAccessibilityElement && c.accessibilityRole == .button)
        #expect(c.accessibilityStates == [.focusable])
        #expect(c.accessibilityActions == [.activate])
        #expect(c.performAccessibilityAction(.activate))
        #expect(c.log == ["primaryActionTriggered"])
        #expect(!c.performAccessibilityAction(.increment))
        c.isEnabled = false
        #expect(c.accessibilityStates == [.disabled])
        #expect(!c.performAccessibilityAction(.activate))
        c.isEnabled = true
        c.isSelected = true
        #expect(c.accessibilityStates == [.focusable, .selected])
        // A control without a primary-action target has nothing to do.
        #expect(!ControlNode().performAccessibilityAction(.activate))
    }

    @Test func focusByTabSetsTheFocusedStateAndPostsFocus() {
        let a = LoggedControl(Rect(x: 0, y: 0, width: 40, height: 20))
        let b = LoggedControl(Rect(x: 0, y: 30, width: 40, height: 20))
        let d = InputDispatcher(rootNode: node(Rect(x: 0, y: 0, width: 100, height: 100), [a, b]))
        let rec = ChangeRecorder([a, b])
        let token = AccessibilityNotifications.addObserver(rec)
        defer { AccessibilityNotifications.removeObserver(token) }
        d.key(.tab, at: 1)
        d.key(.tab, at: 2)
        #expect(!a.accessibilityStates.contains(.focused))
        #expect(b.accessibilityStates.contains(.focused))
        #expect(rec.log == [.states(old: [.focusable], new: [.focusable, .focused]), .focus,
                            .states(old: [.focusable, .focused], new: [.focusable]),
                            .states(old: [.focusable], new: [.focusable, .focused]), .focus])
    }

    @Test func valueRangesSanitizeAbsurdNumbers() {
        let r = AccessibilityValueRange(current: .nan, minimum: 10, maximum: -5, step: -1)
        #expect(r.minimum == 10 && r.maximum == 10 && r.current == 10 && r.step == 0)
        let inf = AccessibilityValueRange(current: 1e300, minimum: -.infinity, maximum: .infinity, step: .infinity)
        #expect(inf.minimum == 0 && inf.maximum == 0 && inf.current == 0 && inf.step == 0)
        #expect(AccessibilityValueRange(current: 3, minimum: 0, maximum: 10, step: 0.5).current == 3)
        #expect(AccessibilityAction.activate.name == "click" && AccessibilityAction.custom("Zoom").name == "Zoom")
        #expect(AccessibilityStates([.focusable, .disabled]).description == "focusable|disabled")
    }
}
