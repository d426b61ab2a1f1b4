import CWaylandClient
import CWaylandProtocols
import Glibc
import SilkGeometry
import SilkInput

/// Input methods through `zwp_text_input_v3` (fcitx5, IBus, on-screen keyboards): one text input
/// per seat (main thread).
///
/// - While the seat's keyboard focus is on the window (`enter`) and the window has a focused
///   text field (`update(_:)` with a state), the text input is enabled with the field's
///   surrounding text (at most 4000 bytes, cut at character boundaries by the editing model),
///   content type and cursor rectangle (surface coordinates: window points), then committed.
///   Later changes send only what changed, then commit; no field: `disable` + commit.
/// - Events (`preedit_string`, `commit_string`, `delete_surrounding_text`) are collected as
///   pending state and delivered as one `TextInputUpdate` on `done`, which applies them
///   atomically, in the protocol's order (the editing model does the ordering). They are applied
///   whatever `done`'s serial; the field's new state is sent afterwards with cause
///   `input_method`, so a compositor that counted commits differently catches up.
final class WaylandTextInput {
    let seat: WaylandSeat
    private let proxy: OpaquePointer
    /// Receives each applied update (main thread).
    var onUpdate: ((TextInputUpdate) -> Void)?
    /// The window's surface: enter/leave for other surfaces are ignored.
    var windowSurface: OpaquePointer?

    /// Whether the seat's keyboard focus is on our surface (between `enter` and `leave`).
    private(set) var hasFocus = false
    /// Whether `enable` was sent (and not `disable` since, nor a `leave`).
    private(set) var isEnabled = false
    /// What the window wants: the focused field's state, or nil.
    private var wanted: TextInputState?
    /// What was last committed to the compositor.
    private var sent: TextInputState?
    /// `commit` requests sent: what a matching `done` quotes.
    private(set) var commitCount: UInt32 = 0
    /// The next state change was made by the input method (its own update).
    private var changeFromInputMethod = false

    // Pending until `done`.
    private var pendingPreedit: TextPreedit?
    private var pendingCommit: String?
    private var pendingDelete = (before: 0, after: 0)

    init(manager: OpaquePointer, seat: WaylandSeat) {
        self.seat = seat
        proxy = zwp_text_input_manager_v3_get_text_input(manager, seat.proxy)
        zwp_text_input_v3_add_listener(proxy, textInputListener, unretained(self))
    }

    func destroy() { zwp_text_input_v3_destroy(proxy) }

    /// The window's focused-field state (nil: none); sent when focus is here. Main thread.
    func update(_ state: TextInputState?) {
        wanted = state
        send()
    }

    /// Brings the compositor's view in line with `wanted`.
    private func send() {
        guard hasFocus else { return }
        guard let state = wanted else {
            if isEnabled {
                zwp_text_input_v3_disable(proxy)
                commit()
                isEnabled = false
                sent = nil
            }
            return
        }
        var changed = false
        if !isEnabled {
            zwp_text_input_v3_enable(proxy)
            isEnabled = true
            sent = nil
            changed = true
        }
        if sent?.surroundingText != state.surroundingText || sent?.cursor != state.cursor || sent?.anchor != state.anchor {
            zwp_text_input_v3_set_surrounding_text(proxy, state.surroundingText, Int32(clamping: state.cursor), Int32(clamping: state.anchor))
            let cause = changeFromInputMethod ? ZWP_TEXT_INPUT_V3_CHANGE_CAUSE_INPUT_METHOD : ZWP_TEXT_INPUT_V3_CHANGE_CAUSE_OTHER
            zwp_text_input_v3_set_text_change_cause(proxy, cause.rawValue)
            changed = true
        }
        if sent?.contentType != state.contentType {
            zwp_text_input_v3_set_content_type(proxy, Self.hints(state.contentType.hints), Self.purpose(state.contentType.purpose))
            changed = true
        }
        if sent?.cursorRectangle != state.cursorRectangle {
            let r = state.cursorRectangle
            func px(_ v: Double) -> Int32 { v.isFinite ? Int32(clamping: Int(v.rounded(.down))) : 0 }
            zwp_text_input_v3_set_cursor_rectangle(proxy, px(r.minX), px(r.minY), max(1, px(r.width.rounded(.up))), max(1, px(r.height.rounded(.up))))
            changed = true
        }
        changeFromInputMethod = false
        sent = state
        if changed { commit() }
    }

