import SilkRaster

// The text-editing model behind `EditableTextNode`: attributed text, a selection, editing
// operations, word boundaries and undo/redo — a value type with no node, layout or thread in it,
// so every operation is unit-tested on its own (Tests/SilkNodesTests/TextEditorTests.swift).
//
// Units. Positions the model hands out (`selection`, the ranges of `TextEdit`) count **grapheme
// clusters** (Swift `Character`s): a caret never lands inside "é" written as e + U+0301, a flag
// or a family emoji. The text stack counts Unicode scalars; `scalarOffset(ofCharacter:)` and
// `characterIndex(ofScalar:)` convert. Edits are recorded for undo in scalars, which stay exact
// even when an edit merges clusters (a combining mark typed after a letter).

/// A selection: `anchor` stays where selecting began, `head` is the end that moves (the caret).
/// Both are character (grapheme-cluster) indices.
public struct TextSelection: Hashable, Sendable, CustomStringConvertible {
    /// Where selecting began: the end that stays put while Shift+arrows or a drag extend.
    public var anchor: Int
    /// The moving end, where the caret shows.
    public var head: Int
    /// A selection from `anchor` to `head`, in either order (a backward selection has its head
    /// first).
    public init(anchor: Int, head: Int) { self.anchor = anchor; self.head = head }
    /// A caret at `index`.
    public init(caret index: Int) { anchor = index; head = index }
    /// The selected characters, whichever end came first.
    public var range: Range<Int> { min(anchor, head)..<max(anchor, head) }
    /// Whether nothing is selected: `anchor` and `head` are the same index.
    public var isCaret: Bool { anchor == head }
    /// "caret 3", or "2→7" from anchor to head.
    public var description: String { isCaret ? "caret \(head)" : "\(anchor)→\(head)" }
}

/// How far a deletion or a word movement reaches.
public enum TextGranularity: Hashable, Sendable {
    /// One character (grapheme cluster): Backspace, Delete.
    case character
    /// To the word boundary (Ctrl+Backspace, Ctrl+Delete): see `TextEditor.wordStart(before:)`.
    case word
    /// To the start (backward) or end (forward) of the line.
    case line
}

/// Where a caret movement goes. Line-relative movements (`lineStart`, `lineEnd`, `up`, `down`)
/// need the laid-out lines: pass a `TextLineNavigation`; without one, lines are paragraphs and
/// up/down go to the start/end of the text.
public enum TextMovement: Hashable, Sendable {
    /// One character back (or, with a selection and not extending, to its start).
    case left
    /// One character forward (or, with a selection and not extending, to its end).
    case right
    /// To the start of the word at or before the caret (Ctrl+Left).
    case wordLeft
    /// To the end of the word at or after the caret (Ctrl+Right).
    case wordRight
    /// To the start of the visual line (Home).
    case lineStart
    /// To the end of the visual line (End).
    case lineEnd
    /// One line up, keeping the caret's x (`TextEditor.preferredX`); from the first line, to
    /// the start.
    case up
    /// One line down, keeping the caret's x; from the last line, to the end.
    case down
    /// To the start of the text (Ctrl+Home).
    case documentStart
    /// To the end of the text (Ctrl+End).
    case documentEnd
}

/// What an editing key asks for (`TextEditor.command(for:multiline:)` maps keys to these).
public enum TextEditingCommand: Hashable, Sendable {
    /// Replaces the selection with the text (typed, or from the on-screen keyboard).
    case insert(String)
    /// Deletes the selection, or back from the caret by the granularity (Backspace).
    case deleteBackward(TextGranularity)
    /// Deletes the selection, or forward from the caret by the granularity (Delete).
    case deleteForward(TextGranularity)
    /// Moves the caret; `extending` moves only the selection's head (Shift held).
    case move(TextMovement, extending: Bool)
    /// Selects the whole text (Ctrl+A).
    case selectAll
    /// Undoes the last group of edits (Ctrl+Z).
    case undo
    /// Redoes the last undone group (Ctrl+Shift+Z, Ctrl+Y).
    case redo
    /// Copies the selection to the clipboard (Ctrl+C, Ctrl+Insert).
    case copy
    /// Copies the selection and deletes it (Ctrl+X, Shift+Delete).
    case cut
    /// Replaces the selection with the clipboard's text (Ctrl+V, Shift+Insert).
    case paste
    /// Enter in a single-line field: the field's owner decides (submit, next field).
    case submit
}

