import Foundation
import SilkGeometry
import SilkLayout
import SilkRaster
import SilkRunLoop
import SilkSystem

/// What an `EditableTextNode` tells its owner, and asks it (main thread). Ranges count
/// characters (grapheme clusters) of the text before the change. Every method has a default.
public protocol EditableTextNodeDelegate: AnyObject {
    /// The node took keyboard focus: editing began (the caret shows).
    func editableTextNodeDidBeginEditing(_ node: EditableTextNode)
    /// Typing, deleting, cutting or pasting wants to replace `range` with `text`: return false
    /// to refuse (a PIN field that takes digits only, a length limit).
    func editableTextNode(_ node: EditableTextNode, shouldChangeTextIn range: Range<Int>, replacementText text: String) -> Bool
    /// The caret moved or the selection changed (keys, touches, edits; not `selectedRange =` from
    /// code).
    func editableTextNodeDidChangeSelection(_ node: EditableTextNode)
    /// The text changed (typing, deleting, undo, paste; not `attributedText =` from code).
    func editableTextNodeDidUpdateText(_ node: EditableTextNode)
    /// Focus left the node: editing finished.
    func editableTextNodeDidFinishEditing(_ node: EditableTextNode)
    /// Enter in a single-line node. Return true when handled (move to the next field, submit);
    /// false lets the key go on to the supernodes.
    func editableTextNodeShouldReturn(_ node: EditableTextNode) -> Bool
}

extension EditableTextNodeDelegate {
    /// Does nothing.
    public func editableTextNodeDidBeginEditing(_ node: EditableTextNode) {}
    /// Allows every change.
    public func editableTextNode(_ node: EditableTextNode, shouldChangeTextIn range: Range<Int>, replacementText text: String) -> Bool { true }
    /// Does nothing.
    public func editableTextNodeDidChangeSelection(_ node: EditableTextNode) {}
    /// Does nothing.
    public func editableTextNodeDidUpdateText(_ node: EditableTextNode) {}
    /// Does nothing.
    public func editableTextNodeDidFinishEditing(_ node: EditableTextNode) {}
    /// Returns false: Enter goes on to the supernodes.
    public func editableTextNodeShouldReturn(_ node: EditableTextNode) -> Bool { false }
}

/// An ancestor that shows an on-screen keyboard for editable nodes (`KeyboardAvoidingNode`).
/// Main thread.
public protocol EditingHost: AnyObject {
    /// An editable node inside the host took focus and began editing: show the keyboard and keep
    /// `node` above it.
    func editingDidBegin(in node: EditableTextNode)
    /// The editable node lost focus. Another may begin editing right after (Tab), so hide the
    /// keyboard late, not at once.
    func editingDidEnd(in node: EditableTextNode)
}

/// Editable attributed text (Texture's ASEditableTextNode): a caret that blinks, selection by
/// pointer, touch and Shift+arrows, the editing keys of `TextEditor.command(for:multiline:)`,
/// undo/redo, copy and paste through `Clipboard.current`, a placeholder, secure entry.
///
/// **Drawing.** The text is drawn by a content subnode on the display queues, like `TextNode`;
/// the caret and the selection highlights are plain coloured subnodes, so blinking and selecting
/// never re-rasterize text. The content node moves inside this node (which clips) to scroll the
/// caret into view: one line wide and scrolling sideways when single-line, wrapping and
/// scrolling up and down beyond `maximumLinesShown` lines when `isMultiline`.
///
/// **Threads.** Configure from any thread (locked state). Input, focus, layout of the caret and
/// delegate calls happen on the main thread. The edited text is laid out on the main thread
/// when it changes (a field's worth of text; the layout is handed to the display job, which does
/// not shape it again).
open class EditableTextNode: DisplayNode, @unchecked Sendable {
    // MARK: Locked state
    private var _editor = TextEditor()
    private var _placeholder: AttributedText?
    private var _inset = EdgeInsets(top: 8, left: 10, bottom: 8, right: 10)
    private var _maximumLinesShown = 0
    private var _isMultiline = false
    private var _isSecure = false
    private var _isEditable = true
    private var _caretColor = Color(red: 0.10, green: 0.45, blue: 0.95)
    private var _selectionColor = Color(red: 0.25, green: 0.55, blue: 1.0, alpha: 0.3)
    private weak var _delegate: (any EditableTextNodeDelegate)?
    /// Set from code; nil: derived from `isSecureTextEntry` and `isMultiline` (`contentType`).
    private var _contentType: TextContentType?
    private var _clipboard: (any ClipboardProvider)?
    /// Bumped on every text change: keys the main thread's layout cache.
    private var _textVersion: UInt64 = 0

