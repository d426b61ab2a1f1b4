import Foundation
import Testing
import SilkRaster
@testable import SilkNodes

/// The editing model alone: no nodes, no layout, no main thread.
@Suite struct TextEditorTests {
    private func editor(_ s: String, caret: Int? = nil) -> TextEditor {
        var e = TextEditor(AttributedText(s))
        if let caret { e.select(TextSelection(caret: caret)) }
        return e
    }

    private func type(_ e: inout TextEditor, _ s: String) {
        for c in s { e.perform(.insert(String(c))) }
    }

    @Test func typingInsertsAtTheCaretAndMovesIt() {
        var e = editor("")
        type(&e, "héllo")
        #expect(e.string == "héllo")
        #expect(e.selection == TextSelection(caret: 5))
        e.perform(.move(.left, extending: false))
        e.perform(.move(.left, extending: false))
        type(&e, "XY")
        #expect(e.string == "helXYlo".replacingOccurrences(of: "e", with: "é"))
        #expect(e.selection.head == 5)
    }

    @Test func positionsCountGraphemeClustersNotScalars() {
        // e + combining acute, a flag (two scalars), a family (ZWJ sequence of 5 scalars).
        var e = editor("e\u{301}🇫🇷👨‍👩‍👧x")
        #expect(e.characterCount == 4)
        #expect(e.text.scalarCount == 2 + 2 + 5 + 1)
        #expect(e.scalarOffset(ofCharacter: 2) == 4)
        #expect(e.characterIndex(ofScalar: 4) == 2)
        #expect(e.characterIndex(ofScalar: 5) == 3)   // inside the family: rounds up
        e.perform(.deleteBackward(.character))      // x
        e.perform(.deleteBackward(.character))      // the whole family
        #expect(e.string == "e\u{301}🇫🇷")
        e.perform(.move(.left, extending: false))
        #expect(e.selection.head == 1)
        e.perform(.deleteForward(.character))       // the whole flag
        #expect(e.string == "e\u{301}")
        e.perform(.deleteBackward(.character))
        #expect(e.string.isEmpty)
    }

    @Test func aCombiningMarkTypedAfterALetterMergesAndUndoRestoresExactly() {
        var e = editor("ab", caret: 1)
        e.perform(.insert("\u{301}"))
        #expect(e.string == "a\u{301}b")
        #expect(e.characterCount == 2)
        #expect(e.selection == TextSelection(caret: 1))
        e.undo()
        #expect(e.string == "ab")
        #expect(e.selection == TextSelection(caret: 1))
    }

    @Test func deletingAtTheEndsDoesNothing() {
        var e = editor("ab", caret: 0)
        #expect(e.edit(for: .deleteBackward(.character)) == nil)
        let changed = e.perform(.deleteBackward(.character))
        #expect(!changed)
        e.select(TextSelection(caret: 2))
        #expect(e.edit(for: .deleteForward(.character)) == nil)
        #expect(e.string == "ab")
        #expect(!e.canUndo)
    }

    @Test func aSelectionIsReplacedByTypingAndRemovedByEitherDelete() {
        var e = editor("hello world")
        e.select(range: 0..<5)
        #expect(e.selectedText == "hello")
        type(&e, "J")
        #expect(e.string == "J world")
        e.select(range: 1..<3)
        e.perform(.deleteForward(.character))
        #expect(e.string == "Jorld")
        #expect(e.selection == TextSelection(caret: 1))
    }

    @Test func arrowsCollapseASelectionToItsEdge() {
        var e = editor("abcdef")
        e.select(TextSelection(anchor: 4, head: 2))
        e.perform(.move(.right, extending: false))
        #expect(e.selection == TextSelection(caret: 4))
        e.select(TextSelection(anchor: 4, head: 2))
        e.perform(.move(.left, extending: false))
        #expect(e.selection == TextSelection(caret: 2))
    }

    @Test func shiftArrowsExtendFromTheAnchorAndCanCrossIt() {
        var e = editor("abcdef", caret: 3)
        e.perform(.move(.right, extending: true))
        e.perform(.move(.right, extending: true))
        #expect(e.selection == TextSelection(anchor: 3, head: 5))
        #expect(e.selectedText == "de")
        for _ in 0..<4 { e.perform(.move(.left, extending: true)) }
        #expect(e.selection == TextSelection(anchor: 3, head: 1))
        #expect(e.selectedRange == 1..<3)
        e.perform(.move(.documentEnd, extending: true))
        #expect(e.selectedRange == 3..<6)
    }

    @Test func movementsStopAtTheEnds() {
        var e = editor("ab", caret: 0)
        e.perform(.move(.left, extending: false))
        #expect(e.selection.head == 0)
        e.perform(.move(.documentEnd, extending: false))
        e.perform(.move(.right, extending: false))
        #expect(e.selection.head == 2)
    }

