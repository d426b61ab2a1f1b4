import Foundation
import Silk
import SilkGeometry
import SilkLayout
import SilkNodes
import SilkRaster
import SilkRender

/// `silk demo form`: a kiosk sign-in form — name, e-mail, a PIN with secure entry (digits only,
/// at most 6) and a submit button — inside a `KeyboardAvoidingNode`, so a touch-only screen gets
/// the on-screen keyboard. Every text change, keyboard change and submission is printed
/// ("form: …"), and the on-screen keys' window positions once shown, so end-to-end tests can
/// type by keyboard or by touch and check both the log and the screen.
final class FormDemoNode: DisplayNode, EditableTextNodeDelegate, @unchecked Sendable {
    let title = TextNode()
    let nameLabel = TextNode(), emailLabel = TextNode(), pinLabel = TextNode()
    let nameField = EditableTextNode(), emailField = EditableTextNode(), pinField = EditableTextNode()
    let submit = ButtonNode()
    let status = TextNode()
    /// Moves keyboard focus (the window's dispatcher), set by the demo. Main thread.
    var focus: ((DisplayNode?) -> Void)?
    static let cardWidth = 520.0

    override init() {
        super.init()
        name = "form"
        backgroundColor = Color(rgb: 0x1e293b)
        let labelAttributes = TextAttributes(fontSize: 18, color: Color(rgb: 0xcbd5e1))
        title.attributedText = AttributedText("Sign in", attributes: TextAttributes(fontSize: 34, fontWeight: .bold, color: .white))
        for (label, text) in [(nameLabel, "Name"), (emailLabel, "E-mail"), (pinLabel, "PIN (digits)")] {
            label.attributedText = AttributedText(text, attributes: labelAttributes)
        }
        let placeholder = TextAttributes(fontSize: 24, color: Color(rgb: 0x94a3b8))
        for (field, name, hint) in [(nameField, "name", "Ada Lovelace"), (emailField, "email", "ada@example.org"), (pinField, "pin", "••••")] {
            field.name = name
            field.typingAttributes = TextAttributes(fontSize: 24, color: Color(rgb: 0x0f172a))
            field.attributedPlaceholderText = AttributedText(hint, attributes: placeholder)
            field.backgroundColor = .white
            field.cornerRadius = 6
            field.textContainerInset = EdgeInsets(top: 10, left: 12, bottom: 10, right: 12)
            field.delegate = self
        }
        pinField.isSecureTextEntry = true
        // What input methods (text-input-v3) are told about each field.
        emailField.contentType = TextContentType(purpose: .email, hints: [.latin])
        pinField.contentType = TextContentType(purpose: .pin, hints: [.hiddenText, .sensitiveData])
        submit.setTitle("Sign in", attributes: TextAttributes(fontSize: 24, fontWeight: .bold, color: .white))
        submit.setBackgroundColor(Color(rgb: 0x2563eb))
        submit.setBackgroundColor(Color(rgb: 0x1e40af), for: .highlighted)
        submit.cornerRadius = 6
        submit.style.height = .points(56)
        submit.addTarget(for: .primaryActionTriggered) { [weak self] _, _ in self?.submitted() }
        status.attributedText = AttributedText(" ", attributes: labelAttributes)
        for n in [title, nameLabel, nameField, emailLabel, emailField, pinLabel, pinField, submit, status] as [DisplayNode] {
            addSubnode(n)
        }
    }

    var fields: [EditableTextNode] { [nameField, emailField, pinField] }