    // MARK: Main-thread state
    /// Draws the text (or the placeholder); moved to scroll. Main thread, like the caret.
    public let contentNode = EditableTextContentNode()
    /// The caret: a `caretWidth`-wide subnode coloured `caretColor`, shown while editing with an
    /// empty selection and blinking every `caretBlinkInterval`. A layer of its own, so blinking
    /// redraws nothing. Main thread.
    public let caretNode = DisplayNode()
    private var highlightNodes: [DisplayNode] = []
    /// Whether the node has keyboard focus and takes editing keys. Main thread.
    public private(set) var isEditing = false
    /// How far the text is scrolled (points; x when single-line, y when multi-line). Main thread.
    public private(set) var scrollOffset = Point.zero
    private var cachedLayout: (version: UInt64, width: Double, secure: Bool, layout: TextLayout)?
    private var blinkTimer: TimerToken?
    private var drag: (anchor: Range<Int>, byWord: Bool)?

    /// Seconds the caret shows and hides while blinking; 0: it never blinks. `SILK_CARET_BLINK=0`
    /// turns blinking off (screenshots taken by tests stay comparable).
    nonisolated(unsafe) public static var caretBlinkInterval: Double =
        SilkConfiguration.current.caretBlinks ? 0.53 : 0
    /// Caret width in points.
    public static let caretWidth = 2.0

    /// Creates an empty, editable, single-line field with a text inset of 8 pt top and bottom and
    /// 10 pt at the sides; it clips and is focusable. Any thread.
    public override init() {
        super.init()
        isFocusable = true
        clipsToBounds = true
        contentNode.isUserInteractionEnabled = false
        caretNode.isUserInteractionEnabled = false
        caretNode.isHidden = true
        caretNode.backgroundColor = _caretColor
        addSubnode(contentNode)
        addSubnode(caretNode)
        lock.withLock { _accessibility.isElement = true }
        updateAccessibility()
    }

    // MARK: Configuration (any thread)

    /// The edited text with its attributes. Setting it from code puts the caret at the end, clears
    /// undo and does not call the delegate. Any thread.
    public var attributedText: AttributedText {
        get { lock.withLock { _editor.text } }
        set { lock.withLock { _editor.setText(newValue); _textVersion &+= 1 }; textChangedFromCode() }
    }
    /// The text as a plain string. Any thread.
    public var text: String { lock.withLock { _editor.string } }

    /// The clipboard this node copies to and pastes from; nil (the default) means the process's
    /// `Clipboard.current`, which the Wayland presenter points at the compositor's. Set one to give
    /// a field a private clipboard (a kiosk's PIN pad, a test). Any thread.
    public var clipboard: (any ClipboardProvider)? {
        get { lock.withLock { _clipboard } }
        set { lock.withLock { _clipboard = newValue } }
    }

    /// `clipboard`, else the process's.
    private var activeClipboard: any ClipboardProvider { clipboard ?? Clipboard.current }

    /// Shown, in its own attributes, while the text is empty. Any thread.
    public var attributedPlaceholderText: AttributedText? {
        get { lock.withLock { _placeholder } }
        set { lock.withLock { _placeholder = newValue }; textChangedFromCode() }
    }
    /// The attributes of typed text (reset to those before the caret when the caret moves). Any
    /// thread.
    public var typingAttributes: TextAttributes {
        get { lock.withLock { _editor.typingAttributes } }
        set { lock.withLock { _editor.typingAttributes = newValue }; textChangedFromCode() }
    }
    /// Space between the node's edges and the text. In points (default 8 top and bottom, 10 at the
    /// sides). Any thread.
    public var textContainerInset: EdgeInsets {
        get { lock.withLock { _inset } }
        set { lock.withLock { _inset = newValue }; textChangedFromCode() }
    }
    /// Multi-line: the node grows with its lines up to this many (0: no limit), then scrolls. Any
    /// thread.
    public var maximumLinesShown: Int {
        get { lock.withLock { _maximumLinesShown } }
        set { lock.withLock { _maximumLinesShown = max(0, newValue) }; textChangedFromCode() }
    }
    /// Wrap lines and take Enter as a line break (default false: one line, Enter submits). Any
    /// thread.
    public var isMultiline: Bool {
        get { lock.withLock { _isMultiline } }
        set { lock.withLock { _isMultiline = newValue; _textVersion &+= 1 }; textChangedFromCode() }
    }
    /// Show a bullet per character; copying and cutting are refused; words are not told apart. Any
    /// thread.
    public var isSecureTextEntry: Bool {
        get { lock.withLock { _isSecure } }
        set { lock.withLock { _isSecure = newValue; _textVersion &+= 1 }; textChangedFromCode() }
    }
    /// When false the node shows its text but neither takes focus nor edits. Any thread.
    public var isEditable: Bool {
        get { lock.withLock { _isEditable } }
        set { lock.withLock { _isEditable = newValue }; updateAccessibility() }
    }
    /// The on-screen keyboard this field wants: letters, a numeric pad or a PIN pad. Unless set,
    /// it follows a `contentType` set from code (`.pin` → the PIN pad; `.number`, `.digits`,
    /// `.phone` → the numeric pad; anything else: letters), so one property describes the field
    /// to both the on-screen keyboard and input methods. Any thread.
    public var keyboardType: KeyboardType {
        get {
            lock.withLock {
                if let explicit = _keyboardType { return explicit }
                switch _contentType?.purpose {
                case .pin?: return .pin
                case .number?, .digits?, .phone?: return .number
                default: return .text
                }
            }
        }
        set { lock.withLock { _keyboardType = newValue } }
    }
    /// Set from code; nil: derived from `contentType`.
    private var _keyboardType: KeyboardType?
    /// The caret's colour (default the focus blue). Any thread.
    public var caretColor: Color {
        get { lock.withLock { _caretColor } }
        set { lock.withLock { _caretColor = newValue }; caretNode.backgroundColor = newValue }
    }
    /// The colour of the selection highlights behind the text (default translucent blue). Any
    /// thread.
    public var selectionColor: Color {
        get { lock.withLock { _selectionColor } }
        set { lock.withLock { _selectionColor = newValue }; performOnPassThread { [self] in refresh() } }
    }
    /// Told of editing, selection and text changes, and asked before each change (main thread).
    /// Weak. Any thread may set it.
    public weak var delegate: (any EditableTextNodeDelegate)? {
        get { lock.withLock { _delegate } }
        set { lock.withLock { _delegate = newValue } }
    }
    /// The selection in characters (grapheme clusters); empty: the caret. Setting it from code does
    /// not call the delegate. Any thread.
    public var selectedRange: Range<Int> {
        get { lock.withLock { _editor.selectedRange } }
        set { lock.withLock { _editor.select(range: newValue) }; performOnPassThread { [self] in refresh() } }
    }
    /// The selection with its direction (anchor and head, in characters). Any thread.
    public var selection: TextSelection { lock.withLock { _editor.selection } }
    /// A copy of the editing model (text, selection, undo history). Any thread.
    public var editor: TextEditor { lock.withLock { _editor } }

