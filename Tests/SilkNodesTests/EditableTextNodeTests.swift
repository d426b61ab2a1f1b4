import Foundation
import Testing
import SilkGeometry
import SilkLayout
import SilkRaster
import SilkRender
@testable import SilkNodes

/// Records delegate calls by name.
final class EditingLog: EditableTextNodeDelegate, @unchecked Sendable {
    var entries: [String] = []
    var refuse: ((Range<Int>, String) -> Bool)?
    var returns = false
    func editableTextNodeDidBeginEditing(_ node: EditableTextNode) { entries.append("begin \(node.debugName)") }
    func editableTextNode(_ node: EditableTextNode, shouldChangeTextIn range: Range<Int>, replacementText text: String) -> Bool {
        entries.append("should \(range.lowerBound)..<\(range.upperBound) \"\(text)\"")
        return !(refuse?(range, text) ?? false)
    }
    func editableTextNodeDidChangeSelection(_ node: EditableTextNode) { entries.append("selection \(node.selection)") }
    func editableTextNodeDidUpdateText(_ node: EditableTextNode) { entries.append("text \"\(node.text)\"") }
    func editableTextNodeDidFinishEditing(_ node: EditableTextNode) { entries.append("finish \(node.debugName)") }
    func editableTextNodeShouldReturn(_ node: EditableTextNode) -> Bool { entries.append("return"); return returns }
}

extension PipelineTests {

/// EditableTextNode in a real node pass (the shared scheduler: serialized with the pipeline).
@Suite(.serialized) struct EditableTextNodeTests {
    static let size = Size(width: 300, height: 200)
    let attrs = TextAttributes(fontSize: 20, color: .black)

    /// Two fields, 200×40 at (10, 10) and (10, 60), and a multi-line one at (10, 110).
    private func form() -> (root: DisplayNode, fields: [EditableTextNode], h: Harness, d: InputDispatcher) {
        let fields = (0..<3).map { i -> EditableTextNode in
            let f = EditableTextNode()
            f.name = ["first", "second", "notes"][i]
            f.typingAttributes = attrs
            f.style.width = .points(200)
            if i < 2 { f.style.height = .points(40) }
            f.contentNode.displaysAsynchronously = false
            return f
        }
        fields[2].isMultiline = true
        fields[2].maximumLinesShown = 2
        let root = DisplayNode()
        for f in fields { root.addSubnode(f) }
        root.layoutSpecBlock = { _, _ in
            InsetLayoutSpec(insets: EdgeInsets(top: 10, left: 10, bottom: .infinity, right: .infinity),
                            child: StackLayoutSpec(direction: .vertical, spacing: 10, alignItems: .start, children: fields))
        }
        let h = Harness(root: root, size: Self.size)
        h.iterate()
        return (root, fields, h, InputDispatcher(rootNode: root))
    }

    private func type(_ d: InputDispatcher, _ s: String, at t: inout Double) {
        for c in s {
            d.handle(InputEvent(.keyDown(c == " " ? .space : .character(c), text: String(c)), timestamp: t))
            t += 0.05
        }
    }

    private func press(_ d: InputDispatcher, _ key: Key, _ m: KeyModifiers = [], at t: inout Double) {
        d.handle(InputEvent(.keyDown(key), timestamp: t, modifiers: m))
        d.handle(InputEvent(.keyUp(key), timestamp: t + 0.01, modifiers: m))
        t += 0.05
    }

    @Test func tabFocusesFieldsTypingEditsAndTheDelegateHearsIt() {
        let (_, fields, h, d) = form()
        let log = EditingLog()
        fields[0].delegate = log
        var t = 1.0
        press(d, .tab, at: &t)
        #expect(d.focusedNode === fields[0])
        #expect(fields[0].isEditing && fields[0].showsFocusRing)
        #expect(!fields[0].caretNode.isHidden)
        type(d, "héllo", at: &t)
        #expect(fields[0].text == "héllo")
        press(d, .tab, at: &t)
        #expect(d.focusedNode === fields[1])
        #expect(!fields[0].isEditing && fields[0].caretNode.isHidden)
        #expect(fields[1].isEditing)
        press(d, .tab, [.shift], at: &t)
        #expect(d.focusedNode === fields[0])
        #expect(log.entries.first == "begin first")
        #expect(log.entries.contains("should 1..<1 \"é\""))
        #expect(log.entries.contains("text \"héllo\""))
        #expect(log.entries.contains("selection caret 5"))
        #expect(log.entries.filter { $0 == "finish first" }.count == 1)
        #expect(log.entries.last == "begin first")
        h.iterate()
        // The caret sits after the text, inside the field.
        let caret = fields[0].caretNode.frame
        #expect(caret.minX > fields[0].textContainerInset.left + 30)
        #expect(caret.maxX <= fields[0].bounds.width)
        #expect(caret.width == EditableTextNode.caretWidth)
    }

