import Foundation
import SilkGeometry
import SilkLayout
import SilkNodes
import SilkRaster

/// `silk demo input`: the smallest scene that shows input arriving — a button that counts its
/// clicks (pointer, touch, Enter/Space) and a focused field that shows what was typed. The
/// end-to-end tests click and type into it under real compositors and compare screenshots;
/// each change is also printed, so a log proves the event came through the seat.
final class InputDemoNode: DisplayNode, @unchecked Sendable {
    let button = ButtonNode()
    let field = TypingFieldNode()
    let hint = TextNode()
    private var clicks = 0

    override init() {
        super.init()
        name = "input-demo"
        backgroundColor = Color(rgb: 0x1f2a22)
        button.setTitle("Click me", attributes: TextAttributes(fontSize: 28, fontWeight: .bold, color: .white))
        button.setBackgroundColor(Color(rgb: 0x2c5fa8))
        button.setBackgroundColor(Color(rgb: 0x1c3f78), for: .highlighted)
        button.style.width = .points(280); button.style.height = .points(72)
        button.style.layoutPosition = Point(x: 40, y: 40)
        field.style.width = .points(600); field.style.height = .points(72)
        field.style.layoutPosition = Point(x: 40, y: 150)
        hint.attributedText = AttributedText("Click the button, type, scroll.",
                                             attributes: TextAttributes(fontSize: 18, color: Color(rgb: 0xb0c4b8)))
        hint.style.layoutPosition = Point(x: 40, y: 260)
        button.addTarget(for: .primaryActionTriggered) { [weak self] _, _ in self?.buttonClicked() }
        for n in [button, field, hint] as [DisplayNode] { addSubnode(n) }
    }

    private func buttonClicked() {
        clicks += 1
        button.setTitle("Clicked \(clicks)", attributes: TextAttributes(fontSize: 28, fontWeight: .bold, color: .white))
        button.setBackgroundColor(Color(rgb: 0x2e8b57))
        print("silk demo: button clicked (\(clicks))")
        fflush(nil)
    }

    override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        AbsoluteLayoutSpec(sizing: .default, children: [button, field, hint])
    }
}

/// A focusable box that appends the text of the keys it receives (Backspace deletes).
final class TypingFieldNode: DisplayNode, @unchecked Sendable {
    private let label = TextNode()
    private var text = ""

    override init() {
        super.init()
        isFocusable = true
        backgroundColor = Color(rgb: 0xf4f1e8)
        cornerRadius = 6
        label.isUserInteractionEnabled = false
        show()
        addSubnode(label)
    }

    private func show() {
        let shown = text.isEmpty ? "Type here" : text
        label.attributedText = AttributedText(shown, attributes: TextAttributes(
            fontSize: 30, color: text.isEmpty ? Color(rgb: 0x9a9a9a) : Color(rgb: 0x202020)))
    }

    override func keyDown(_ key: KeyInput) -> Bool {
        if key.key == .backspace {
            if !text.isEmpty { text.removeLast() }
        } else if !key.text.isEmpty, key.modifiers.intersection([.control, .alt, .super]).isEmpty,
                  key.text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f }) {
            text += key.text
        } else {
            return false
        }
        show()
        print("silk demo: typed \"\(text)\"")
        fflush(nil)
        return true
    }

    override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        InsetLayoutSpec(insets: EdgeInsets(top: 16, left: 20, bottom: 16, right: 20), child: label)
    }
}