    /// Focusable while `isEditable`.
    open override var isFocusable: Bool {
        get { super.isFocusable && isEditable }
        set { super.isFocusable = newValue }
    }

    private func textChangedFromCode() {
        updateAccessibility()
        setNeedsLayout()
        performOnPassThread { [self] in refresh() }
    }

    /// Keeps the accessibility role, value (the text, withheld when secure), default label (the
    /// placeholder) and states in step with the field. Any thread.
    private func updateAccessibility() {
        let (secure, string, placeholder, multiline, editable) = lock.withLock {
            (_isSecure, _editor.string, _placeholder?.string, _isMultiline, _isEditable)
        }
        accessibilityRole = secure ? .passwordField : .textField
        setDefaultAccessibilityValue(secure ? nil : string)
        setDefaultAccessibilityLabel(placeholder)
        setAccessibilityStates([.editable, .focusable], editable)
        setAccessibilityStates(.readOnly, !editable)
        setAccessibilityStates(.multiLine, multiline)
    }

    // MARK: Layout

    /// The text as drawn: bullets when secure, and what a caret index maps to in it.
    private struct Display {
        let text: AttributedText
        let secure: Bool
    }

    /// Where an input method's pre-edit sits in the drawn text: it replaces the selection
    /// (characters `selection`) and takes `units` drawn units (scalars, or characters when
    /// secure); the drawn text is unchanged before and shifted after.
    private struct PreeditSpan {
        let selection: Range<Int>
        let units: Int
        /// The pre-edit's cursor in drawn units from the pre-edit's start; nil: hidden.
        let cursor: Range<Int>?
    }

    /// The pre-edit's span, if one shows (lock held by the caller).
    private func preeditSpanLocked() -> PreeditSpan? {
        guard let p = _editor.preedit else { return nil }
        let sel = _editor.selection.range
        let cursor = _editor.preeditCursorCharacters.map { chars -> Range<Int> in
            guard !_isSecure else { return chars }
            let prefix = Array(p.text)
            func scalars(_ n: Int) -> Int { prefix[0..<n].reduce(0) { $0 + $1.unicodeScalars.count } }
            return scalars(chars.lowerBound)..<scalars(chars.upperBound)
        }
        return PreeditSpan(selection: sel, units: _isSecure ? p.text.count : p.text.unicodeScalars.count, cursor: cursor)
    }

    private func displayText() -> Display {
        lock.withLock {
            var attrs = _editor.typingAttributes
            attrs.underline = .single
            if _isSecure {
                let n = _editor.characterCount
                guard let p = _editor.preedit else {
                    return Display(text: AttributedText(String(repeating: "\u{2022}", count: n), attributes: _editor.typingAttributes), secure: true)
                }
                let sel = _editor.selection.range
                var t = AttributedText(String(repeating: "\u{2022}", count: sel.lowerBound), attributes: _editor.typingAttributes)
                t.append(String(repeating: "\u{2022}", count: p.text.count), attributes: attrs)
                t.append(String(repeating: "\u{2022}", count: n - sel.upperBound), attributes: _editor.typingAttributes)
                return Display(text: t, secure: true)
            }
            guard let p = _editor.preedit else { return Display(text: _editor.text, secure: false) }
            // The pre-edit, underlined, in place of the selection.
            let r = _editor.scalarRange(_editor.selection.range)
            var t = _editor.attributedSubtext(0..<r.lowerBound)
            t.append(p.text, attributes: attrs)
            t.append(_editor.attributedSubtext(r.upperBound..<_editor.text.scalarCount))
            return Display(text: t, secure: false)
        }
    }

