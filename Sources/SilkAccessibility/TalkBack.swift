import CSilkSpeech
import Foundation
import SilkGeometry
import SilkInput
import SilkNodes
import SilkSystem

/// How talk-back speaks: voice, rate, and where the audio goes.
public struct TalkBackOptions: Sendable, Equatable {
    /// An espeak-ng voice name ("en", "de", "fr", "en-us" …). Default "en".
    public var voice: String
    /// Words per minute, 80…450 (clamped). Default 175.
    public var rate: Int
    /// Write the speech to this WAV file (16-bit mono, rewritten after each utterance) instead of
    /// playing it on the default audio device: tests, and kiosks without sound to check offline.
    public var wavPath: String?

    /// Options with the defaults above.
    public init(voice: String = "en", rate: Int = 175, wavPath: String? = nil) {
        self.voice = voice
        self.rate = max(80, min(450, rate))
        self.wavPath = wavPath
    }

    /// The options `SILK_TALKBACK_VOICE`, `SILK_TALKBACK_RATE` and `SILK_TALKBACK_WAV` ask for
    /// (talk-back itself is on with `SILK_TALKBACK=1`; `SilkConfiguration` lists them).
    public init(configuration c: SilkConfiguration) {
        self.init(voice: c.talkBackVoice ?? "en", rate: c.talkBackRate ?? 175, wavPath: c.talkBackWAVPath)
    }
}

/// Spoken feedback for kiosks without a desktop screen reader (issue 20 item 3), with
/// espeak-ng (loaded at run time). While it is on, touches explore instead of acting: touching
/// or sliding over an element speaks it ("Next, button"); a double tap activates the element
/// last spoken; a horizontal swipe moves keyboard focus to the next (right) or previous (left)
/// element; focus moves by Tab are spoken too. Keys and the pointer work as usual.
///
/// **Threads.** `handle(_:)` is called by the window on the main thread; speech is
/// synthesized on the talk-back queue (`silk.talkback`), never the render thread.
public final class TalkBack: @unchecked Sendable {
    /// Each utterance, in order (tests, and the log: `talkback: …` at notice level). Any thread.
    public var spokenTexts: [String] { spoken.current }

    /// The tree spoken: the window's root node (the window sets it). Any thread.
    public var root: DisplayNode? {
        get { rootNode.current }
        set { rootNode.withLock { $0 = newValue } }
    }
    private let rootNode = Locked<DisplayNode?>(nil)
    private let dispatcher: @MainActor () -> InputDispatcher?
    private let options: TalkBackOptions
    private let queue = DispatchQueue(label: "silk.talkback")
    private let spoken = Locked<[String]>([])
    private var observerToken: AccessibilityNotifications.Token?
    private let sampleRate: Int

    // Main-thread touch state.
    private var touchStart: (id: Int, point: Point, time: Double)?
    private var lastSpokenID: UInt64?
    private var lastTap: (point: Point, time: Double)?

    /// Starts talk-back for the tree under `root`; `dispatcher` gives the window's input
    /// dispatcher (focus moves and activation). Returns nil, after one warning, when espeak-ng
    /// (libespeak-ng.so.1 and its voice data) is not installed or the voice is unknown. Main
    /// thread; one talk-back per process (espeak-ng has one engine).
    @MainActor
    public static func start(root: DisplayNode, options: TalkBackOptions,
                             dispatcher: @escaping @MainActor () -> InputDispatcher?) -> TalkBack? {
        let toFile = options.wavPath != nil
        let rate = silk_speech_open(toFile ? 1 : 0, toFile ? { samples, count in
            guard let samples, count > 0 else { return }
            TalkBackAudio.shared.withLock { $0.append(contentsOf: UnsafeBufferPointer(start: samples, count: Int(count))) }
        } : nil)
        guard rate > 0 else {
            logger.warning("talkback: off: \(rate == -1 ? "libespeak-ng.so.1 is not installed (Debian: libespeak-ng1)" : "espeak-ng failed to start (espeak-ng-data missing?)")")
            return nil
        }
        guard silk_speech_set_voice(options.voice) == 0 else {
            logger.warning("talkback: off: espeak-ng has no voice '\(options.voice)'")
            return nil
        }
        _ = silk_speech_set_rate(Int32(options.rate))
        let t = TalkBack(root: root, options: options, sampleRate: Int(rate), dispatcher: dispatcher)
        t.observerToken = AccessibilityNotifications.addObserver(FocusSpeaker(talkBack: t))
        logger.notice("talkback: on (voice \(options.voice), \(options.rate) words/min, \(options.wavPath.map { "writing \($0)" } ?? "default audio device"))")
        return t
    }