    @Test func editingKeysSelectionAndUndo() {
        let (_, fields, _, d) = form()
        let f = fields[0]
        var t = 1.0
        d.focus(f)
        type(d, "hello big world", at: &t)
        press(d, .left, [.control], at: &t)
        press(d, .left, [.control, .shift], at: &t)
        #expect(f.selectedRange == 6..<10)
        press(d, .backspace, at: &t)
        #expect(f.text == "hello world")
        press(d, .home, at: &t)
        press(d, .right, [.shift], at: &t)
        press(d, .right, [.shift], at: &t)
        #expect(f.selectedRange == 0..<2)
        press(d, .delete, at: &t)
        #expect(f.text == "llo world")
        press(d, .character("z"), [.control], at: &t)
        #expect(f.text == "hello world")
        press(d, .character("z"), [.control], at: &t)
        #expect(f.text == "hello big world")
        press(d, .character("y"), [.control], at: &t)
        #expect(f.text == "hello world")
        press(d, .character("a"), [.control], at: &t)
        #expect(f.selectedRange == 0..<11)
        #expect(f.caretNode.isHidden)   // a selection shows highlights, not the caret
        press(d, .end, at: &t)
        press(d, .backspace, [.control], at: &t)
        #expect(f.text == "hello ")
        // Enter in a single-line field goes to the delegate and, unhandled, up the tree.
        let log = EditingLog()
        f.delegate = log
        press(d, .enter, at: &t)
        #expect(log.entries == ["return"])
    }

    @Test func touchesPlaceTheCaretAndSelect() {
        let (_, fields, _, d) = form()
        let f = fields[0]
        f.attributedText = AttributedText("alpha beta gamma", attributes: attrs)
        let origin = f.frame.origin
        func at(_ i: Int) -> Point {
            let r = f.caretRect(forCharacter: i)
            return Point(x: origin.x + f.textContainerInset.left - f.scrollOffset.x + r.minX + 1, y: origin.y + f.bounds.height / 2)
        }
        // A tap focuses (without a ring) and puts the caret at the nearest boundary.
        d.down(at(7).x, at(7).y, at: 1)
        d.up(at: 1.05)
        #expect(d.focusedNode === f && !f.showsFocusRing)
        #expect(f.selectedRange == 7..<7)
        // A second tap soon after selects the word.
        d.down(at(7).x, at(7).y, at: 1.2)
        d.up(at: 1.25)
        #expect(f.selectedRange == 6..<10)
        // A drag selects from where it began.
        d.down(at(1).x, at(1).y, at: 3)
        d.move(at(4).x, at(4).y, at: 3.1)
        d.move(at(13).x, at(13).y, at: 3.2)
        d.up(at: 3.3)
        #expect(f.selectedRange == 1..<13)
        // Shift+click extends.
        d.handle(InputEvent(.pointerDown(.left, at(15)), timestamp: 5, modifiers: .shift))
        d.handle(InputEvent(.pointerUp(.left, at(15)), timestamp: 5.05, modifiers: .shift))
        #expect(f.selection == TextSelection(anchor: 1, head: 15))
        // Three quick taps select everything.
        for k in 0..<3 {
            d.down(at(3).x, at(3).y, at: 7 + Double(k) * 0.1)
            d.up(at: 7.05 + Double(k) * 0.1)
        }
        #expect(f.selectedRange == 0..<16)
    }

    @Test func secureEntryShowsBulletsAndKeepsTheTextToItself() {
        let (_, fields, h, d) = form()
        let f = fields[1]
        f.isSecureTextEntry = true
        let clipboard = InAppClipboard()
        f.clipboard = clipboard   // not Clipboard.current: another suite's presenter may replace that
        var t = 1.0
        d.focus(f)
        type(d, "1234", at: &t)
        #expect(f.text == "1234")
        h.iterate()
        #expect(f.textLayout.text.string == "••••")
        press(d, .character("a"), [.control], at: &t)
        press(d, .character("c"), [.control], at: &t)
        press(d, .character("x"), [.control], at: &t)
        #expect(clipboard.text == nil)
        #expect(f.text == "1234")
        press(d, .left, [.control], at: &t)   // no words in secure text: to the start
        #expect(f.selectedRange == 0..<0)
    }