/// Visual line geometry for caret movements, provided by whoever laid the text out. Indices are
/// character indices.
public protocol TextLineNavigation {
    /// The first character index of the visual line containing `index`.
    func lineStart(containing index: Int) -> Int
    /// The index after the last character of the visual line containing `index` (before its
    /// line break, if any).
    func lineEnd(containing index: Int) -> Int
    /// The index one line above `index`, keeping `x` (points) when given; nil at the first line.
    func index(above index: Int, x: Double?) -> Int?
    /// The index one line below `index`, keeping `x` (points) when given; nil at the last line.
    func index(below index: Int, x: Double?) -> Int?
}

/// One replacement: the characters of `range` (in the text before) become `replacement`.
public struct TextEdit: Hashable, Sendable {
    /// What made an edit, which decides how undo groups it with its neighbours.
    public enum Kind: Hashable, Sendable {
        /// Typed text: consecutive typing at the caret is undone a word at a time.
        case typing
        /// Backspace: consecutive ones are undone together.
        case deleteBackward
        /// Delete: consecutive ones are undone together.
        case deleteForward
        /// Anything else (paste, cut, an edit from code): its own undo group.
        case other
    }
    /// The replaced characters (grapheme-cluster indices in the text before the edit).
    public var range: Range<Int>
    /// The text that takes their place (empty for a deletion).
    public var replacement: String
    /// What made the edit (undo grouping).
    public var kind: Kind
    /// An edit replacing the characters in `range` with `replacement`.
    public init(range: Range<Int>, replacement: String, kind: Kind = .other) {
        self.range = range; self.replacement = replacement; self.kind = kind
    }
}

/// Attributed text being edited, its selection and its undo history.
public struct TextEditor: Sendable {
    /// The text being edited, with its attributes. Change it through edits (undoable) or
    /// `setText(_:)`.
    public private(set) var text: AttributedText
    /// The caret or selection, always on cluster boundaries within the text.
    public private(set) var selection: TextSelection
    /// Attributes given to typed and pasted text. Moving the selection resets them to the
    /// attributes of the character before the caret (as UIKit's text views do).
    public var typingAttributes: TextAttributes
    /// Undo groups kept (older ones are dropped).
    public var undoLimit = 100
    /// Text an input method is composing at the selection (shown, not yet in `text`); see
    /// `setPreedit(_:)` (TextEditor+InputMethod.swift).
    public internal(set) var preedit: TextPreedit?

    /// Scalar offset of every cluster boundary: `boundaries[i]` is where character i starts;
    /// the last entry is `text.scalarCount`.
    private var boundaries: [Int] = [0]
    private var classes: [CharacterClass] = []
    /// Kept for up/down: the x the caret had when vertical movement began.
    public var preferredX: Double?

    private var undoStack: [UndoGroup] = []
    private var redoStack: [UndoGroup] = []
    /// Whether the last undo group may take the next edit (consecutive typing or deleting).
    private var groupIsOpen = false

    /// An editor over `text` with the caret at its end; `typingAttributes` style typed text until
    /// the caret moves next to existing text.
    public init(_ text: AttributedText = AttributedText(), typingAttributes: TextAttributes = TextAttributes()) {
        self.text = text
        self.typingAttributes = typingAttributes
        selection = TextSelection(caret: 0)
        reindex()
        selection = TextSelection(caret: characterCount)
        updateTypingAttributes()
    }

    // MARK: Reading

    /// The text without its attributes.
    public var string: String { text.string }
    /// Characters (grapheme clusters) in the text.
    public var characterCount: Int { boundaries.count - 1 }
    /// The selected characters (empty at a caret).
    public var selectedRange: Range<Int> { selection.range }
    /// The selected text (empty at a caret).
    public var selectedText: String { substring(selection.range) }
    /// Whether there is an edit group to undo.
    public var canUndo: Bool { !undoStack.isEmpty }
    /// Whether there is an undone group to redo (any edit clears them).
    public var canRedo: Bool { !redoStack.isEmpty }

