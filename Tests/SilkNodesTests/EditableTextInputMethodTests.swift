import Foundation
import Testing
import SilkGeometry
import SilkInput
import SilkLayout
import SilkRaster
import SilkRender
@testable import SilkNodes

extension PipelineTests {

/// An input method's pre-edit, commit and deletions on a real `EditableTextNode` (headless, in a
/// node pass): what the Wayland presenter's text-input-v3 delivers through the window.
@Suite(.serialized) struct EditableTextInputMethodTests {
    static let size = Size(width: 320, height: 80)

    private func scene() -> (EditableTextNode, Harness, InputDispatcher) {
        let field = EditableTextNode()
        field.typingAttributes = TextAttributes(fontSize: 20, color: .black)
        field.style.width = .points(300)
        field.style.height = .points(40)
        field.contentNode.displaysAsynchronously = false
        let root = DisplayNode()
        root.addSubnode(field)
        root.layoutSpecBlock = { _, _ in
            InsetLayoutSpec(insets: EdgeInsets(top: 10, left: 10, bottom: .infinity, right: .infinity), child: field)
        }
        let h = Harness(root: root, size: Self.size)
        h.iterate()
        return (field, h, InputDispatcher(rootNode: root))
    }

    @Test func thePreeditShowsUnderlinedAtTheCaretThenTheCommitEntersTheText() {
        let (f, h, d) = scene()
        let log = EditingLog()
        f.delegate = log
        f.attributedText = AttributedText("ab", attributes: f.typingAttributes)
        d.focus(f)
        f.selectedRange = 1..<1
        h.iterate()
        let caretBefore = f.caretNode.frame

        f.applyInputMethod(TextInputUpdate(preedit: TextPreedit(text: "日本語", cursorBegin: 6, cursorEnd: 6)))
        h.iterate()
        #expect(f.text == "ab")
        #expect(f.preedit?.text == "日本語")
        // Drawn: a日本語b, the pre-edit underlined, the rest not.
        let shown = f.textLayout.text
        #expect(shown.string == "a日本語b")
        #expect(shown.attributes(at: 1).underline == .single && shown.attributes(at: 3).underline == .single)
        #expect(shown.attributes(at: 0).underline == .none && shown.attributes(at: 4).underline == .none)
        // The caret sits at the pre-edit's cursor (after 本, two characters in).
        #expect(!f.caretNode.isHidden)
        #expect(f.caretNode.frame.minX > caretBefore.minX + 20)
        // The input method is told the text without the pre-edit, and where the cursor is.
        let state = f.textInputState
        #expect(state?.surroundingText == "ab" && state?.cursor == 1)
        #expect(state.map { $0.cursorRectangle.minX > caretBefore.minX + 20 } == true)
        #expect(log.entries.filter { $0.hasPrefix("text") }.isEmpty)

        f.applyInputMethod(TextInputUpdate(commit: "日本語"))
        h.iterate()
        #expect(f.text == "a日本語b" && f.preedit == nil)
        #expect(f.selection == TextSelection(caret: 4))
        #expect(f.textLayout.text.attributes(at: 1).underline == .none)
        #expect(log.entries.contains("should 1..<1 \"日本語\""))
        #expect(log.entries.contains("text \"a日本語b\""))
    }

    @Test func anEmptyFieldShowsThePreeditInsteadOfItsPlaceholder() {
        let (f, h, d) = scene()
        f.attributedPlaceholderText = AttributedText("Name", attributes: TextAttributes(fontSize: 20, color: Color(white: 0.6)))
        d.focus(f)
        h.iterate()
        func blackPixels() -> Int {
            guard let bitmap = f.contentNode.layer?.contents else { return 0 }
            var n = 0
            for y in 0..<bitmap.height { for x in 0..<bitmap.width {
                let p = bitmap.argb32(x: x, y: y)
                if (p >> 24) > 0xc0 && (p & 0xff) < 0x30 { n += 1 }
            } }
            return n
        }
        #expect(blackPixels() == 0)
        f.setPreedit(TextPreedit(text: "日本語", cursorBegin: 9, cursorEnd: 9))
        h.iterate()
        #expect(blackPixels() > 40)
        #expect(f.text.isEmpty)
    }

    @Test func deletionsAskTheDelegateAndBlurDropsThePreedit() {
        let (f, h, d) = scene()
        let log = EditingLog()
        f.delegate = log
        f.attributedText = AttributedText("한국어", attributes: f.typingAttributes)
        d.focus(f)
        // Delete 어 (3 bytes) before the caret, commit 요.
        f.applyInputMethod(TextInputUpdate(commit: "요", deleteBefore: 3))
        #expect(f.text == "한국요")
        #expect(log.entries.contains("should 2..<3 \"\""))
        // A refusing delegate stops both.
        log.refuse = { _, _ in true }
        f.applyInputMethod(TextInputUpdate(commit: "x", deleteBefore: 100))
        #expect(f.text == "한국요")
        log.refuse = nil
        f.setPreedit(TextPreedit(text: "ㄱ", cursorBegin: nil, cursorEnd: nil))
        h.iterate()
        // A hidden pre-edit cursor hides the caret.
        #expect(f.caretNode.isHidden)
        d.focus(nil)
        #expect(f.preedit == nil && f.text == "한국요")
        #expect(f.textInputState == nil)
    }

    @Test func theContentTypeFollowsTheFieldUnlessSet() {
        let (f, _, _) = scene()
        #expect(f.contentType == TextContentType())
        f.isSecureTextEntry = true
        #expect(f.contentType == TextContentType(purpose: .password, hints: [.hiddenText, .sensitiveData]))
        f.isSecureTextEntry = false
        f.isMultiline = true
        #expect(f.contentType.hints == [.multiline])
        f.contentType = TextContentType(purpose: .email, hints: [.latin])
        #expect(f.contentType.purpose == .email && f.contentType.hints == [.latin])
    }

    @Test func theKeyboardTypeAndTheContentTypeDescribeTheSameField() {
        let (a, _, _) = scene()
        #expect(a.keyboardType == .text)
        a.contentType = TextContentType(purpose: .pin, hints: [.hiddenText])
        #expect(a.keyboardType == .pin)
        a.contentType = TextContentType(purpose: .phone)
        #expect(a.keyboardType == .number)
        a.keyboardType = .text                       // set from code: wins
        #expect(a.keyboardType == .text && a.contentType.purpose == .phone)

        let (b, _, _) = scene()
        b.keyboardType = .pin
        b.isSecureTextEntry = true
        #expect(b.contentType == TextContentType(purpose: .pin, hints: [.hiddenText, .sensitiveData]))
        b.keyboardType = .number
        b.isSecureTextEntry = false
        #expect(b.contentType == TextContentType(purpose: .number))
    }
}
}