    /// The width text is laid out in (infinite when single-line).
    private func layoutWidth(forBounds width: Double) -> Double {
        let (multiline, inset) = lock.withLock { (_isMultiline, _inset) }
        return multiline ? max(1, width - inset.horizontal - Self.caretWidth) : .infinity
    }

    private static func makeLayout(_ text: AttributedText, width: Double) -> TextLayout {
        TextLayout(text: text, constrainedTo: Size(width: width, height: .infinity), keepsTrailingWhitespace: true)
    }

    /// Height of the text's lines, and of the first `limit` of them (the visible part).
    private func textHeights(_ layout: TextLayout, limit: Int) -> (all: Double, shown: Double) {
        let lineHeight = TextLayout.emptyLineMetrics(lock.withLock { _editor.typingAttributes }).height
        guard let last = layout.lines.last else { return (lineHeight, lineHeight) }
        var all = last.rect.maxY
        // A final line break opens an empty line below.
        if let s = layout.text.string.unicodeScalars.last, s == "\n" || s == "\r" { all += last.rect.height }
        guard limit > 0, layout.lines.count > limit - 1 else { return (all, all) }
        let shown = limit < layout.lines.count ? layout.lines[limit - 1].rect.maxY : all
        return (all, min(all, shown))
    }

    /// The constrained width (or the text's width plus the inset and caret, when unbounded) and the
    /// height of the lines shown: one when single-line, up to `maximumLinesShown` when multi-line.
    open override func calculateSizeThatFits(_ constrainedSize: Size) -> Size {
        let (inset, limit, multiline) = lock.withLock { (_inset, _maximumLinesShown, _isMultiline) }
        let width = layoutWidth(forBounds: constrainedSize.width)
        let layout = Self.makeLayout(displayText().text, width: width)
        let h = textHeights(layout, limit: multiline ? limit : 1)
        let w = constrainedSize.width.isFinite ? constrainedSize.width : layout.size.width + inset.horizontal + Self.caretWidth
        return Size(width: w, height: (h.shown + inset.vertical).rounded(.up))
    }

    /// The layout of the shown text at the current width (main thread; cached per text version).
    public var textLayout: TextLayout {
        let width = layoutWidth(forBounds: bounds.width)
        let (version, secure) = lock.withLock { (_textVersion, _isSecure) }
        if let c = cachedLayout, c.version == version, c.width == width, c.secure == secure { return c.layout }
        let layout = Self.makeLayout(displayText().text, width: width)
        cachedLayout = (version, width, secure, layout)
        return layout
    }

    /// Places the content, caret and selection highlights for the new bounds, scrolling the caret
    /// into view.
    open override func layoutDidFinish() { refresh() }

    // MARK: Index conversions (text coordinates: the content node's)

    private func displayIndex(ofCharacter i: Int) -> Int {
        lock.withLock {
            let plain = { (c: Int) in self._isSecure ? max(0, min(c, self._editor.characterCount)) : self._editor.scalarOffset(ofCharacter: c) }
            guard let span = preeditSpanLocked() else { return plain(i) }
            // Before the pre-edit: unchanged; inside the replaced selection: its start; after it:
            // shifted by the pre-edit's length less the selection's.
            if i <= span.selection.lowerBound { return plain(i) }
            if i < span.selection.upperBound { return plain(span.selection.lowerBound) }
            return plain(i) - (plain(span.selection.upperBound) - plain(span.selection.lowerBound)) + span.units
        }
    }

    private func characterIndex(ofDisplay i: Int) -> Int {
        lock.withLock {
            let plain = { (d: Int) in self._isSecure ? max(0, min(d, self._editor.characterCount)) : self._editor.characterIndex(ofScalar: d) }
            guard let span = preeditSpanLocked() else { return plain(i) }
            let start = _isSecure ? span.selection.lowerBound : _editor.scalarOffset(ofCharacter: span.selection.lowerBound)
            let end = _isSecure ? span.selection.upperBound : _editor.scalarOffset(ofCharacter: span.selection.upperBound)
            if i <= start { return plain(i) }
            if i < start + span.units { return span.selection.lowerBound }
            return plain(i - span.units + (end - start))
        }
    }

    /// The pre-edit's cursor in drawn units (the text coordinates' index), nil when none shows.
    private func preeditCursorDisplayRange() -> Range<Int>? {
        let (span, start) = lock.withLock { () -> (PreeditSpan?, Int) in
            guard let span = preeditSpanLocked() else { return (nil, 0) }
            return (span, _isSecure ? span.selection.lowerBound : _editor.scalarOffset(ofCharacter: span.selection.lowerBound))
        }
        guard let span, let c = span.cursor else { return nil }
        return (start + c.lowerBound)..<(start + c.upperBound)
    }

    /// The caret rectangle of character index `i` in the content node's coordinates. Main thread.
    public func caretRect(forCharacter i: Int) -> Rect { caretRect(forDisplay: displayIndex(ofCharacter: i)) }

