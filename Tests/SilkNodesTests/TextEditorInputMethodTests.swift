import Foundation
import Testing
import SilkInput
import SilkRaster
@testable import SilkNodes

/// The editing model's input-method side: pre-edit, commit, delete-surrounding (UTF-8 bytes at
/// the boundary, grapheme clusters inside) and the surrounding-text window.
@Suite struct TextEditorInputMethodTests {
    private func editor(_ s: String, caret: Int? = nil) -> TextEditor {
        var e = TextEditor(AttributedText(s))
        if let caret { e.select(TextSelection(caret: caret)) }
        return e
    }

    @Test func aPreeditIsShownNotStoredAndItsCursorLandsOnCharacterBoundaries() {
        var e = editor("ab", caret: 1)
        e.setPreedit(TextPreedit(text: "日本語", cursorBegin: 3, cursorEnd: 3))
        #expect(e.string == "ab")
        #expect(e.preedit?.text == "日本語")
        #expect(e.preeditCursorCharacters == 1..<1)
        // Byte 4 is inside 本 (bytes 3..<6): rounded down to its start.
        e.setPreedit(TextPreedit(text: "日本語", cursorBegin: 4, cursorEnd: 8))
        #expect(e.preedit?.cursorBegin == 3 && e.preedit?.cursorEnd == 6)
        #expect(e.preeditCursorCharacters == 1..<2)
        // Reversed, beyond the end, hidden.
        e.setPreedit(TextPreedit(text: "日本語", cursorBegin: 1_000_000, cursorEnd: 0))
        #expect(e.preeditCursorCharacters == 0..<3)
        e.setPreedit(TextPreedit(text: "日本語", cursorBegin: -1, cursorEnd: -1))
        #expect(e.preedit != nil && e.preeditCursorCharacters == nil)
        e.setPreedit(TextPreedit(text: "", cursorBegin: 0, cursorEnd: 0))
        #expect(e.preedit == nil)
        // A combining sequence is one character: byte 1 (inside e + U+0301) rounds to 0.
        e.setPreedit(TextPreedit(text: "e\u{301}x", cursorBegin: 1, cursorEnd: 3))
        #expect(e.preeditCursorCharacters == 0..<1)
    }

    @Test func anUpdateDeletesCommitsThenShowsThePreeditInTheProtocolsOrder() {
        // A Korean input method recomposing the syllable before the caret: delete 한 (3 bytes),
        // commit 한글, show the next jamo as pre-edit.
        var e = editor("x한", caret: 2)
        e.setPreedit(TextPreedit(text: "ㄱ", cursorBegin: 3, cursorEnd: 3))
        let changed = e.applyInputMethod(TextInputUpdate(preedit: TextPreedit(text: "ㅇ", cursorBegin: 3, cursorEnd: 3),
                                                         commit: "한글", deleteBefore: 3))
        #expect(changed)
        #expect(e.string == "x한글")
        #expect(e.selection == TextSelection(caret: 3))
        #expect(e.preedit?.text == "ㅇ")
        // A commit replaces the selection; an empty update clears the pre-edit only.
        e.select(range: 0..<1)
        e.applyInputMethod(TextInputUpdate(commit: "日本語"))
        #expect(e.string == "日本語한글" && e.selection == TextSelection(caret: 3) && e.preedit == nil)
        let changedByNothing = e.applyInputMethod(TextInputUpdate())
        #expect(!changedByNothing)
        // The commit is undoable.
        e.undo()
        #expect(e.string == "x한글")
    }

    @Test func deleteSurroundingCountsBytesAndNeverSplitsACluster() {
        // a (1 byte) é as e + U+0301 (3) 日 (3) flag (8) | caret | b (1) family (18)
        var e = editor("ae\u{301}日🇫🇷b👨‍👩‍👧", caret: 4)
        #expect(e.surroundingDeletion(before: 8, after: 0).before == 3..<4)
        // 4 bytes end inside the flag: the whole flag goes.
        #expect(e.surroundingDeletion(before: 4, after: 0).before == 3..<4)
        // 9 bytes reach into 日: it goes too.
        #expect(e.surroundingDeletion(before: 9, after: 2).before == 2..<4)
        #expect(e.surroundingDeletion(before: 9, after: 2).after == 4..<6)
        e.deleteSurrounding(before: 4, after: 1)
        #expect(e.string == "ae\u{301}日👨‍👩‍👧")
        #expect(e.selection == TextSelection(caret: 3))
        // Beyond the text: clamped; absurd and negative counts: no crash, no change for negatives.
        let negative = e.deleteSurrounding(before: -5, after: -1)
        #expect(!negative)
        let huge = e.deleteSurrounding(before: Int(UInt32.max), after: Int.max)
        #expect(huge)
        #expect(e.string.isEmpty && e.selection == TextSelection(caret: 0))
        let fromEmpty = e.deleteSurrounding(before: 10, after: 10)
        #expect(!fromEmpty)
    }

    @Test func deleteSurroundingKeepsTheSelectionAndCountsFromItsEnds() {
        var e = editor("abcdef")
        e.select(TextSelection(anchor: 2, head: 4))   // "cd"
        e.applyInputMethod(TextInputUpdate(deleteBefore: 1, deleteAfter: 1))
        #expect(e.string == "acdf")
        #expect(e.selection == TextSelection(anchor: 1, head: 3))
    }

    @Test func surroundingTextHoldsTheCaretWithinTheByteLimit() {
        var e = editor("héllo wörld", caret: 2)
        var s = e.surroundingText()
        #expect(s.text == "héllo wörld" && s.cursor == 3 && s.anchor == 3)
        e.select(TextSelection(anchor: 7, head: 1))
        s = e.surroundingText()
        #expect(s.cursor == 1 && s.anchor == 8)

        // 10 000 × 日 (30 000 bytes), caret in the middle: a window of at most 4 000 bytes,
        // balanced around the caret, cut between characters.
        let long = String(repeating: "日", count: 10_000)
        e = editor(long, caret: 5_000)
        s = e.surroundingText()
        #expect(s.text.utf8.count <= TextInputState.maximumBytes)
        #expect(s.text.utf8.count >= TextInputState.maximumBytes - 3)
        #expect(s.text.allSatisfy { $0 == "日" })
        #expect(s.cursor == s.anchor && s.cursor % 3 == 0)
        #expect(abs(s.cursor - (s.text.utf8.count - s.cursor)) <= 3)

        // A selection larger than the limit keeps the caret (head) and as much as fits towards
        // the anchor.
        e.select(TextSelection(anchor: 0, head: 9_000))
        s = e.surroundingText()
        #expect(s.text.utf8.count <= 4_000 && s.cursor == s.text.utf8.count && s.anchor == 0)
        // Absurd limits.
        #expect(e.surroundingText(maximumBytes: 0).text.isEmpty)
        #expect(e.surroundingText(maximumBytes: -7).cursor == 0)
        #expect(editor("").surroundingText() == ("", 0, 0))
    }
}
