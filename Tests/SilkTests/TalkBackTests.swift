import Testing
import SilkGeometry
import SilkSystem
@testable import SilkAccessibility
@testable import SilkNodes

@Suite struct TalkBackTests {
    @Test func utterancesSayNameRoleValueAndStates() {
        let b = AccessibilityElement(id: 1, role: .button, label: "Next", states: [.focusable, .selected])
        #expect(TalkBack.utterance(for: b) == "Next, button, selected")
        let f = AccessibilityElement(id: 2, role: .textField, label: "Name", value: "Ada", states: [.disabled])
        #expect(TalkBack.utterance(for: f) == "Name, text field, Ada, dimmed")
        let p = AccessibilityElement(id: 3, role: .passwordField, label: "PIN", value: "1234")
        #expect(TalkBack.utterance(for: p) == "PIN, password field")   // never the secret
        let l = AccessibilityElement(id: 4, role: .list, itemCount: 40)
        #expect(TalkBack.utterance(for: l) == "list, 40 items")
    }

    @Test func explorationFindsTheFrontmostLeafUnderTheFinger() {
        let back = AccessibilityElement(id: 2, role: .label, label: "Back", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let front = AccessibilityElement(id: 3, role: .button, label: "Front", frame: Rect(x: 50, y: 50, width: 20, height: 20))
        let root = AccessibilityElement(id: 1, role: .window, frame: Rect(x: 0, y: 0, width: 200, height: 200), children: [back, front])
        #expect(TalkBack.deepest(in: root, containing: Point(x: 55, y: 55))?.id == 3)
        #expect(TalkBack.deepest(in: root, containing: Point(x: 10, y: 10))?.id == 2)
        #expect(TalkBack.deepest(in: root, containing: Point(x: 150, y: 150)) == nil)   // an unnamed window is not spoken
    }

    @Test func optionsClampTheRateAndReadTheEnvironment() {
        #expect(TalkBackOptions(rate: 5).rate == 80 && TalkBackOptions(rate: 10_000).rate == 450)
        let c = SilkConfiguration(environment: ["SILK_TALKBACK": "1", "SILK_TALKBACK_RATE": "nonsense",
                                                "SILK_TALKBACK_VOICE": "de", "SILK_TALKBACK_WAV": "/tmp/x.wav"])
        #expect(c.talkBack)
        let o = TalkBackOptions(configuration: c)
        #expect(o.rate == 175 && o.voice == "de" && o.wavPath == "/tmp/x.wav")
        #expect(!SilkConfiguration(environment: ["SILK_TALKBACK": "0"]).talkBack)
        #expect(!SilkConfiguration(environment: ["SILK_ACCESSIBILITY": "0"]).exportsAccessibility)
    }
}