    private init(root: DisplayNode, options: TalkBackOptions, sampleRate: Int, dispatcher: @escaping @MainActor () -> InputDispatcher?) {
        rootNode.withLock { $0 = root }
        self.options = options
        self.sampleRate = sampleRate
        self.dispatcher = dispatcher
    }

    /// Stops listening for focus changes. Main thread.
    public func stop() {
        if let token = observerToken { AccessibilityNotifications.removeObserver(token) }
        observerToken = nil
    }

    /// Speaks focus moves (Tab, a swipe) as they happen.
    private final class FocusSpeaker: AccessibilityObserver, @unchecked Sendable {
        weak var talkBack: TalkBack?
        init(talkBack: TalkBack) { self.talkBack = talkBack }
        func accessibilityDidChange(_ change: AccessibilityChange, node: DisplayNode) {
            guard change.kind == .focus, let t = talkBack, let root = t.root else { return }
            var n: DisplayNode? = node
            while let x = n, x !== root { n = x.supernode }
            guard n != nil else { return }
            let element = node.accessibilitySnapshot()
            t.lastSpokenIDFromFocus(element.id)
            t.speak(TalkBack.utterance(for: element))
        }
    }

    private func lastSpokenIDFromFocus(_ id: UInt64) {
        // Called from whichever thread focused; the touch state is main-thread, so hop there.
        root?.performOnPassThread { [self] in lastSpokenID = id }
    }

    // MARK: Input (main thread)

    /// Takes touches (exploration, double tap, swipe) and returns true; other events return false
    /// and go to the dispatcher as usual. Main thread.
    @MainActor
    public func handle(_ event: InputEvent) -> Bool {
        switch event.kind {
        case .touchDown(let id, let p):
            guard touchStart == nil else { return true }
            touchStart = (id, p, event.timestamp)
            explore(at: p)
            return true
        case .touchMove(let id, let p):
            guard let start = touchStart, start.id == id else { return true }
            // Sliding slowly explores; a swipe is judged when the finger lifts.
            if abs(p.x - start.point.x) < 40 { explore(at: p) }
            return true
        case .touchUp(let id, let end):
            guard let start = touchStart, start.id == id else { return true }
            touchStart = nil
            let p = end ?? start.point
            let dx = p.x - start.point.x, dy = p.y - start.point.y
            if abs(dx) > 60, abs(dx) > 2 * abs(dy), event.timestamp - start.time < 0.6 {
                lastTap = nil
                dispatcher()?.moveFocus(forward: dx > 0)   // spoken by FocusSpeaker
                return true
            }
            if let tap = lastTap, event.timestamp - tap.time < 0.45, hypot(p.x - tap.point.x, p.y - tap.point.y) < 40 {
                lastTap = nil
                activateLastSpoken()
            } else {
                lastTap = (p, event.timestamp)
            }
            return true
        case .touchCancel:
            touchStart = nil
            return true
        default:
            return false
        }
    }

    private func explore(at p: Point) {
        guard let tree = root?.accessibilitySnapshot() else { return }
        guard let hit = Self.deepest(in: tree, containing: p), hit.id != lastSpokenID else { return }
        lastSpokenID = hit.id
        speak(Self.utterance(for: hit))
    }

