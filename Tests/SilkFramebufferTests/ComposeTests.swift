import Testing
import SilkInput

/// xkbcommon-compose with the system's Compose table (libx11-data): dead keys give accented text.
@Suite struct ComposeTests {
    static let deadAcute: UInt32 = 0xfe51, deadDiaeresis: UInt32 = 0xfe57, shiftL: UInt32 = 0xffe1

    @Test func theCLocaleFallsBackToUTF8() throws {
        let c = try #require(XKBComposer(locale: "C"))
        #expect(c.locale == "en_US.UTF-8")
    }

    @Test func deadKeysCompose() throws {
        let c = try #require(XKBComposer(locale: "C"))
        #expect(c.feed(keysym: Self.deadAcute) == .composing)
        #expect(c.feed(keysym: 0x65) == .composed("é"))             // e
        #expect(c.feed(keysym: 0x65) == .passThrough)               // a plain e afterwards
        #expect(c.feed(keysym: Self.deadDiaeresis) == .composing)
        #expect(c.feed(keysym: Self.shiftL) == .passThrough)        // modifiers do not break a sequence
        #expect(c.feed(keysym: 0x55) == .composed("Ü"))             // U
        #expect(c.feed(keysym: Self.deadAcute) == .composing)
        #expect(c.feed(keysym: 0x71) == .cancelled)                 // q: no such sequence
        #expect(c.feed(keysym: 0x71) == .passThrough)
        #expect(c.feed(keysym: Self.deadAcute) == .composing)
        c.reset()
        #expect(c.feed(keysym: 0x65) == .passThrough)
    }
}