    /// The scalar offset where character `index` starts (clamped).
    public func scalarOffset(ofCharacter index: Int) -> Int { boundaries[max(0, min(index, characterCount))] }
    /// The scalar range of a character range.
    public func scalarRange(_ range: Range<Int>) -> Range<Int> {
        scalarOffset(ofCharacter: range.lowerBound)..<scalarOffset(ofCharacter: range.upperBound)
    }
    /// The character whose cluster contains scalar `offset`, rounded up to the next boundary
    /// when `offset` is inside a cluster.
    public func characterIndex(ofScalar offset: Int) -> Int {
        var lo = 0, hi = characterCount
        while lo < hi {
            let mid = (lo + hi) / 2
            if boundaries[mid] < offset { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The plain text of a character range (clamped to the text).
    public func substring(_ range: Range<Int>) -> String {
        let r = scalarRange(clamp(range))
        let s = text.string.unicodeScalars
        let a = s.index(s.startIndex, offsetBy: r.lowerBound), b = s.index(a, offsetBy: r.count)
        return String(s[a..<b])
    }

    // MARK: Selection

    /// Sets the selection (clamped); closes the undo group and resets the typing attributes.
    public mutating func select(_ newSelection: TextSelection) {
        let n = characterCount
        let s = TextSelection(anchor: max(0, min(newSelection.anchor, n)), head: max(0, min(newSelection.head, n)))
        groupIsOpen = false
        guard s != selection else { return }
        selection = s
        updateTypingAttributes()
    }

    /// Selects `range`: the anchor at its start, the head (caret) at its end.
    public mutating func select(range: Range<Int>) { select(TextSelection(anchor: range.lowerBound, head: range.upperBound)) }
    /// Selects the whole text, the head at the end.
    public mutating func selectAll() { select(TextSelection(anchor: 0, head: characterCount)) }

    /// Moves the caret (or, `extending`, the selection's head).
    public mutating func move(_ movement: TextMovement, extending: Bool, lines: (any TextLineNavigation)? = nil) {
        let head = selection.head, r = selection.range
        var target: Int
        var keepsX = false
        switch movement {
        case .left: target = !extending && !selection.isCaret ? r.lowerBound : head - 1
        case .right: target = !extending && !selection.isCaret ? r.upperBound : head + 1
        case .wordLeft: target = wordStart(before: head)
        case .wordRight: target = wordEnd(after: head)
        case .lineStart: target = lines?.lineStart(containing: head) ?? paragraphStart(head)
        case .lineEnd: target = lines?.lineEnd(containing: head) ?? paragraphEnd(head)
        case .documentStart: target = 0
        case .documentEnd: target = characterCount
        case .up, .down:
            keepsX = true
            let from = extending || selection.isCaret ? head : (movement == .up ? r.lowerBound : r.upperBound)
            if let lines {
                let found = movement == .up ? lines.index(above: from, x: preferredX) : lines.index(below: from, x: preferredX)
                target = found ?? (movement == .up ? 0 : characterCount)
            } else {
                target = movement == .up ? 0 : characterCount
            }
        }
        let x = preferredX
        select(extending ? TextSelection(anchor: selection.anchor, head: target) : TextSelection(caret: target))
        preferredX = keepsX ? x : nil
    }

    /// The word (or run of spaces, or single punctuation character) around `index`, as a double
    /// click selects it.
    public func wordRange(at index: Int) -> Range<Int> {
        let n = characterCount
        guard n > 0 else { return 0..<0 }
        var i = max(0, min(index, n - 1))
        // At the end of a word (the caret after its last letter), take that word.
        if index == n || (classes[i] != .word && i > 0 && classes[i - 1] == .word && index == i) { i = max(0, i - 1) }
        let c = classes[i]
        guard c == .word || c == .space else { return i..<(i + 1) }
        var lo = i, hi = i + 1
        while lo > 0 && classes[lo - 1] == c { lo -= 1 }
        while hi < n && classes[hi] == c { hi += 1 }
        return lo..<hi
    }

    /// The start of the word at or before `index` (Ctrl+Left): skips non-word characters back,
    /// then word characters.
    public func wordStart(before index: Int) -> Int {
        var i = max(0, min(index, characterCount))
        while i > 0 && classes[i - 1] != .word { i -= 1 }
        while i > 0 && classes[i - 1] == .word { i -= 1 }
        return i
    }

    /// The end of the word at or after `index` (Ctrl+Right).
    public func wordEnd(after index: Int) -> Int {
        let n = characterCount
        var i = max(0, min(index, n))
        while i < n && classes[i] != .word { i += 1 }
        while i < n && classes[i] == .word { i += 1 }
        return i
    }

    private func paragraphStart(_ index: Int) -> Int {
        var i = max(0, min(index, characterCount))
        while i > 0 && classes[i - 1] != .newline { i -= 1 }
        return i
    }

    private func paragraphEnd(_ index: Int) -> Int {
        var i = max(0, min(index, characterCount))
        while i < characterCount && classes[i] != .newline { i += 1 }
        return i
    }

    // MARK: Editing

    /// The edit a command would make, or nil when it changes no text (a Backspace at the start,
    /// a movement). Ask the delegate with it, then `apply` it.
    public func edit(for command: TextEditingCommand) -> TextEdit? {
        let r = selection.range
        switch command {
        case let .insert(s):
            return TextEdit(range: r, replacement: s, kind: .typing)
        case let .deleteBackward(g):
            if !r.isEmpty { return TextEdit(range: r, replacement: "", kind: .deleteBackward) }
            let from: Int
            switch g {
            case .character: from = r.lowerBound - 1
            case .word: from = wordStart(before: r.lowerBound)
            case .line: from = paragraphStart(r.lowerBound) == r.lowerBound ? r.lowerBound - 1 : paragraphStart(r.lowerBound)
            }
            guard from >= 0, from < r.lowerBound else { return nil }
            return TextEdit(range: from..<r.lowerBound, replacement: "", kind: .deleteBackward)
        case let .deleteForward(g):
            if !r.isEmpty { return TextEdit(range: r, replacement: "", kind: .deleteForward) }
            let to: Int
            switch g {
            case .character: to = r.upperBound + 1
            case .word: to = wordEnd(after: r.upperBound)
            case .line: to = paragraphEnd(r.upperBound) == r.upperBound ? r.upperBound + 1 : paragraphEnd(r.upperBound)
            }
            guard to <= characterCount, to > r.upperBound else { return nil }
            return TextEdit(range: r.upperBound..<to, replacement: "", kind: .deleteForward)
        case .cut:
            return r.isEmpty ? nil : TextEdit(range: r, replacement: "", kind: .other)
        case .move, .selectAll, .undo, .redo, .copy, .paste, .submit:
            return nil
        }
    }

    /// Performs a command that needs no one's permission and no clipboard (movements, select
    /// all, undo, redo). Returns whether the text changed.
    @discardableResult
    public mutating func perform(_ command: TextEditingCommand, lines: (any TextLineNavigation)? = nil) -> Bool {
        switch command {
        case let .move(m, extending): move(m, extending: extending, lines: lines)
        case .selectAll: selectAll()
        case .undo: return undo()
        case .redo: return redo()
        default:
            guard let e = edit(for: command) else { return false }
            apply(e)
            return true
        }
        return false
    }

    /// Replaces `edit.range` with `edit.replacement` (in the typing attributes), leaves the caret
    /// after it, and records it for undo — coalesced with the previous edit when both are typing
    /// at the caret (a group ends where a space follows a word) or repeated deletions.
    public mutating func apply(_ edit: TextEdit) {
        let range = clamp(edit.range)
        let scalars = scalarRange(range)
        let removed = attributedSubtext(scalars)
        let inserted = AttributedText(edit.replacement, attributes: typingAttributes)
        let record = ScalarEdit(at: scalars.lowerBound, removed: removed, inserted: inserted)
        let before = selection
        replaceScalars(scalars, with: inserted)
        let caret = characterIndex(ofScalar: scalars.lowerBound + inserted.scalarCount)
        selection = TextSelection(caret: caret)
        preferredX = nil
        redoStack.removeAll()
        if groupIsOpen, var last = undoStack.last, last.coalesces(edit.kind, record) {
            last.edits.append(record)
            last.selectionAfter = selection
            undoStack[undoStack.count - 1] = last
        } else {
            undoStack.append(UndoGroup(kind: edit.kind, edits: [record], selectionBefore: before, selectionAfter: selection))
            if undoStack.count > undoLimit { undoStack.removeFirst(undoStack.count - undoLimit) }
        }
        groupIsOpen = edit.kind != .other
    }

    /// Undoes the last group of edits. Returns whether there was one.
    @discardableResult
    public mutating func undo() -> Bool {
        guard let group = undoStack.popLast() else { return false }
        for e in group.edits.reversed() {
            replaceScalars(e.offset..<(e.offset + e.inserted.scalarCount), with: e.removed)
        }
        selection = clamp(group.selectionBefore)
        redoStack.append(group)
        groupIsOpen = false
        updateTypingAttributes()
        return true
    }

    /// Redoes the last undone group, selecting as it was after the edits. Returns whether there was
    /// one.
    @discardableResult
    public mutating func redo() -> Bool {
        guard let group = redoStack.popLast() else { return false }
        for e in group.edits {
            replaceScalars(e.offset..<(e.offset + e.removed.scalarCount), with: e.inserted)
        }
        selection = clamp(group.selectionAfter)
        undoStack.append(group)
        groupIsOpen = false
        updateTypingAttributes()
        return true
    }

    /// Replaces the whole text (not undoable: the history is cleared); the caret goes to the end.
    public mutating func setText(_ newText: AttributedText) {
        text = newText
        reindex()
        undoStack.removeAll(); redoStack.removeAll(); groupIsOpen = false
        selection = TextSelection(caret: characterCount)
        preferredX = nil
    }

    /// Closes the current undo group, so the next edit starts a new one.
    public mutating func breakUndoCoalescing() { groupIsOpen = false }

    // MARK: Keys

    /// The editing command for a key, or nil when the key is not an editing key (Tab, Escape,
    /// function keys: left to the focus chain and the app). `multiline`: Enter inserts a line
    /// break instead of `.submit`, and up/down move between lines.
    public static func command(for key: KeyInput, multiline: Bool) -> TextEditingCommand? {
        let m = key.modifiers
        let shift = m.contains(.shift), control = m.contains(.control)
        if m.contains(.alt) || m.contains(.super) { return nil }
        switch key.key {
        case .left: return .move(control ? .wordLeft : .left, extending: shift)
        case .right: return .move(control ? .wordRight : .right, extending: shift)
        case .up: return .move(multiline && !control ? .up : .documentStart, extending: shift)
        case .down: return .move(multiline && !control ? .down : .documentEnd, extending: shift)
        case .home: return .move(control ? .documentStart : .lineStart, extending: shift)
        case .end: return .move(control ? .documentEnd : .lineEnd, extending: shift)
        case .pageUp: return .move(.documentStart, extending: shift)
        case .pageDown: return .move(.documentEnd, extending: shift)
        case .backspace: return .deleteBackward(control ? .word : .character)
        case .delete: return shift && !control ? .cut : .deleteForward(control ? .word : .character)
        case .insert:
            if control { return .copy }
            return shift ? .paste : nil
        case .enter: return multiline && !control ? .insert("\n") : .submit
        default: break
        }
        if control {
            guard case let .character(c) = key.key else { return nil }
            switch c.lowercased() {
            case "a": return .selectAll
            case "z": return shift ? .redo : .undo
            case "y": return .redo
            case "c": return .copy
            case "x": return .cut
            case "v": return .paste
            default: return nil
            }
        }
        // Text: what the keymap produced, without control characters (Ctrl+letter gives some).
        let text = key.text
        guard !text.isEmpty, text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && !(0x7f..<0xa0).contains($0.value) }) else {
            return nil
        }
        return .insert(text)
    }

    // MARK: Storage

    private mutating func replaceScalars(_ range: Range<Int>, with replacement: AttributedText) {
        var out = attributedSubtext(0..<range.lowerBound)
        out.append(replacement)
        out.append(attributedSubtext(range.upperBound..<text.scalarCount))
        text = out
        reindex()
    }

    /// The attributed text of a scalar range, built from the public runs.
    func attributedSubtext(_ range: Range<Int>) -> AttributedText {
        guard !range.isEmpty else { return AttributedText() }
        let scalars = Array(text.string.unicodeScalars[text.stringIndex(ofScalarOffset: range.lowerBound)..<text.stringIndex(ofScalarOffset: range.upperBound)])
        var out = AttributedText()
        for run in text.runs where run.range.upperBound > range.lowerBound && run.range.lowerBound < range.upperBound {
            let lo = max(run.range.lowerBound, range.lowerBound) - range.lowerBound
            let hi = min(run.range.upperBound, range.upperBound) - range.lowerBound
            var s = String.UnicodeScalarView()
            s.append(contentsOf: scalars[lo..<hi])
            out.append(String(s), attributes: run.attributes)
        }
        return out
    }

    private mutating func reindex() {
        var b = [0]
        var c: [CharacterClass] = []
        b.reserveCapacity(text.string.count + 1)
        var offset = 0
        for ch in text.string {
            offset += ch.unicodeScalars.count
            b.append(offset)
            c.append(CharacterClass(ch))
        }
        boundaries = b
        classes = c
    }

    private mutating func updateTypingAttributes() {
        guard !text.isEmpty else { return }
        let at = selection.range.lowerBound
        typingAttributes = text.attributes(at: scalarOffset(ofCharacter: max(0, at - 1)))
    }

    private func clamp(_ r: Range<Int>) -> Range<Int> {
        let n = characterCount
        let lo = max(0, min(r.lowerBound, n))
        return lo..<max(lo, min(r.upperBound, n))
    }

    private func clamp(_ s: TextSelection) -> TextSelection {
        let n = characterCount
        return TextSelection(anchor: max(0, min(s.anchor, n)), head: max(0, min(s.head, n)))
    }
}

/// Word boundaries: letters, digits, marks and connector punctuation make words; everything
/// else separates them. A simplification of UAX #29 that treats each script's letters alike.
enum CharacterClass: Hashable, Sendable {
    case word, space, newline, other