    /// The caret rectangle at an index of the drawn text (content-node coordinates).
    private func caretRect(forDisplay index: Int) -> Rect {
        let layout = textLayout
        if let r = layout.caretRect(at: index) {
            return Rect(x: r.minX, y: r.minY, width: Self.caretWidth, height: r.height)
        }
        let m = TextLayout.emptyLineMetrics(typingAttributes)
        let alignRight = typingAttributes.alignment == .right
        let x = alignRight && layout.constrainedSize.width.isFinite ? layout.constrainedSize.width : 0
        return Rect(x: x, y: 0, width: Self.caretWidth, height: m.height)
    }

    /// The character index nearest to `point` (this node's coordinates). Main thread.
    public func characterIndex(at point: Point) -> Int {
        let inset = textContainerInset
        let p = Point(x: point.x - inset.left + scrollOffset.x, y: point.y - inset.top + scrollOffset.y)
        let layout = textLayout
        guard !layout.lines.isEmpty else { return 0 }
        return characterIndex(ofDisplay: layout.caretIndex(at: p))
    }

    /// Lines for up/down/Home/End, from the laid-out text.
    private struct LayoutLines: TextLineNavigation {
        let layout: TextLayout
        let toDisplay: (Int) -> Int
        let toCharacter: (Int) -> Int
        func lineStart(containing i: Int) -> Int {
            guard let li = layout.lineIndex(forCaret: toDisplay(i)) else { return 0 }
            return toCharacter(layout.lines[li].characterRange.lowerBound)
        }
        func lineEnd(containing i: Int) -> Int {
            guard let li = layout.lineIndex(forCaret: toDisplay(i)) else { return 0 }
            let line = layout.lines[li]
            var end = line.characterRange.upperBound
            // A wrapped line's end is the next line's start: stop before its trailing space.
            if li + 1 < layout.lines.count, layout.lines[li + 1].characterRange.lowerBound == end, end > line.characterRange.lowerBound { end -= 1 }
            return toCharacter(end)
        }
        func index(above i: Int, x: Double?) -> Int? { vertical(i, x, -1) }
        func index(below i: Int, x: Double?) -> Int? { vertical(i, x, 1) }
        private func vertical(_ i: Int, _ x: Double?, _ step: Int) -> Int? {
            let d = toDisplay(i)
            guard let li = layout.lineIndex(forCaret: d) else { return nil }
            let target = li + step
            guard target >= 0, target < layout.lines.count else { return nil }
            let cx = x ?? layout.caretRect(at: d)?.minX ?? 0
            return toCharacter(layout.caretIndex(onLine: target, x: cx))
        }
    }

    /// Line navigation over a snapshot of the text (its closures take no lock, so the editor may
    /// use it while the node's lock is held).
    private var lineNavigation: LayoutLines {
        let (e, secure) = lock.withLock { (_editor, _isSecure) }
        let n = e.characterCount
        return LayoutLines(layout: textLayout,
                           toDisplay: { secure ? max(0, min($0, n)) : e.scalarOffset(ofCharacter: $0) },
                           toCharacter: { secure ? max(0, min($0, n)) : e.characterIndex(ofScalar: $0) })
    }

    // MARK: Presentation (main thread)

    /// Places the content, the caret and the highlights for the current text, selection and
    /// bounds, scrolling the caret into view. Main thread.
    private func refresh() {
        let size = bounds.size
        guard size.width > 0, size.height > 0 else { return }
        let (inset, multiline, sel, placeholder, empty, selColor) = lock.withLock {
            (_inset, _isMultiline, _editor.selection, _placeholder, _editor.characterCount == 0 && _editor.preedit == nil, _selectionColor)
        }
        let layout = textLayout
        let visible = Size(width: max(0, size.width - inset.horizontal), height: max(0, size.height - inset.vertical))

        // Scroll so the caret (the selection's moving end, or the pre-edit's cursor) stays visible.
        let preeditCursor = preeditCursorDisplayRange()
        let hasPreedit = lock.withLock { _editor.preedit != nil }
        let caret = preeditCursor.map { caretRect(forDisplay: $0.upperBound) } ?? caretRect(forCharacter: sel.head)
        var scroll = scrollOffset
        if multiline {
            scroll.x = 0
            if caret.minY < scroll.y { scroll.y = caret.minY }
            if caret.maxY > scroll.y + visible.height { scroll.y = caret.maxY - visible.height }
            let contentHeight = textHeights(layout, limit: 0).all
            scroll.y = max(0, min(scroll.y, max(0, contentHeight - visible.height)))
        } else {
            scroll.y = 0
            if caret.minX < scroll.x { scroll.x = caret.minX }
            if caret.maxX > scroll.x + visible.width { scroll.x = caret.maxX - visible.width }
            scroll.x = max(0, min(scroll.x, max(0, layout.size.width + Self.caretWidth - visible.width)))
        }
        scrollOffset = scroll
        let origin = Point(x: inset.left - scroll.x, y: inset.top - scroll.y)

        // The text (or placeholder) draws in the content node.
        let shownLayout: TextLayout? = empty ? placeholder.map { Self.makeLayout($0, width: layout.constrainedSize.width) } : layout
        let contentSize = Size(width: max(visible.width, (shownLayout?.size.width ?? 0) + Self.caretWidth).rounded(.up),
                               height: max(visible.height, shownLayout?.size.height ?? 0).rounded(.up))
        contentNode.frame = Rect(origin: origin, size: contentSize)
        contentNode.show(shownLayout)

        caretNode.frame = caret.offsetBy(dx: origin.x, dy: origin.y)

        // Selection highlights, one node per rectangle, behind the text.
        // With a pre-edit, its cursor range (when not a caret) is highlighted instead.
        let rects: [Rect]
        if hasPreedit {
            rects = isEditing && preeditCursor.map({ !$0.isEmpty }) == true ? layout.rects(for: preeditCursor!) : []
        } else {
            rects = isEditing && !sel.isCaret ? layout.rects(for: displayIndex(ofCharacter: sel.range.lowerBound)..<displayIndex(ofCharacter: sel.range.upperBound)) : []
        }
        while highlightNodes.count < rects.count {
            let n = DisplayNode()
            n.isUserInteractionEnabled = false
            highlightNodes.append(n)
            insertSubnode(n, at: 0)
        }
        for (i, n) in highlightNodes.enumerated() {
            if i < rects.count {
                n.frame = rects[i].offsetBy(dx: origin.x, dy: origin.y)
                n.backgroundColor = selColor
                n.isHidden = false
            } else {
                n.isHidden = true
            }
        }
        restartBlink(showing: isEditing && (hasPreedit ? preeditCursor != nil : sel.isCaret))
    }

