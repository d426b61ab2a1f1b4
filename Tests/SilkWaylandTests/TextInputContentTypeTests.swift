import SilkInput
import Testing
@testable import SilkWayland

/// What text-input-v3's set_content_type carries for each field type.
@Suite struct TextInputContentTypeTests {
    @Test func purposesMapToTheProtocolsValuesInOrder() {
        // The protocol numbers purposes 0 (normal) … 13 (terminal) in the order of the enum.
        #expect(TextContentPurpose.allCases.map(WaylandTextInput.purpose) == Array(0...13))
        #expect(WaylandTextInput.purpose(.email) == 6)
        #expect(WaylandTextInput.purpose(.password) == 8)
        #expect(WaylandTextInput.purpose(.pin) == 9)
    }

    @Test func hintsAreTheProtocolsBitsAndUnknownBitsAreDropped() {
        #expect(WaylandTextInput.hints([.hiddenText, .sensitiveData]) == 0x40 | 0x80)
        #expect(WaylandTextInput.hints([.multiline, .latin]) == 0x200 | 0x100)
        #expect(WaylandTextInput.hints(TextContentHints(rawValue: 0xffff_ffff)) == 0x3ff)
    }
}