    @Test func theDelegateCanRefuseChanges() {
        let (_, fields, _, d) = form()
        let f = fields[1]
        let log = EditingLog()
        log.refuse = { _, text in !text.allSatisfy(\.isNumber) }
        f.delegate = log
        var t = 1.0
        d.focus(f)
        type(d, "1a2b3", at: &t)
        #expect(f.text == "123")
        #expect(log.entries.filter { $0.hasPrefix("text") } == ["text \"1\"", "text \"12\"", "text \"123\""])
    }

    @Test func copyAndPasteThroughTheInAppClipboard() {
        let (_, fields, _, d) = form()
        // A clipboard of their own: a Wayland presenter started by a suite running in parallel
        // replaces Clipboard.current, which once made the last paste read the compositor's.
        let shared = InAppClipboard()
        for f in fields { f.clipboard = shared }
        var t = 1.0
        d.focus(fields[0])
        type(d, "copy me", at: &t)
        press(d, .left, [.control, .shift], at: &t)
        press(d, .character("c"), [.control], at: &t)
        d.focus(fields[1])
        press(d, .character("v"), [.control], at: &t)
        press(d, .character("v"), [.control], at: &t)
        #expect(fields[1].text == "meme")
        press(d, .character("z"), [.control], at: &t)
        #expect(fields[1].text == "me")
        d.focus(fields[0])
        press(d, .character("a"), [.control], at: &t)
        press(d, .character("x"), [.control], at: &t)
        #expect(fields[0].text == "")
        d.focus(fields[1])
        press(d, .character("v"), [.control], at: &t)
        #expect(fields[1].text == "mecopy me")
    }

    @Test func aLongLineScrollsToKeepTheCaretVisible() {
        let (_, fields, _, d) = form()
        let f = fields[0]
        var t = 1.0
        d.focus(f)
        type(d, "a rather long line that cannot fit in two hundred points", at: &t)
        #expect(f.scrollOffset.x > 0)
        #expect(f.caretNode.frame.maxX <= f.bounds.width - f.textContainerInset.right + 0.01)
        #expect(f.caretNode.frame.minX > f.bounds.width / 2)
        #expect(f.contentNode.frame.minX < 0)
        press(d, .home, at: &t)
        #expect(f.scrollOffset.x == 0)
        #expect(f.caretNode.frame.minX == f.textContainerInset.left)
    }

    @Test func multiLineGrowsToItsLimitThenScrolls() {
        let (_, fields, h, d) = form()
        let f = fields[2]
        let oneLine = f.frame.height
        var t = 1.0
        d.focus(f)
        type(d, "one", at: &t)
        press(d, .enter, at: &t)
        #expect(f.text == "one\n")
        type(d, "two", at: &t)
        h.iterate()
        let twoLines = f.frame.height
        #expect(twoLines > oneLine + 15)
        press(d, .enter, at: &t)
        type(d, "three", at: &t)
        h.iterate()
        #expect(f.frame.height == twoLines)   // at most two lines shown
        #expect(f.scrollOffset.y > 0)
        // Up goes back a line, keeping the column; the view scrolls to it.
        press(d, .up, at: &t)
        press(d, .up, at: &t)
        #expect(f.selectedRange.lowerBound <= 3)
        #expect(f.scrollOffset.y == 0)
    }

