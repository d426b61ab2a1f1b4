import Foundation
import SilkGeometry
import SilkLayout
import SilkRaster
import SilkRunLoop

/// An on-screen keyboard for touch-only kiosks: a letters page (with a one-shot shift, tapped
/// twice: caps lock) and a numbers-and-symbols page, backspace, space and enter. Keys type on
/// release into `target`, through `EditableTextNode.perform(_:)`, so the delegate sees typed
/// keys exactly as it sees physical ones. Keys are buttons that never take focus, and touches
/// on the keyboard keep focus (`touchesKeepFocus`), so the caret stays in the field. Main
/// thread for input; configure anywhere.
public final class KeyboardNode: DisplayNode, @unchecked Sendable {
    /// The key layouts the keyboard switches between.
    public enum Page: Sendable {
        /// QWERTY letters, shift, and `@` beside space.
        case letters
        /// Digits, punctuation and symbols, `_` beside space.
        case symbols
    }

    /// What a key does.
    public enum KeyAction: Hashable, Sendable {
        /// Types the string (upper-cased on the letters page while shifted or caps-locked).
        case character(String)
        /// Shifts the next letter; tapped twice within 0.4 s, locks capitals until tapped again.
        case shift
        /// Deletes the character before the caret, or the selection.
        case backspace
        /// Submits (the delegate's `editableTextNodeShouldReturn`); in a multi-line field that
        /// does not handle it, types a line break.
        case enter
        /// Types a space.
        case space
        /// Switches to the page (and drops shift and caps lock).
        case page(Page)
    }

    /// The field keys type into (set by `KeyboardAvoidingNode` when editing begins). Main thread.
    public weak var target: EditableTextNode?
    /// Called after each key with its action (for logs and tests). Called and set on the main
    /// thread.
    public var keyTyped: ((KeyAction) -> Void)?

    /// The page shown. Main thread.
    public private(set) var page: Page = .letters
    /// Whether the next letter is typed upper-case (one-shot shift). Main thread.
    public private(set) var shifted = false
    /// Whether letters are typed upper-case until shift is tapped again. Main thread.
    public private(set) var capsLock = false
    private var lastShiftTap = -Double.infinity

    static let letterRows = ["qwertyuiop", "asdfghjkl", "zxcvbnm"]
    static let symbolRows = ["1234567890", "-/:;()&@\"", ".,?!'#%+"]

    /// Every key's button with its action, per page (built once).
    private var keys: [Page: [[(action: KeyAction, button: ButtonNode)]]] = [:]

    /// Creates the keyboard on its letters page, its buttons built once for both pages. Give it
    /// a height (its style); keys share each row's width by weight. Any thread.
    public override init() {
        super.init()
        name = "keyboard"
        backgroundColor = Color(rgb: 0xd1d5db)
        automaticallyManagesSubnodes = true
        for p in [Page.letters, .symbols] { keys[p] = makeRows(p) }
        updateTitles()
    }

    private func makeRows(_ p: Page) -> [[(action: KeyAction, button: ButtonNode)]] {
        let rows = p == .letters ? Self.letterRows : Self.symbolRows
        var out: [[KeyAction]] = rows.map { $0.map { .character(String($0)) } }
        out[2] = (p == .letters ? [.shift] : [.page(.letters)]) + out[2] + [.backspace]
        out.append([.page(p == .letters ? .symbols : .letters), .character(p == .letters ? "@" : "_"), .space,
                    .character("."), .enter])
        return out.map { row in row.map { action in (action, makeKey(action)) } }
    }

    private func makeKey(_ action: KeyAction) -> ButtonNode {
        let b = ButtonNode()
        b.isFocusable = false
        b.cornerRadius = 6
        let special: Bool
        switch action { case .character: special = false; default: special = true }
        b.setBackgroundColor(special ? Color(rgb: 0xaab0bb) : .white)
        b.setBackgroundColor(Color(rgb: 0x8a93a3), for: .highlighted)
        b.updateStyle { s in
            s.flexGrow = Self.weight(of: action)
            s.flexShrink = 1
            s.flexBasis = .points(0)
        }
        b.addTarget(for: .primaryActionTriggered) { [weak self] _, _ in self?.tap(action) }
        return b
    }

    static func weight(of action: KeyAction) -> Double {
        switch action {
        case .space: 5
        case .shift, .backspace, .page: 1.5
        case .enter: 2
        case .character: 1
        }
    }