    private func activateLastSpoken() {
        guard let id = lastSpokenID, let root, let node = Self.find(id, in: root) else { return }
        let element = node.accessibilitySnapshot()
        if element.actions.contains(.activate), node.performAccessibilityAction(.activate) {
            logger.notice("talkback: activated \(element.label ?? "")")
        } else {
            speak("\(element.label ?? "") cannot be activated")
        }
    }

    static func deepest(in e: AccessibilityElement, containing p: Point) -> AccessibilityElement? {
        guard e.frame.contains(p) || e.role == .none else { return nil }
        for c in e.children.reversed() { if let hit = deepest(in: c, containing: p) { return hit } }
        return e.role == .none || AccessibilityElement.containerRoles.contains(e.role) && e.label == nil ? nil : e
    }

    static func find(_ id: UInt64, in node: DisplayNode) -> DisplayNode? {
        if node.accessibilityID == id { return node }
        for c in node.subnodes { if let hit = find(id, in: c) { return hit } }
        return nil
    }

    /// What is said for an element: its name, role and notable states ("Next, button";
    /// "Name, text field, Ada"; "Orchid, button, selected").
    public static func utterance(for e: AccessibilityElement) -> String {
        var parts: [String] = []
        if let label = e.label, !label.isEmpty { parts.append(label) }
        let role: String? = switch e.role {
        case .button: "button"
        case .toggleButton, .switch: "switch"
        case .checkBox: "check box"
        case .radioButton: "radio button"
        case .slider: "slider"
        case .list: "list"
        case .listItem: nil
        case .textField: "text field"
        case .passwordField: "password field"
        case .image: "image"
        case .heading: "heading"
        case .pageTab: "tab"
        case .dialog, .alert: "dialog"
        default: nil
        }
        if let role { parts.append(role) }
        if let v = e.value, !v.isEmpty, e.role != .passwordField { parts.append(v) }
        if let count = e.itemCount { parts.append("\(count) items") }
        if e.states.contains(.checked) { parts.append("checked") }
        if e.states.contains(.selected) { parts.append("selected") }
        if e.states.contains(.disabled) { parts.append("dimmed") }
        return parts.joined(separator: ", ")
    }

    // MARK: Speech (the talk-back queue)

    /// Speaks `text` on the talk-back queue (a newer utterance interrupts one playing on the
    /// audio device). Any thread.
    public func speak(_ text: String) {
        guard !text.isEmpty else { return }
        spoken.withLock { $0.append(text) }
        logger.notice("talkback: \(text)")
        let wav = options.wavPath, rate = sampleRate
        if wav == nil { silk_speech_cancel() }
        queue.async {
            _ = silk_speech_speak(text)
            if let wav { TalkBackAudio.write(to: wav, sampleRate: rate) }
        }
    }
}

/// The samples synthesized for the WAV file so far (at most ten minutes).
enum TalkBackAudio {
    static let shared = Locked<[Int16]>([])

    /// Rewrites `path` with every sample so far (talk-back queue).
    static func write(to path: String, sampleRate: Int) {
        let samples = shared.withLock { s -> [Int16] in
            if s.count > sampleRate * 600 { s.removeLast(s.count - sampleRate * 600) }
            return s
        }
        var d = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) } }
        let bytes = UInt32(samples.count * 2)
        d.append(contentsOf: Array("RIFF".utf8)); u32(36 + bytes); d.append(contentsOf: Array("WAVE".utf8))
        d.append(contentsOf: Array("fmt ".utf8)); u32(16); u16(1); u16(1); u32(UInt32(sampleRate)); u32(UInt32(sampleRate * 2)); u16(2); u16(16)
        d.append(contentsOf: Array("data".utf8)); u32(bytes)
        samples.withUnsafeBytes { d.append(contentsOf: $0) }
        do { try d.write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            logger.warning("talkback: cannot write \(path): \(error)")
        }
    }
}