    private func restartBlink(showing: Bool) {
        if let t = blinkTimer { EventLoop.main.cancelTimer(t); blinkTimer = nil }
        caretNode.isHidden = !showing
        let interval = Self.caretBlinkInterval
        guard showing, interval > 0, EventLoop.main.isOnLoopThread else { return }
        let period = Duration.nanoseconds(Int64(interval * 1e9))
        blinkTimer = EventLoop.main.addTimer(after: period, repeating: period) { [weak self] in
            guard let self else { return }
            caretNode.isHidden = !caretNode.isHidden
        }
    }

    // MARK: Focus

    /// Begins editing: shows the caret, tells the nearest `EditingHost` ancestor and the delegate.
    open override func didBecomeFocused() {
        isEditing = true
        refresh()
        findEditingHost()?.editingDidBegin(in: self)
        delegate?.editableTextNodeDidBeginEditing(self)
    }

    /// Ends editing: hides the caret, drops an input method's pre-edit, closes the undo group,
    /// tells the host and the delegate.
    open override func didResignFocus() {
        isEditing = false
        drag = nil
        lock.withLock {
            _editor.breakUndoCoalescing()
            if _editor.preedit != nil { _editor.setPreedit(nil); _textVersion &+= 1 }
        }
        refresh()
        findEditingHost()?.editingDidEnd(in: self)
        delegate?.editableTextNodeDidFinishEditing(self)
    }

    private func findEditingHost() -> (any EditingHost)? {
        var n = supernode
        while let p = n {
            if let host = p as? any EditingHost { return host }
            n = p.supernode
        }
        return nil
    }

    // MARK: Editing (main thread)

    /// Performs an editing command as if its key was pressed (the on-screen keyboard does this).
    /// Returns whether the node handled it. The delegate is asked and told as for typed keys. Main
    /// thread.
    @discardableResult
    public func perform(_ command: TextEditingCommand) -> Bool {
        guard isEditable else { return false }
        switch command {
        case .insert, .deleteBackward, .deleteForward:
            guard let edit = lock.withLock({ _editor.edit(for: command) }) else { return true }
            replace(edit)
        case .cut:
            guard !isSecureTextEntry, let edit = lock.withLock({ _editor.edit(for: command) }) else { return true }
            activeClipboard.setText(lock.withLock { _editor.selectedText })
            replace(edit)
        case .copy:
            let selected = lock.withLock { _isSecure ? "" : _editor.selectedText }
            if !selected.isEmpty { activeClipboard.setText(selected) }
        case .paste:
            activeClipboard.requestText { [weak self] text in
                guard let self, let text, !text.isEmpty else { return }
                performOnPassThread { [self] in
                    guard let edit = lock.withLock({ _editor.edit(for: .insert(text)) }) else { return }
                    replace(TextEdit(range: edit.range, replacement: text, kind: .other))
                }
            }
        case .submit:
            return delegate?.editableTextNodeShouldReturn(self) ?? false
        case .undo, .redo:
            let before = lock.withLock { _editor.selection }
            let changed = lock.withLock { _editor.perform(command) }
            if changed { lock.withLock { _textVersion &+= 1 }; textDidChange(selectionBefore: before) }
        case .move, .selectAll:
            let before = lock.withLock { _editor.selection }
            if case .move(let m, _) = command, m == .up || m == .down, lock.withLock({ _editor.preferredX == nil }) {
                let x = caretRect(forCharacter: before.head).minX
                lock.withLock { _editor.preferredX = x }
            }
            let lines = lineNavigation
            _ = lock.withLock { _editor.perform(command, lines: lines) }
            selectionDidChange(from: before)
        }
        return true
    }