    init(_ c: Character) {
        if c.isNewline { self = .newline }
        else if c.isWhitespace { self = .space }
        else if c.isLetter || c.isNumber || c == "_" || c.unicodeScalars.first?.properties.generalCategory == .connectorPunctuation
                    || c == "'" || c == "\u{2019}" {
            self = .word
        } else { self = .other }
    }
}

/// An applied edit in scalars: at `offset`, `removed` became `inserted`.
struct ScalarEdit: Sendable {
    let offset: Int
    let removed: AttributedText
    let inserted: AttributedText
    init(at offset: Int, removed: AttributedText, inserted: AttributedText) {
        self.offset = offset; self.removed = removed; self.inserted = inserted
    }
}

/// Edits undone and redone together.
struct UndoGroup: Sendable {
    let kind: TextEdit.Kind
    var edits: [ScalarEdit]
    var selectionBefore: TextSelection
    var selectionAfter: TextSelection

    /// Whether `next` continues this group: typing right after the last insertion (until a
    /// space follows a word), Backspace right before the last deletion, Delete at the same place.
    func coalesces(_ kind: TextEdit.Kind, _ next: ScalarEdit) -> Bool {
        guard kind == self.kind, let last = edits.last else { return false }
        switch kind {
        case .typing:
            guard next.removed.isEmpty, next.offset == last.offset + last.inserted.scalarCount else { return false }
            let startsSpace = next.inserted.string.first?.isWhitespace ?? false
            let lastEndsSpace = last.inserted.string.last?.isWhitespace ?? false
            return !(startsSpace && !lastEndsSpace)
        case .deleteBackward:
            return next.inserted.isEmpty && next.offset + next.removed.scalarCount == last.offset
        case .deleteForward:
            return next.inserted.isEmpty && next.offset == last.offset
        case .other:
            return false
        }
    }
}