    @Test func wordMovementSkipsSpacesAndPunctuationThenAWord() {
        let s = "The quick, brown fox's  tail"
        var e = editor(s, caret: 0)
        var stops: [Int] = []
        for _ in 0..<6 { e.perform(.move(.wordRight, extending: false)); stops.append(e.selection.head) }
        #expect(stops == [3, 9, 16, 22, 28, 28])
        stops = []
        for _ in 0..<6 { e.perform(.move(.wordLeft, extending: false)); stops.append(e.selection.head) }
        #expect(stops == [24, 17, 11, 4, 0, 0])
    }

    @Test func wordsInOtherScriptsAndDigits() {
        let e = editor("naïve café 42 €")
        #expect(e.wordRange(at: 7) == 6..<10)
        #expect(e.wordRange(at: 12) == 11..<13)
        #expect(e.wordRange(at: 14) == 14..<15)    // a symbol alone
        #expect(e.wordRange(at: 5) == 0..<5)       // the caret right after a word takes it
        #expect(e.wordRange(at: 10) == 6..<10)
        #expect(editor("").wordRange(at: 0) == 0..<0)
    }

    @Test func doubleClickOnSpacesSelectsTheRun() {
        let e = editor("a   b")
        #expect(e.wordRange(at: 2) == 1..<4)
    }

    @Test func wordDeletion() {
        var e = editor("one two  three")
        e.perform(.deleteBackward(.word))
        #expect(e.string == "one two  ")
        e.perform(.deleteBackward(.word))
        #expect(e.string == "one ")
        e.select(TextSelection(caret: 0))
        e.perform(.deleteForward(.word))
        #expect(e.string == " ")
    }

    @Test func lineMovementWithoutLayoutUsesParagraphs() {
        var e = editor("first\nsecond\nthird", caret: 8)
        e.perform(.move(.lineStart, extending: false))
        #expect(e.selection.head == 6)
        e.perform(.move(.lineEnd, extending: true))
        #expect(e.selectedText == "second")
        e.select(TextSelection(caret: 8))
        e.perform(.deleteBackward(.line))
        #expect(e.string == "first\ncond\nthird")
    }

    @Test func lineMovementUsesTheNavigationWhenGiven() {
        struct FixedLines: TextLineNavigation {
            // Lines of 4 characters: 0..<4, 4..<8, 8..<10.
            func lineStart(containing i: Int) -> Int { min(i, 9) / 4 * 4 }
            func lineEnd(containing i: Int) -> Int { min(min(i, 9) / 4 * 4 + 4, 10) }
            func index(above i: Int, x: Double?) -> Int? { i >= 4 ? i - 4 : nil }
            func index(below i: Int, x: Double?) -> Int? { i + 4 <= 10 ? i + 4 : nil }
        }
        var e = editor("abcdefghij", caret: 5)
        e.move(.lineEnd, extending: false, lines: FixedLines())
        #expect(e.selection.head == 8)
        e.move(.up, extending: true, lines: FixedLines())
        #expect(e.selection == TextSelection(anchor: 8, head: 4))
        e.move(.up, extending: false, lines: FixedLines())   // collapses to the start, then up
        #expect(e.selection.head == 0)
        e.move(.up, extending: false, lines: FixedLines())   // first line: to the start
        #expect(e.selection.head == 0)
        e.move(.down, extending: false, lines: FixedLines())
        e.move(.down, extending: false, lines: FixedLines())
        e.move(.down, extending: false, lines: FixedLines())  // last line: to the end
        #expect(e.selection.head == 10)
    }

    @Test func preferredXSurvivesVerticalMovesOnly() {
        var e = editor("abc\ndef", caret: 1)
        e.preferredX = 12
        e.perform(.move(.down, extending: false))
        #expect(e.preferredX == 12)
        e.perform(.move(.left, extending: false))
        #expect(e.preferredX == nil)
    }

    @Test func typingUndoesByWordAndRedoes() {
        var e = editor("")
        type(&e, "hello world")
        #expect(e.canUndo)
        e.undo()
        #expect(e.string == "hello")
        #expect(e.selection == TextSelection(caret: 5))
        e.undo()
        #expect(e.string == "")
        #expect(!e.canUndo)
        e.redo()
        #expect(e.string == "hello")
        e.redo()
        #expect(e.string == "hello world")
        #expect(e.selection == TextSelection(caret: 11))
        #expect(!e.canRedo)
    }

    @Test func movingTheCaretEndsAnUndoGroup() {
        var e = editor("")
        type(&e, "ab")
        e.perform(.move(.left, extending: false))
        type(&e, "X")
        #expect(e.string == "aXb")
        e.undo()
        #expect(e.string == "ab")
        #expect(e.selection == TextSelection(caret: 1))
        e.undo()
        #expect(e.string == "")
    }

    @Test func repeatedBackspacesUndoAsOneAndAnEditClearsRedo() {
        var e = editor("abcdef")
        for _ in 0..<3 { e.perform(.deleteBackward(.character)) }
        _ = e.perform(.deleteForward(.character))   // nothing ahead: no edit
        #expect(e.string == "abc")
        e.undo()
        #expect(e.string == "abcdef")
        #expect(e.selection == TextSelection(caret: 6))
        #expect(e.canRedo)
        type(&e, "g")
        #expect(!e.canRedo)
    }