    /// Replaces characters after asking the delegate.
    private func replace(_ edit: TextEdit) {
        if let d = delegate, !d.editableTextNode(self, shouldChangeTextIn: edit.range, replacementText: edit.replacement) { return }
        let before = lock.withLock { () -> TextSelection in
            let s = _editor.selection
            _editor.apply(edit)
            _textVersion &+= 1
            return s
        }
        textDidChange(selectionBefore: before)
    }

    private func textDidChange(selectionBefore: TextSelection) {
        let (multiline, limit) = lock.withLock { (_isMultiline, _maximumLinesShown) }
        // A multi-line node may grow or shrink with its lines.
        if multiline && limit != 1 { setNeedsLayout() }
        refresh()
        updateAccessibility()
        delegate?.editableTextNodeDidUpdateText(self)
        if selection != selectionBefore { delegate?.editableTextNodeDidChangeSelection(self) }
    }

    private func selectionDidChange(from before: TextSelection) {
        refresh()
        if selection != before { delegate?.editableTextNodeDidChangeSelection(self) }
    }

    /// Performs the editing command for the key while editing
    /// (`TextEditor.command(for:multiline:)`); other keys (Tab, Escape) go on up the tree.
    open override func keyDown(_ key: KeyInput) -> Bool {
        guard isEditing, let command = TextEditor.command(for: key, multiline: isMultiline) else { return false }
        if isSecureTextEntry, case .move(let m, let extending) = command, m == .wordLeft || m == .wordRight {
            // Secure text has no words to show: jump to the ends.
            return perform(.move(m == .wordLeft ? .documentStart : .documentEnd, extending: extending))
        }
        return perform(command)
    }

    // MARK: Input methods (main thread)

    /// What the field is for, told to input methods (fcitx5, IBus through text-input-v3). By
    /// default derived: a `keyboardType` set from code gives `.pin` or `.number` (hidden and
    /// sensitive when `isSecureTextEntry`); else `isSecureTextEntry` gives a password with hidden,
    /// sensitive text; `isMultiline` adds the multiline hint. Setting it overrides that for good. Any thread.
    public var contentType: TextContentType {
        get { lock.withLock { _contentType ?? derivedContentTypeLocked() } }
        set { lock.withLock { _contentType = newValue } }
    }

    private func derivedContentTypeLocked() -> TextContentType {
        switch _keyboardType {
        case .pin?: return TextContentType(purpose: .pin, hints: _isSecure ? [.hiddenText, .sensitiveData] : [])
        case .number?: return TextContentType(purpose: .number, hints: _isSecure ? [.hiddenText, .sensitiveData] : [])
        default: break
        }
        if _isSecure { return TextContentType(purpose: .password, hints: [.hiddenText, .sensitiveData]) }
        return TextContentType(purpose: .normal, hints: _isMultiline ? [.multiline] : [])
    }

    /// The input method's pre-edit shown at the selection, if any (not part of `text`). Any
    /// thread.
    public var preedit: TextPreedit? { lock.withLock { _editor.preedit } }

    /// Shows an input method's pre-edit (nil: none) in place of the selection, underlined, with
    /// its cursor; the text does not change (`TextEditor.setPreedit(_:)`). Main thread.
    public func setPreedit(_ preedit: TextPreedit?) {
        let changed = lock.withLock { () -> Bool in
            let old = _editor.preedit
            _editor.setPreedit(preedit)
            guard _editor.preedit != old else { return false }
            _textVersion &+= 1
            return true
        }
        guard changed else { return }
        let (multiline, limit) = lock.withLock { (_isMultiline, _maximumLinesShown) }
        if multiline && limit != 1 { setNeedsLayout() }
        refresh()
    }

    /// Applies an input method's update in text-input-v3's order: the old pre-edit goes, the
    /// surrounding text is deleted (bytes widened to whole characters, clamped to the text), the
    /// commit replaces the selection, the new pre-edit shows. The delegate is asked before the
    /// deletion and the commit and told of them, as for typing. Ignored unless editable. Main
    /// thread.
    public func applyInputMethod(_ update: TextInputUpdate) {
        guard isEditable else { return }
        lock.withLock {
            if _editor.preedit != nil { _editor.setPreedit(nil); _textVersion &+= 1 }
        }
        let deletion = lock.withLock { _editor.surroundingDeletion(before: update.deleteBefore, after: update.deleteAfter) }
        if !deletion.before.isEmpty || !deletion.after.isEmpty {
            let d = delegate
            let allowed = [deletion.after, deletion.before].allSatisfy { r in
                r.isEmpty || d?.editableTextNode(self, shouldChangeTextIn: r, replacementText: "") ?? true
            }
            if allowed {
                let before = lock.withLock { () -> TextSelection in
                    let s = _editor.selection
                    _editor.deleteSurrounding(before: update.deleteBefore, after: update.deleteAfter)
                    _textVersion &+= 1
                    return s
                }
                textDidChange(selectionBefore: before)
            }
        }
        if let commit = update.commit, !commit.isEmpty, let edit = lock.withLock({ _editor.edit(for: .insert(commit)) }) {
            replace(TextEdit(range: edit.range, replacement: commit, kind: .other))
        }
        setPreedit(update.preedit)
        refresh()
    }