    @Test func theTextAndPlaceholderAreDrawnAndTheCaretIsItsOwnLayer() throws {
        let (_, fields, h, d) = form()
        let f = fields[0]
        f.attributedPlaceholderText = AttributedText("Name", attributes: TextAttributes(fontSize: 20, color: Color(white: 0.6)))
        h.iterate()
        func darkPixels(_ color: (UInt32) -> Bool) -> Int {
            guard let bitmap = f.contentNode.layer?.contents else { return 0 }
            var n = 0
            for y in 0..<bitmap.height { for x in 0..<bitmap.width where color(bitmap.argb32(x: x, y: y)) { n += 1 } }
            return n
        }
        let grey: (UInt32) -> Bool = { p in (p >> 24) > 0x80 && (p & 0xff) > 0x70 && (p & 0xff) < 0xc0 }
        let black: (UInt32) -> Bool = { p in (p >> 24) > 0xc0 && (p & 0xff) < 0x30 }
        #expect(darkPixels(grey) > 20)
        #expect(darkPixels(black) == 0)
        var t = 1.0
        d.focus(f)
        type(d, "Ada", at: &t)
        h.iterate()
        #expect(darkPixels(black) > 20)
        let drawn = f.contentNode.layer?.contents
        // Moving the caret does not redraw the text; the caret node moves.
        let caretBefore = f.caretNode.frame
        press(d, .left, at: &t)
        h.iterate()
        #expect(f.caretNode.frame.minX < caretBefore.minX)
        #expect(f.contentNode.layer?.contents === drawn)
        #expect(f.caretNode.layer?.backgroundColor == f.caretColor)
    }
}
}

extension PipelineTests {
/// The on-screen keyboard over a form: shown by policy while a field is edited, typing by taps.
@Suite(.serialized) struct OnScreenKeyboardTests {
    static let size = Size(width: 400, height: 300)

    private func scene() -> (KeyboardAvoidingNode, EditableTextNode, Harness, InputDispatcher) {
        let content = DisplayNode()
        let field = EditableTextNode()
        field.typingAttributes = TextAttributes(fontSize: 18)
        field.contentNode.displaysAsynchronously = false
        content.addSubnode(field)
        content.layoutSpecBlock = { _, _ in
            // Low on the screen: the keyboard would cover it.
            InsetLayoutSpec(insets: EdgeInsets(top: 240, left: 20, bottom: .infinity, right: 20), child: field)
        }
        let host = KeyboardAvoidingNode(contentNode: content)
        let h = Harness(root: host, size: Self.size)
        h.iterate()
        return (host, field, h, InputDispatcher(rootNode: host))
    }

    private func tapKey(_ host: KeyboardAvoidingNode, _ d: InputDispatcher, _ action: KeyboardNode.KeyAction, at t: inout Double) {
        guard let key = host.keyboard.visibleKeys.first(where: { $0.action == action })?.button else {
            Issue.record("no key \(action)"); return
        }
        let c = key.convert(Point(x: key.bounds.midX, y: key.bounds.midY), to: nil)
        d.down(c.x, c.y, at: t)
        d.up(at: t + 0.05)
        t += 1
    }

    @Test func tappingKeysTypesIntoTheFocusedField() {
        let saved = KeyboardPresence.policy
        KeyboardPresence.policy = .always
        defer { KeyboardPresence.policy = saved }
        let (host, field, h, d) = scene()
        #expect(!host.isKeyboardShown)
        d.focus(field)
        h.iterate()
        #expect(host.isKeyboardShown && !host.keyboard.isHidden)
        #expect(host.keyboardHeight > 100)
        // The field was moved up above the keyboard.
        let fieldInWindow = field.convert(Point(x: 0, y: field.bounds.maxY), to: nil)
        #expect(fieldInWindow.y <= Self.size.height - host.keyboardHeight)
        var t = 1.0
        tapKey(host, d, .character("h"), at: &t)
        tapKey(host, d, .character("i"), at: &t)
        tapKey(host, d, .shift, at: &t)
        tapKey(host, d, .character("a"), at: &t)
        tapKey(host, d, .character("a"), at: &t)   // shift was one-shot
        tapKey(host, d, .space, at: &t)
        tapKey(host, d, .page(.symbols), at: &t)
        h.iterate()
        tapKey(host, d, .character("4"), at: &t)
        tapKey(host, d, .backspace, at: &t)
        tapKey(host, d, .character("2"), at: &t)
        #expect(field.text == "hiAa 2")
        #expect(d.focusedNode === field)   // keys never take focus
        d.focus(nil)
        h.iterate()
        #expect(!host.isKeyboardShown && host.keyboard.isHidden)
    }

    @Test func noKeyboardWhenThePolicySaysNever() {
        let saved = KeyboardPresence.policy
        KeyboardPresence.policy = .never
        defer { KeyboardPresence.policy = saved }
        let (host, field, h, d) = scene()
        d.focus(field)
        h.iterate()
        #expect(!host.isKeyboardShown)
        KeyboardPresence.policy = .auto
        #expect(KeyboardPresence.wantsOnScreenKeyboard == !KeyboardPresence.hasPhysicalKeyboard)
    }
}
}