    private func commit() {
        zwp_text_input_v3_commit(proxy)
        commitCount &+= 1
        seat.display.flush()
    }

    // MARK: Events

    fileprivate func handleEnter(_ surface: OpaquePointer?) {
        guard surface == windowSurface else { return }
        hasFocus = true
        isEnabled = false
        send()
    }

    fileprivate func handleLeave(_ surface: OpaquePointer?) {
        guard surface == windowSurface else { return }
        // The compositor disables the text input on leave; a pre-edit shown goes with it.
        hasFocus = false
        isEnabled = false
        sent = nil
        if wanted != nil { onUpdate?(TextInputUpdate()) }
    }

    fileprivate func handlePreedit(_ text: String?, _ begin: Int32, _ end: Int32) {
        pendingPreedit = text.map { TextPreedit(text: $0, cursorBegin: begin < 0 ? nil : Int(begin), cursorEnd: end < 0 ? nil : Int(end)) }
    }

    fileprivate func handleCommit(_ text: String?) { pendingCommit = text }

    fileprivate func handleDelete(before: UInt32, after: UInt32) { pendingDelete = (Int(before), Int(after)) }

    fileprivate func handleDone(serial: UInt32) {
        let update = TextInputUpdate(preedit: pendingPreedit, commit: pendingCommit,
                                     deleteBefore: pendingDelete.before, deleteAfter: pendingDelete.after)
        pendingPreedit = nil; pendingCommit = nil; pendingDelete = (0, 0)
        if WaylandSeat.debug {
            print("wayland: text-input done serial \(serial) (commits sent \(commitCount)): preedit \(update.preedit.map { "\"\($0.text)\"" } ?? "none"), commit \(update.commit.map { "\"\($0)\"" } ?? "none"), delete \(update.deleteBefore)/\(update.deleteAfter)")
            fflush(nil)
        }
        guard isEnabled else { return }
        changeFromInputMethod = true
        onUpdate?(update)
    }

    // MARK: Content type

    static func purpose(_ p: TextContentPurpose) -> UInt32 {
        let v: zwp_text_input_v3_content_purpose
        switch p {
        case .normal: v = ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_NORMAL
        case .alpha: v = ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_ALPHA
        case .digits: v = ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_DIGITS
        case .number: v = ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_NUMBER
        case .phone: v = ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_PHONE
        case .url: v = ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_URL
        case .email: v = ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_EMAIL
        case .name: v = ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_NAME
        case .password: v = ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_PASSWORD
        case .pin: v = ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_PIN
        case .date: v = ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_DATE
        case .time: v = ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_TIME
        case .dateTime: v = ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_DATETIME
        case .terminal: v = ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_TERMINAL
        }
        return v.rawValue
    }

    /// `TextContentHints` carries text-input-v3's bit values; unknown bits are dropped.
    static func hints(_ h: TextContentHints) -> UInt32 { h.rawValue & 0x3ff }
}

private nonisolated(unsafe) let textInputListener = stableListener(zwp_text_input_v3_listener(
    enter: { data, _, surface in owner(data, as: WaylandTextInput.self).handleEnter(surface) },
    leave: { data, _, surface in owner(data, as: WaylandTextInput.self).handleLeave(surface) },
    preedit_string: { data, _, text, begin, end in
        owner(data, as: WaylandTextInput.self).handlePreedit(text.map { String(cString: $0) }, begin, end)
    },
    commit_string: { data, _, text in owner(data, as: WaylandTextInput.self).handleCommit(text.map { String(cString: $0) }) },
    delete_surrounding_text: { data, _, before, after in
        owner(data, as: WaylandTextInput.self).handleDelete(before: before, after: after)
    },
    done: { data, _, serial in owner(data, as: WaylandTextInput.self).handleDone(serial: serial) }))