    /// What an input method is told about this field while it edits: the text around the caret
    /// (`TextEditor.surroundingText(maximumBytes:)`), the content type, and the caret (or
    /// pre-edit cursor) rectangle in window points. Nil when not editing. Main thread.
    public var textInputState: TextInputState? {
        guard isEditing else { return nil }
        let (surrounding, type, inset) = lock.withLock { (_editor.surroundingText(), _contentType ?? derivedContentTypeLocked(), _inset) }
        let sel = selection
        let caret = preeditCursorDisplayRange().map { caretRect(forDisplay: $0.lowerBound) } ?? caretRect(forCharacter: sel.head)
        let local = caret.offsetBy(dx: inset.left - scrollOffset.x, dy: inset.top - scrollOffset.y)
        return TextInputState(surroundingText: surrounding.text, cursor: surrounding.cursor, anchor: surrounding.anchor,
                              contentType: type, cursorRectangle: convertToWindow(local))
    }

    // MARK: Touches and pointer (main thread)

    /// Takes touches while editable: one tap places the caret at the nearest boundary, two select
    /// the word, three everything; Shift extends from the anchor. Focus follows the touch.
    open override func touchesBegan(_ touches: [Touch], with event: InputEvent) -> Bool {
        guard isEditable, let t = touches.first else { return false }
        let i = characterIndex(at: t.location(in: self))
        let before = selection
        lock.withLock {
            switch t.tapCount {
            case 2:
                let word = _isSecure ? 0..<_editor.characterCount : _editor.wordRange(at: i)
                _editor.select(range: word)
                drag = (word, true)
            case 3...:
                _editor.selectAll()
                drag = nil
            default:
                if event.modifiers.contains(.shift) {
                    _editor.select(TextSelection(anchor: _editor.selection.anchor, head: i))
                    drag = (_editor.selection.anchor..<_editor.selection.anchor, false)
                } else {
                    _editor.select(TextSelection(caret: i))
                    drag = (i..<i, false)
                }
            }
        }
        selectionDidChange(from: before)
        return true
    }

    /// Extends the selection to the finger (by words after a double tap).
    open override func touchesMoved(_ touches: [Touch], with event: InputEvent) {
        guard let t = touches.first, let drag else { return }
        let i = characterIndex(at: t.location(in: self))
        let before = selection
        lock.withLock {
            if drag.byWord && !_isSecure {
                let w = _editor.wordRange(at: i)
                if i < drag.anchor.lowerBound {
                    _editor.select(TextSelection(anchor: drag.anchor.upperBound, head: w.lowerBound))
                } else {
                    _editor.select(TextSelection(anchor: drag.anchor.lowerBound, head: max(w.upperBound, drag.anchor.upperBound)))
                }
            } else {
                let a = i < drag.anchor.lowerBound ? drag.anchor.upperBound : drag.anchor.lowerBound
                _editor.select(TextSelection(anchor: a, head: i))
            }
        }
        selectionDidChange(from: before)
    }

    /// Ends the drag selection.
    open override func touchesEnded(_ touches: [Touch], with event: InputEvent) { drag = nil }
    /// Ends the drag selection, keeping what was selected.
    open override func touchesCancelled(_ touches: [Touch], with event: InputEvent?) { drag = nil }
}

/// Draws an `EditableTextNode`'s text (or placeholder) from a layout made on the main thread.
public final class EditableTextContentNode: DisplayNode, @unchecked Sendable {
    private var _layout: TextLayout?
    private var _shownText: AttributedText?
    private var _shownWidth = 0.0

    /// True: the text is drawn in display jobs.
    public override class var drawsContent: Bool { true }

    /// Shows `layout` (nil: nothing), redrawing only when its text or width changed.
    func show(_ layout: TextLayout?) {
        let changed = lock.withLock { () -> Bool in
            let same = _shownText == layout?.text && _shownWidth == (layout?.constrainedSize.width ?? 0)
            _layout = layout
            _shownText = layout?.text
            _shownWidth = layout?.constrainedSize.width ?? 0
            return !same
        }
        if changed { setNeedsDisplay() }
    }

    struct Parameters: Sendable { let layout: TextLayout? }

    /// The layout handed over by the editable node (made on the main thread, never shaped again).
    public override func drawParameters() -> (any Sendable)? { Parameters(layout: lock.withLock { _layout }) }

    /// Draws the prepared layout at the origin.
    public override class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {
        guard let p = parameters as? Parameters, let layout = p.layout else { return }
        if isCancelled() { throw RasterError.cancelled }
        context.canvas.draw(layout, at: .zero)
    }
}
