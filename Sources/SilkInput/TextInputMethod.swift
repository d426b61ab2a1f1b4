import SilkGeometry

// Input methods (fcitx5, IBus, on-screen keyboards speaking text-input-v3): the values that pass
// between a focused text field and a presenter that talks to the system's input method, with no
// node and no protocol in them. The Wayland presenter maps them to `zwp_text_input_v3`; the
// window (module Silk) maps them to the focused `EditableTextNode`. Lengths and offsets into text
// are UTF-8 **bytes**, as the Wayland protocols count them; the editing model converts them to
// grapheme clusters (docs/editing.md, "Input methods").

/// What a text field is for, so an input method can offer the right keyboard or candidates
/// (text-input-v3's `content_purpose`).
public enum TextContentPurpose: Hashable, Sendable, CaseIterable {
    /// Any text (the default).
    case normal
    /// Letters only.
    case alpha
    /// Digits only (a PIN without secrecy, a quantity).
    case digits
    /// A number: digits, sign, decimal separator.
    case number
    /// A telephone number.
    case phone
    /// A web address.
    case url
    /// An e-mail address.
    case email
    /// A person's name.
    case name
    /// A password: pair it with `TextContentHints.hiddenText` and `.sensitiveData`.
    case password
    /// A numeric PIN (secret digits).
    case pin
    /// A date.
    case date
    /// A time of day.
    case time
    /// A date and time.
    case dateTime
    /// A terminal: the input method should pass keys through.
    case terminal
}

/// Hints that refine a purpose (text-input-v3's `content_hint` bits).
public struct TextContentHints: OptionSet, Hashable, Sendable {
    /// The raw bits, in text-input-v3's order.
    public let rawValue: UInt32
    /// Hints from raw bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Suggest completions.
    public static let completion = TextContentHints(rawValue: 0x1)
    /// Check spelling.
    public static let spellcheck = TextContentHints(rawValue: 0x2)
    /// Capitalize sentences.
    public static let autoCapitalization = TextContentHints(rawValue: 0x4)
    /// Prefer lower case.
    public static let lowercase = TextContentHints(rawValue: 0x8)
    /// Prefer upper case.
    public static let uppercase = TextContentHints(rawValue: 0x10)
    /// Prefer title case.
    public static let titlecase = TextContentHints(rawValue: 0x20)
    /// The characters are not shown (a password field).
    public static let hiddenText = TextContentHints(rawValue: 0x40)
    /// The text must not be learnt or remembered (passwords, card numbers).
    public static let sensitiveData = TextContentHints(rawValue: 0x80)
    /// Latin characters only.
    public static let latin = TextContentHints(rawValue: 0x100)
    /// The field takes several lines (Enter is a line break).
    public static let multiline = TextContentHints(rawValue: 0x200)
}

/// A field's purpose and hints together.
public struct TextContentType: Hashable, Sendable {
    /// What the field is for.
    public var purpose: TextContentPurpose
    /// How the input method should treat it.
    public var hints: TextContentHints
    /// A content type (default: normal text, no hints).
    public init(purpose: TextContentPurpose = .normal, hints: TextContentHints = []) {
        self.purpose = purpose; self.hints = hints
    }
}

/// Text being composed by an input method (pre-edit): shown at the caret, underlined, not yet
/// part of the field's text. `cursorBegin`/`cursorEnd` are UTF-8 byte offsets into `text`
/// (equal: a caret; different: a highlighted range); nil hides the cursor (the protocol's -1).
public struct TextPreedit: Hashable, Sendable {
    /// The composed text.
    public var text: String
    /// Where the pre-edit's cursor (or highlighted range) begins, in bytes; nil: no cursor.
    public var cursorBegin: Int?
    /// Where it ends, in bytes; nil: no cursor.
    public var cursorEnd: Int?
    /// A pre-edit; the cursor offsets are kept as given (the editing model clamps them to
    /// character boundaries inside `text`).
    public init(text: String, cursorBegin: Int?, cursorEnd: Int?) {
        self.text = text; self.cursorBegin = cursorBegin; self.cursorEnd = cursorEnd
    }
}

/// One atomic change from an input method (text-input-v3's state applied at `done`). Applied in
/// the protocol's order: remove the old pre-edit, delete `deleteBefore`/`deleteAfter` bytes around
/// the selection, insert `commit`, then show `preedit` at the caret.
public struct TextInputUpdate: Hashable, Sendable {
    /// The new pre-edit (nil or empty text: none).
    public var preedit: TextPreedit?
    /// Text to insert in place of the selection (nil: none).
    public var commit: String?
    /// UTF-8 bytes to delete before the selection's start.
    public var deleteBefore: Int
    /// UTF-8 bytes to delete after the selection's end.
    public var deleteAfter: Int
    /// An update; negative delete lengths count as 0.
    public init(preedit: TextPreedit? = nil, commit: String? = nil, deleteBefore: Int = 0, deleteAfter: Int = 0) {
        self.preedit = preedit; self.commit = commit
        self.deleteBefore = max(0, deleteBefore); self.deleteAfter = max(0, deleteAfter)
    }
}

/// What a focused field tells the input method: the text around the caret (at most
/// `SurroundingText.maximumBytes` bytes, cut at character boundaries), the caret and anchor in
/// bytes into it, the content type and the caret's rectangle in window points.
public struct TextInputState: Hashable, Sendable {
    /// Text around the caret, without the pre-edit.
    public var surroundingText: String
    /// The caret (selection head), in bytes into `surroundingText`.
    public var cursor: Int
    /// The selection anchor, in bytes into `surroundingText` (equal to `cursor` without a selection).
    public var anchor: Int
    /// The field's purpose and hints.
    public var contentType: TextContentType
    /// The caret (or pre-edit cursor) rectangle in window points, for placing candidate windows.
    public var cursorRectangle: Rect
    /// The largest surrounding text sent, in bytes: text-input-v3's limit (a Wayland message is at
    /// most 4096 bytes).
    public static let maximumBytes = 4000
    /// A state.
    public init(surroundingText: String, cursor: Int, anchor: Int, contentType: TextContentType, cursorRectangle: Rect) {
        self.surroundingText = surroundingText; self.cursor = cursor; self.anchor = anchor
        self.contentType = contentType; self.cursorRectangle = cursorRectangle
    }
}

/// A presenter that can talk to the system's input method (the Wayland presenter, when the
/// compositor offers text-input-v3). Main thread.
public protocol TextInputPresenting: AnyObject {
    /// Enables the input method for a focused field with `state`, sends a changed state, or
    /// (nil) disables it because no text field has focus. Called on the main thread whenever
    /// the state changes; the presenter sends only what changed.
    @MainActor func updateTextInput(_ state: TextInputState?)
}