    @Test func forwardDeletesCoalesceToo() {
        var e = editor("abcdef", caret: 1)
        for _ in 0..<3 { e.perform(.deleteForward(.character)) }
        #expect(e.string == "aef")
        e.undo()
        #expect(e.string == "abcdef")
        #expect(e.selection == TextSelection(caret: 1))
    }

    @Test func replacingASelectionUndoesInOneStep() {
        var e = editor("hello world")
        e.select(range: 6..<11)
        type(&e, "there")
        #expect(e.string == "hello there")
        e.undo()
        #expect(e.string == "hello world")
        #expect(e.selection == TextSelection(anchor: 6, head: 11))
    }

    @Test func undoLimitDropsTheOldest() {
        var e = editor("")
        e.undoLimit = 3
        for i in 0..<5 { e.apply(TextEdit(range: e.selectedRange, replacement: "\(i)", kind: .other)) }
        var undone = 0
        while e.undo() { undone += 1 }
        #expect(undone == 3)
        #expect(e.string == "01")
    }

    @Test func typedTextTakesTheTypingAttributesAndSelectionPicksThemUp() {
        let bold = TextAttributes(fontWeight: .bold)
        var text = AttributedText("plain ")
        text.append("bold", attributes: bold)
        var e = TextEditor(text)
        #expect(e.typingAttributes == bold)        // caret at the end, after "bold"
        type(&e, "!")
        #expect(e.text.attributes(at: 10).fontWeight == .bold)
        e.select(TextSelection(caret: 3))
        #expect(e.typingAttributes.fontWeight == .regular)
        e.typingAttributes.italic = true
        type(&e, "i")
        #expect(e.text.attributes(at: 3).italic)
        #expect(e.text.runs.count == 4)            // pla | i | in | bold!
        e.undo()
        #expect(e.text == { var t = AttributedText("plain "); t.append("bold!", attributes: bold); return t }())
    }

    @Test func cutIsAnEditAndSetTextClearsHistory() {
        var e = editor("abc")
        #expect(e.edit(for: .cut) == nil)
        e.selectAll()
        #expect(e.edit(for: .cut) == TextEdit(range: 0..<3, replacement: "", kind: .other))
        e.setText("xyz")
        #expect(!e.canUndo)
        #expect(e.selection == TextSelection(caret: 3))
    }

    @Test func selectionsAreClamped() {
        var e = editor("abc")
        e.select(TextSelection(anchor: -4, head: 99))
        #expect(e.selection == TextSelection(anchor: 0, head: 3))
        #expect(e.substring(-1..<10) == "abc")
    }

    @Test func keysMapToCommands() {
        func cmd(_ k: Key, _ m: KeyModifiers = [], text: String = "", multiline: Bool = false) -> TextEditingCommand? {
            TextEditor.command(for: KeyInput(key: k, text: text, modifiers: m), multiline: multiline)
        }
        #expect(cmd(.character("a"), text: "a") == .insert("a"))
        #expect(cmd(.character("A"), [.shift], text: "A") == .insert("A"))
        #expect(cmd(.keysym(0xfe51), text: "") == nil)            // dead_acute alone types nothing
        #expect(cmd(.character("é"), text: "é") == .insert("é"))
        #expect(cmd(.character("a"), [.control], text: "\u{1}") == .selectAll)
        #expect(cmd(.character("Z"), [.control, .shift], text: "") == .redo)
        #expect(cmd(.character("z"), [.control]) == .undo)
        #expect(cmd(.character("y"), [.control]) == .redo)
        #expect(cmd(.character("c"), [.control]) == .copy)
        #expect(cmd(.character("x"), [.control]) == .cut)
        #expect(cmd(.character("v"), [.control]) == .paste)
        #expect(cmd(.character("q"), [.control], text: "\u{11}") == nil)
        #expect(cmd(.left, [.shift]) == .move(.left, extending: true))
        #expect(cmd(.right, [.control, .shift]) == .move(.wordRight, extending: true))
        #expect(cmd(.home) == .move(.lineStart, extending: false))
        #expect(cmd(.end, [.control]) == .move(.documentEnd, extending: false))
        #expect(cmd(.up) == .move(.documentStart, extending: false))
        #expect(cmd(.up, multiline: true) == .move(.up, extending: false))
        #expect(cmd(.backspace) == .deleteBackward(.character))
        #expect(cmd(.backspace, [.control]) == .deleteBackward(.word))
        #expect(cmd(.delete) == .deleteForward(.character))
        #expect(cmd(.delete, [.control]) == .deleteForward(.word))
        #expect(cmd(.enter) == .submit)
        #expect(cmd(.enter, multiline: true) == .insert("\n"))
        #expect(cmd(.tab, text: "\t") == nil)
        #expect(cmd(.escape, text: "\u{1b}") == nil)
        #expect(cmd(.space, text: " ") == .insert(" "))
        #expect(cmd(.character("a"), [.alt], text: "a") == nil)
    }
}