    override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        let width = constrainedSize.max.width.isFinite ? constrainedSize.max.width : 1280
        let side = max(16, (width - Self.cardWidth) / 2)
        func group(_ label: TextNode, _ field: EditableTextNode) -> any LayoutElement {
            StackLayoutSpec(direction: .vertical, spacing: 6, children: [label, field])
        }
        let column = StackLayoutSpec(direction: .vertical, spacing: 18, children: [
            title, group(nameLabel, nameField), group(emailLabel, emailField), group(pinLabel, pinField), submit, status,
        ])
        return InsetLayoutSpec(insets: EdgeInsets(top: 32, left: side, bottom: .infinity, right: side), child: column)
    }

    /// Fills the fields from code (the headless reference for end-to-end screenshots).
    func fill(_ values: [String]) {
        for (field, value) in zip(fields, values) {
            field.attributedText = AttributedText(value, attributes: field.typingAttributes)
        }
    }

    private func submitted() {
        let name = nameField.text
        print("form: submitted name=\"\(name)\" email=\"\(emailField.text)\" pin=\(pinField.text.count) digits")
        fflush(nil)
        status.attributedText = AttributedText(name.isEmpty ? "Please enter your name" : "Signed in as \(name)",
                                               attributes: TextAttributes(fontSize: 20, color: Color(rgb: 0x86efac)))
        focus?(nil)
    }

    // MARK: EditableTextNodeDelegate

    func editableTextNode(_ node: EditableTextNode, shouldChangeTextIn range: Range<Int>, replacementText text: String) -> Bool {
        guard node === pinField else { return true }
        // Digits only, six at most.
        return text.allSatisfy(\.isASCIIDigit) && node.text.count - range.count + text.count <= 6
    }

    func editableTextNodeDidUpdateText(_ node: EditableTextNode) {
        if node === pinField { print("form: pin \(node.text.count) digits") }
        else { print("form: \(node.debugName) \"\(node.text)\"") }
        fflush(nil)
    }

    func editableTextNodeDidBeginEditing(_ node: EditableTextNode) {
        print("form: editing \(node.debugName)")
        fflush(nil)
    }

    /// Enter moves to the next field; on the PIN it submits.
    func editableTextNodeShouldReturn(_ node: EditableTextNode) -> Bool {
        if node === nameField { focus?(emailField) }
        else if node === emailField { focus?(pinField) }
        else { submitted() }
        return true
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

/// Builds the form for `silk demo form` in `window`: the scene, focus, fill and the key map log.
@MainActor
func startFormDemo(window: Window, fill: String?, focus: String, keyboardLayouts: [String]? = nil) -> (Double) -> Void {
    let form = FormDemoNode()
    let host = KeyboardAvoidingNode(contentNode: form)
    if let keyboardLayouts {
        // Localized keyboards (xkb) after the user's XKB_DEFAULT_LAYOUT, and the PIN pad for the PIN.
        host.keyboard.setLayouts(keyboardLayouts)
        form.pinField.keyboardType = .pin
        print("form: keyboard layouts \(host.keyboard.layouts.map(\.name).joined(separator: ","))")
        host.keyboard.keyTyped = { action in
            if action == .nextLayout { print("form: keyboard layout \(host.keyboard.currentLayout?.name ?? "us")"); fflush(nil) }
        }
    }
    host.name = "form-host"
    window.setRootNode(host)
    let dispatcher = window.inputDispatcher
    form.focus = { dispatcher?.focus($0, showsRing: true) }
    host.keyboardVisibilityChanged = { print("form: keyboard \($0 ? "shown" : "hidden")"); fflush(nil) }
    print("form: on-screen keyboard policy \(KeyboardPresence.policy.rawValue)")
    if let fill { form.fill(fill.split(separator: "|", omittingEmptySubsequences: false).map(String.init)) }
    let target: DisplayNode? = switch focus {
    case "email": form.emailField
    case "pin": form.pinField
    case "submit": form.submit
    case "none": nil
    default: form.nameField
    }
    dispatcher?.focus(target, showsRing: true)
    var printedPage: KeyboardNode.Page?
    var printedLayout = 0
    return { _ in
        // Once the keyboard is laid out, print where its keys are (window points) for touch tests.
        guard host.isKeyboardShown, printedPage != host.keyboard.page || printedLayout != host.keyboard.layoutIndex else { return }
        let keys = host.keyboard.visibleKeys
        guard let last = keys.last, !last.button.bounds.isEmpty else { return }
        printedPage = host.keyboard.page
        printedLayout = host.keyboard.layoutIndex
        let map = keys.map { key -> String in
            let b = key.button.bounds
            let c = key.button.convert(Point(x: b.midX, y: b.midY), to: nil)
            let label: String = switch key.action {
            case let .character(s): s
            case .shift: "shift"
            case .backspace: "backspace"
            case .enter: "enter"
            case .space: "space"
            case let .page(p): "\(p)"
            case let .deadKey(k): "dead-\(String(k, radix: 16))"
            case .nextLayout: "layout"
            }
            return "\(label)=\(Int(c.x.rounded())),\(Int(c.y.rounded()))"
        }
        print("form: keys \(map.joined(separator: " "))")
        fflush(nil)
    }
}
