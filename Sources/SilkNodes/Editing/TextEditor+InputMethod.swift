import SilkInput
import SilkRaster

// The editing model's side of input methods (text-input-v3 and any other): pre-edit, commit,
// delete-surrounding and the surrounding-text query, in the protocol's UTF-8 byte units at the
// boundary and grapheme clusters inside. Pure value operations: the Wayland presenter reaches
// them through the window and `EditableTextNode`, tests call them directly.

extension TextEditor {
    /// Shows `preedit` at the selection (it visually replaces the selected text until committed
    /// or cleared); nil or an empty text clears it. The cursor offsets are clamped into the
    /// pre-edit and rounded down to character (grapheme-cluster) boundaries; a negative or nil
    /// offset hides the cursor; a reversed range is put in order. The text does not change.
    public mutating func setPreedit(_ preedit: TextPreedit?) {
        guard let p = preedit, !p.text.isEmpty else { self.preedit = nil; return }
        guard let b = p.cursorBegin, let e = p.cursorEnd, b >= 0, e >= 0 else {
            self.preedit = TextPreedit(text: p.text, cursorBegin: nil, cursorEnd: nil)
            return
        }
        let lo = Self.characterBoundary(inUTF8: p.text, atOrBefore: min(b, e))
        let hi = Self.characterBoundary(inUTF8: p.text, atOrBefore: max(b, e))
        self.preedit = TextPreedit(text: p.text, cursorBegin: lo, cursorEnd: hi)
    }

    /// The pre-edit's cursor as a character range inside the pre-edit text (empty: a caret), or
    /// nil without a pre-edit or with its cursor hidden.
    public var preeditCursorCharacters: Range<Int>? {
        guard let p = preedit, let b = p.cursorBegin, let e = p.cursorEnd else { return nil }
        let lo = Self.characterCount(inUTF8Prefix: p.text, bytes: b)
        let hi = Self.characterCount(inUTF8Prefix: p.text, bytes: e)
        return lo..<max(lo, hi)
    }

    /// The text around the selection for an input method: at most `maximumBytes` of UTF-8, cut
    /// at character boundaries, always holding the caret (the selection's head) and as much of
    /// the selection and its surroundings as fit, balanced before and after. `cursor` and
    /// `anchor` are byte offsets into `text`; an anchor outside the window is clamped to it.
    /// The pre-edit is not included (the protocols say so).
    public func surroundingText(maximumBytes: Int = TextInputState.maximumBytes) -> (text: String, cursor: Int, anchor: Int) {
        let limit = max(0, maximumBytes)
        let chars = Array(string)
        let sizes = chars.map { $0.utf8.count }
        let sel = selection
        let head = max(0, min(sel.head, chars.count)), anchor = max(0, min(sel.anchor, chars.count))
        // Start with the caret, grow towards the anchor while it fits, then alternate outwards.
        var lo = head, hi = head, used = 0
        if anchor < head {
            while lo > anchor, used + sizes[lo - 1] <= limit { lo -= 1; used += sizes[lo] }
        } else {
            while hi < anchor, used + sizes[hi] <= limit { used += sizes[hi]; hi += 1 }
        }
        var grew = true
        while grew {
            grew = false
            if lo > 0, used + sizes[lo - 1] <= limit { lo -= 1; used += sizes[lo]; grew = true }
            if hi < chars.count, used + sizes[hi] <= limit { used += sizes[hi]; hi += 1; grew = true }
        }
        let text = String(chars[lo..<hi])
        func bytes(to i: Int) -> Int { sizes[lo..<max(lo, min(i, hi))].reduce(0, +) }
        return (text, bytes(to: head), bytes(to: anchor))
    }

    /// The characters a delete-surrounding request removes: `before` UTF-8 bytes before the
    /// selection's start and `after` bytes after its end, each widened to whole characters (a
    /// byte count ending inside "é" or a flag deletes the whole cluster) and clamped to the
    /// text. Negative counts are 0. Returns the two ranges (either may be empty).
    public func surroundingDeletion(before: Int, after: Int) -> (before: Range<Int>, after: Range<Int>) {
        let r = selection.range
        let chars = Array(string)
        var lo = r.lowerBound, bytes = 0
        while lo > 0, bytes < before { lo -= 1; bytes += chars[lo].utf8.count }
        var hi = r.upperBound
        bytes = 0
        while hi < chars.count, bytes < after { bytes += chars[hi].utf8.count; hi += 1 }
        return (lo..<r.lowerBound, r.upperBound..<hi)
    }

    /// Deletes around the selection as `surroundingDeletion(before:after:)` measures, keeping the
    /// selection (shifted by what went before it). Undoable, one group. Returns whether text
    /// changed.
    @discardableResult
    public mutating func deleteSurrounding(before: Int, after: Int) -> Bool {
        let d = surroundingDeletion(before: before, after: after)
        guard !d.before.isEmpty || !d.after.isEmpty else { return false }
        let sel = selection
        let shift = d.before.count
        breakUndoCoalescing()
        if !d.after.isEmpty { apply(TextEdit(range: d.after, replacement: "", kind: .other)) }
        if !d.before.isEmpty { apply(TextEdit(range: d.before, replacement: "", kind: .other)) }
        select(TextSelection(anchor: sel.anchor - shift, head: sel.head - shift))
        return true
    }

    /// Applies an input method's update in text-input-v3's order: the old pre-edit goes, the
    /// surrounding text is deleted, the commit replaces the selection (caret after it), and the
    /// new pre-edit shows at the caret. No delegate is asked (`EditableTextNode` asks its
    /// delegate for each step). Returns whether the text changed.
    @discardableResult
    public mutating func applyInputMethod(_ update: TextInputUpdate) -> Bool {
        setPreedit(nil)
        var changed = deleteSurrounding(before: update.deleteBefore, after: update.deleteAfter)
        if let commit = update.commit, !commit.isEmpty, let e = edit(for: .insert(commit)) {
            apply(e)
            changed = true
        }
        setPreedit(update.preedit)
        return changed
    }

    /// The largest character boundary at or before `bytes` in `text`'s UTF-8 (clamped to its
    /// length), in bytes.
    static func characterBoundary(inUTF8 text: String, atOrBefore bytes: Int) -> Int {
        var offset = 0
        for c in text {
            let n = c.utf8.count
            if offset + n > bytes { break }
            offset += n
        }
        return offset
    }

    /// How many whole characters of `text` the first `bytes` UTF-8 bytes hold.
    static func characterCount(inUTF8Prefix text: String, bytes: Int) -> Int {
        var offset = 0, count = 0
        for c in text {
            offset += c.utf8.count
            if offset > bytes { break }
            count += 1
        }
        return count
    }
}