    private func title(of action: KeyAction) -> String {
        switch action {
        case let .character(c): (shifted || capsLock) && page == .letters ? c.uppercased() : c
        case .shift: capsLock ? "⇪" : "⇧"
        case .backspace: "⌫"
        case .enter: "Enter"
        case .space: "space"
        case let .page(p): p == .letters ? "ABC" : "123"
        }
    }

    private func updateTitles() {
        for (_, rows) in keys {
            for row in rows {
                for (action, button) in row {
                    var a = TextAttributes(fontSize: 22, color: Color(rgb: 0x111827))
                    if case .character = action {} else { a.fontSize = 18 }
                    if action == .shift && (shifted || capsLock) { a.color = Color(rgb: 0x1d4ed8) }
                    button.setTitle(title(of: action), attributes: a)
                }
            }
        }
    }

    /// The buttons of the page shown, row by row (for tests and the demo's key map). Main thread.
    public var visibleKeys: [(action: KeyAction, button: ButtonNode)] { (keys[page] ?? []).flatMap { $0 } }

    /// Acts as if the key was tapped. Main thread.
    public func tap(_ action: KeyAction) {
        switch action {
        case let .character(c):
            let text = (shifted || capsLock) && page == .letters ? c.uppercased() : c
            target?.perform(.insert(text))
            if shifted && !capsLock { shifted = false; updateTitles() }
        case .space: target?.perform(.insert(" "))
        case .backspace: target?.perform(.deleteBackward(.character))
        case .enter:
            if let t = target, !t.perform(.submit), t.isMultiline { t.perform(.insert("\n")) }
        case .shift:
            let now = InputClock.now
            if capsLock { capsLock = false; shifted = false }
            else if shifted && now - lastShiftTap < 0.4 { capsLock = true }
            else { shifted.toggle() }
            lastShiftTap = now
            updateTitles()
        case let .page(p):
            page = p
            shifted = false; capsLock = false
            updateTitles()
            setNeedsLayout()
        }
        keyTyped?(action)
    }

    /// Tapping keys leaves the focus (and the caret) in the field.
    public override var touchesKeepFocus: Bool { true }

    /// The shown page's rows stacked 8 pt apart inside an 8 pt inset, keys 6 pt apart and
    /// sized by weight; the second letter row is inset by half a key.
    public override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        let rows = (keys[page] ?? []).enumerated().map { i, row -> any LayoutElement in
            var s = Style()
            s.flexGrow = 1
            s.flexBasis = .points(0)
            // The second letter row is inset by half a key, as on a real keyboard.
            let inset = page == .letters && i == 1 ? constrainedSize.max.width / 20 : 0
            return InsetLayoutSpec(insets: EdgeInsets(top: 0, left: inset, bottom: 0, right: inset), style: s,
                                   child: StackLayoutSpec(direction: .horizontal, spacing: 6, children: row.map(\.button)))
        }
        return InsetLayoutSpec(insets: EdgeInsets(all: 8),
                               child: StackLayoutSpec(direction: .vertical, spacing: 8, children: rows))
    }
}

/// Shows a `KeyboardNode` over the bottom of `contentNode` while an `EditableTextNode` inside it
/// is edited and the keyboard is wanted (`KeyboardPresence`), and scrolls the content so the
/// field sits above the keyboard. The content keeps its full size; it is moved, not relaid out.
public final class KeyboardAvoidingNode: DisplayNode, EditingHost, @unchecked Sendable {
    /// The screen the keyboard avoids: it fills this node and is moved up, not relaid out,
    /// while the keyboard shows.
    public let contentNode: DisplayNode
    /// The keyboard shown over the bottom of `contentNode`; typed keys go to the edited field.
    public let keyboard = KeyboardNode()
    private let viewport = ScrollingViewportNode()
    /// The keyboard's height as a fraction of this node's height (at most `maximumKeyboardHeight`).
    /// Main thread (not locked).
    public var keyboardHeightFraction = 0.42
    /// The keyboard's greatest height in points (default 320). Main thread.
    public var maximumKeyboardHeight = 320.0
    /// Called when the keyboard shows or hides (for logs). Called and set on the main thread.
    public var keyboardVisibilityChanged: ((Bool) -> Void)?
    /// Whether the keyboard is shown now. Main thread.
    public private(set) var isKeyboardShown = false
    /// The keyboard's height in points, once it has been shown. Main thread.
    public private(set) var keyboardHeight = 0.0
    private weak var editing: EditableTextNode?
    private var observer: Int?

    /// Wraps `contentNode` (the form) and follows `KeyboardPresence` to decide whether a
    /// keyboard is wanted. Any thread.
    public init(contentNode: DisplayNode) {
        self.contentNode = contentNode
        super.init()
        viewport.addSubnode(contentNode)
        viewport.clipsToBounds = true
        viewport.layoutSpecBlock = { [contentNode] _, _ in
            InsetLayoutSpec(insets: .zero, child: contentNode)
        }
        keyboard.isHidden = true
        addSubnode(viewport)
        addSubnode(keyboard)
        onPassThread { [weak self] in
            self?.observer = KeyboardPresence.addObserver { [weak self] in self?.update() }
        }
    }

    deinit { if let observer { let o = observer; onPassThread { KeyboardPresence.removeObserver(o) } } }

    /// The content filling the node, with the keyboard overlaid at the bottom.
    public override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        OverlayLayoutSpec(child: viewport,
                          overlay: InsetLayoutSpec(insets: EdgeInsets(top: .infinity, left: 0, bottom: 0, right: 0), child: keyboard))
    }

    /// Points the keyboard at `node` and shows it if wanted, moving the content so `node` is
    /// above it. Main thread.
    public func editingDidBegin(in node: EditableTextNode) {
        editing = node
        keyboard.target = node
        update()
    }

    /// Hides the keyboard a loop turn later, unless another field began editing meanwhile (Tab
    /// from field to field does not flicker). Main thread.
    public func editingDidEnd(in node: EditableTextNode) {
        guard editing === node else { return }
        editing = nil
        keyboard.target = nil
        // Focus moving straight to another field begins editing there right after this; on the
        // loop, decide on the next turn so the keyboard does not hide and show again.
        if EventLoop.main.isOnLoopThread {
            EventLoop.main.addTimer(after: .zero) { [weak self] in self?.update() }
        } else {
            update()
        }
    }

    /// Keeps the edited field above the keyboard at the new size.
    public override func layoutDidFinish() { scrollEditedFieldIntoView() }

    /// Shows or hides the keyboard for the current state. Main thread.
    private func update() {
        let show = editing != nil && KeyboardPresence.wantsOnScreenKeyboard
        if show {
            let h = min(maximumKeyboardHeight, (bounds.height * keyboardHeightFraction).rounded())
            if keyboardHeight != h { keyboardHeight = h; keyboard.updateStyle { $0.height = .points(h) } }
        }
        if show != isKeyboardShown {
            isKeyboardShown = show
            keyboard.isHidden = !show
            keyboard.isUserInteractionEnabled = show
            keyboardVisibilityChanged?(show)
            setNeedsLayout()
        }
        scrollEditedFieldIntoView()
    }

    /// Moves the content up so the edited field's bottom is above the keyboard (or back down).
    private func scrollEditedFieldIntoView() {
        var offset = 0.0
        if isKeyboardShown, let field = editing, field.isDescendant(of: contentNode) {
            let visibleHeight = bounds.height - keyboardHeight
            // The field's frame in the content's coordinates.
            var frame = field.bounds
            var n: DisplayNode? = field
            while let node = n, node !== contentNode {
                frame = frame.offsetBy(dx: node.frame.minX, dy: node.frame.minY)
                n = node.supernode
            }
            let margin = 16.0
            if frame.maxY + margin > visibleHeight {
                offset = min(frame.maxY + margin - visibleHeight, max(0, frame.minY - margin))
            }
        }
        if viewport.boundsOrigin.y != offset { viewport.boundsOrigin = Point(x: 0, y: offset) }
    }
}

/// A clipping node whose subnodes are shifted by its `boundsOrigin` for drawing and for hit
/// testing.
final class ScrollingViewportNode: DisplayNode, @unchecked Sendable {
    override func convertToSubnodeSpace(_ point: Point) -> Point {
        let o = boundsOrigin
        return Point(x: point.x + o.x, y: point.y + o.y)
    }
    override func convertFromSubnodeSpace(_ point: Point) -> Point {
        let o = boundsOrigin
        return Point(x: point.x - o.x, y: point.y - o.y)
    }
}
