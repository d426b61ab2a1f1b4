import Foundation
import SilkGeometry
import SilkInput
import SilkLayout
import SilkRaster
import SilkRunLoop

/// What kind of on-screen keyboard a field wants (its content type): `KeyboardAvoidingNode`
/// shows the keyboard's page for it when the field begins editing.
public enum KeyboardType: Hashable, Sendable {
    /// Letters (the default).
    case text
    /// A numeric pad: digits, decimal separators and minus.
    case number
    /// A PIN pad: large digit keys (optionally shuffled), backspace and enter.
    case pin
}

/// An on-screen keyboard for touch-only kiosks: a letters page (with a one-shot shift, tapped
/// twice: caps lock) and a numbers-and-symbols page, backspace, space and enter, plus a numeric
/// pad and a PIN pad for fields that want them. Keys type on release into `target`, through
/// `EditableTextNode.perform(_:)`, so the delegate sees typed keys exactly as it sees physical
/// ones. Keys are buttons that never take focus, and touches on the keyboard keep focus
/// (`touchesKeepFocus`), so the caret stays in the field.
///
/// Without `layouts` the letters page is the built-in US QWERTY. With layouts (read from xkb:
/// `setLayouts(_:)`) the letters page shows the current layout's letter keys and dead keys, a
/// layout key (showing the layout's short name) cycles through them, and right-to-left layouts
/// are laid out right to left, and holding a letter key shows its accented variants above it
/// (sliding onto one and lifting types it). Main thread for input; configure anywhere before showing.
public final class KeyboardNode: DisplayNode, @unchecked Sendable {
    /// The key layouts the keyboard switches between.
    public enum Page: Sendable {
        /// QWERTY letters (or the current xkb layout's), shift, and `@` beside space.
        case letters
        /// Digits, punctuation and symbols, `_` beside space.
        case symbols
        /// A numeric pad: 0–9, `.`, `,`, `-`, backspace and enter.
        case numeric
        /// A PIN pad: 0–9 in large keys, backspace and enter.
        case pin
    }

    /// What a key does.
    public enum KeyAction: Hashable, Sendable {
        /// Types the string (upper-cased on the letters page while shifted or caps-locked; with an
        /// xkb layout, the key's Shift level when that is a letter).
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
        /// A dead key of an xkb layout (its plain keysym): the next key types its composition
        /// (dead acute then e: é); tapped twice it types the accent, followed by space what the
        /// Compose table gives for space. With Shift, the key's level-2 dead key.
        case deadKey(UInt32)
        /// Switches to the next of `layouts` (shown when there are two or more).
        case nextLayout
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
    /// The dead key waiting for the next key, if any. Main thread.
    public private(set) var pendingDeadKey: UInt32?

    /// The xkb layouts the letters page cycles through (empty: the built-in US QWERTY). Main
    /// thread; set with `setLayouts(_:)` or directly.
    public var layouts: [XKBLayoutTable] = [] {
        didSet {
            layoutIndex = 0
            layoutKeys = [:]
            showLetters()
        }
    }
    /// The index in `layouts` of the layout shown. Main thread.
    public private(set) var layoutIndex = 0
    /// The layout the letters page shows, nil for the built-in US QWERTY. Main thread.
    public var currentLayout: XKBLayoutTable? { layouts.isEmpty ? nil : layouts[layoutIndex] }
    /// Whether the PIN pad's digits are shuffled each time it is shown (against shoulder
    /// surfing; default false). Main thread.
    public var shufflesPINDigits = false

    static let letterRows = ["qwertyuiop", "asdfghjkl", "zxcvbnm"]
    static let symbolRows = ["1234567890", "-/:;()&@\"", ".,?!'#%+"]

    typealias Key = (action: KeyAction, button: ButtonNode)
    /// Every key's button with its action, per page (built on first use).
    private var keys: [Page: [[Key]]] = [:]
    /// The letters pages of the xkb layouts, by index in `layouts` (built on first use).
    private var layoutKeys: [Int: [[Key]]] = [:]
    /// The long-press popup: its cells and the variants they type.
    private let popup = DisplayNode()
    private var popupCells: [ButtonNode] = []
    private var popupVariants: [String] = []
    private var popupSelection = 0
    private var popupOrigin = Point.zero
    private var popupCellWidth = 0.0
    private var popupCellHeight = 0.0
    /// The variants shown by the long press under way, left to right (for tests). Main thread.
    public var shownVariants: [String] { popup.isHidden ? [] : popupVariants }

    /// Creates the keyboard on its letters page, its buttons built once per page. Give it
    /// a height (its style); keys share each row's width by weight. Any thread.
    public override init() {
        super.init()
        name = "keyboard"
        backgroundColor = Color(rgb: 0xd1d5db)
        automaticallyManagesSubnodes = true
        for p in [Page.letters, .symbols] { keys[p] = makeRows(p) }
        popup.isHidden = true
        popup.isUserInteractionEnabled = false
        popup.backgroundColor = Color(rgb: 0x374151)
        popup.cornerRadius = 8
        popup.automaticallyManagesSubnodes = true
        addGestureRecognizer(KeyVariantsRecognizer(keyboard: self))
        updateTitles()
    }

    /// The most layouts `setLayouts(_:includingEnvironment:)` loads (the user's own included);
    /// names beyond are skipped with an error.
    public static let maximumLayouts = 16

    /// Loads the layouts named (xkb names: "de", "fr(bepo)") after the user's own
    /// (`XKB_DEFAULT_LAYOUT`, when `includingEnvironment`), skipping duplicates and names
    /// beyond `maximumLayouts`. A name xkb does
    /// not know, or a layout whose keys type no letter, is skipped with an error logged and
    /// returned; when none loads, the keyboard falls back to xkb's "us" (and to the built-in
    /// US QWERTY if even that cannot be compiled). Main thread.
    @discardableResult
    public func setLayouts(_ names: [String], includingEnvironment: Bool = true) -> [XKBError] {
        var errors: [XKBError] = []
        var loaded: [XKBLayoutTable] = []
        let composer = XKBComposer()
        var all: [String] = []
        for name in (includingEnvironment ? XKBLayoutTable.environmentLayouts() : []) + names where !all.contains(name) {
            // Each name costs an xkb keymap compile (~13 ms): a list of thousands would stall
            // the main thread, and a layout key cycling through more than a few is no keyboard.
            guard all.count < Self.maximumLayouts else {
                let error = XKBError("more than \(Self.maximumLayouts) keyboard layouts: \"\(name)\" and the rest are skipped")
                logger.error("on-screen keyboard: \(error.description)")
                errors.append(error)
                break
            }
            all.append(name)
        }
        for name in all {
            do { loaded.append(try XKBLayoutTable.load(name, composer: composer)) }
            catch {
                logger.error("on-screen keyboard: \(error.description)")
                errors.append(error)
            }
        }
        if loaded.isEmpty, !all.isEmpty {
            if let us = try? XKBLayoutTable.load("us", composer: composer) {
                logger.error("on-screen keyboard: no layout could be loaded; using us")
                loaded = [us]
            } else {
                logger.error("on-screen keyboard: no layout could be loaded, not even us (xkb data missing?); using the built-in US keys")
            }
        }
        layouts = loaded
        return errors
    }

    private func makeRows(_ p: Page) -> [[Key]] {
        var out: [[KeyAction]]
        switch p {
        case .letters, .symbols:
            let rows = p == .letters ? Self.letterRows : Self.symbolRows
            out = rows.map { $0.map { .character(String($0)) } }
            out[2] = (p == .letters ? [.shift] : [.page(.letters)]) + out[2] + [.backspace]
            out.append([.page(p == .letters ? .symbols : .letters), .character(p == .letters ? "@" : "_"), .space,
                        .character("."), .enter])
        case .numeric:
            out = [["1", "2", "3", "-"], ["4", "5", "6", "."], ["7", "8", "9", ","]].map { $0.map { .character($0) } }
            out.append([.backspace, .character("0"), .enter])
        case .pin:
            var digits = (1...9).map(String.init) + ["0"]
            if shufflesPINDigits { digits.shuffle() }
            out = (0..<3).map { r in digits[(r * 3)..<(r * 3 + 3)].map { .character($0) } }
            out.append([.backspace, .character(digits[9]), .enter])
        }
        // Pad keys share their row equally.
        let padWeight: Double? = p == .numeric || p == .pin ? 1 : nil
        return out.map { row in row.map { action in (action, makeKey(action, weight: padWeight)) } }
    }

    /// The letters page of `layouts[index]`: its letter rows, shift and backspace around the
    /// last, and the bottom row with the layout key.
    private func makeLayoutRows(_ index: Int) -> [[Key]] {
        let layout = layouts[index]
        var out: [[KeyAction]] = layout.letterRows.map { row in
            row.compactMap { key -> KeyAction? in
                guard let s = key.symbol(0) else { return nil }
                return s.isDead ? .deadKey(s.keysym) : .character(s.text)
            }
        }
        out[out.count - 1] = [.shift] + out[out.count - 1] + [.backspace]
        out.append([.page(.symbols)] + (layouts.count > 1 ? [.nextLayout] : []) + [.character("@"), .space, .character("."), .enter])
        return out.map { row in row.map { action in (action, makeKey(action)) } }
    }

    private func makeKey(_ action: KeyAction, weight: Double? = nil) -> ButtonNode {
        let b = ButtonNode()
        b.isFocusable = false
        b.cornerRadius = 6
        let special: Bool
        switch action { case .character: special = false; default: special = true }
        b.setBackgroundColor(special ? Color(rgb: 0xaab0bb) : .white)
        b.setBackgroundColor(Color(rgb: 0x8a93a3), for: .highlighted)
        b.updateStyle { s in
            s.flexGrow = weight ?? Self.weight(of: action)
            s.flexShrink = 1
            s.flexBasis = .points(0)
            // A right-to-left layout places the keys from the right; each key's label stays centred.
            s.direction = .ltr
        }
        b.addTarget(for: .primaryActionTriggered) { [weak self] _, _ in self?.tap(action) }
        return b
    }

    static func weight(of action: KeyAction) -> Double {
        switch action {
        case .space: 5
        case .shift, .backspace, .page, .nextLayout: 1.5
        case .enter: 2
        case .character, .deadKey: 1
        }
    }

    /// The xkb key of the current layout whose plain level types `text` (or is dead key `keysym`).
    private func layoutKey(text: String? = nil, keysym: UInt32? = nil) -> XKBLayoutKey? {
        guard let layout = currentLayout else { return nil }
        for row in layout.letterRows {
            for key in row {
                guard let s = key.symbol(0) else { continue }
                if let text, !s.isDead, s.text == text { return key }
                if let keysym, s.isDead, s.keysym == keysym { return key }
            }
        }
        return nil
    }

    /// What a letter key types now: with an xkb layout and Shift, the key's Shift level when it
    /// is a letter (but not a Latin one on a non-Latin key: Hebrew keys carry QWERTY capitals at
    /// level 2), else the plain letter upper-cased (ß and ש stay as they are).
    private func typedSymbol(_ c: String) -> XKBKeySymbol? {
        let upper = (shifted || capsLock) && page == .letters
        if let key = layoutKey(text: c), let plain = key.symbol(0) {
            guard upper else { return plain }
            if let s = key.symbol(1), s.text.count == 1, s.text.first!.isLetter,
               !(s.text.first!.isASCII && !plain.text.first!.isASCII) { return s }
            let u = c.uppercased()
            return u.count == 1 ? XKBKeySymbol(keysym: 0, text: u) : plain
        }
        return nil
    }

    private func typedText(_ c: String) -> String {
        if let s = typedSymbol(c) { return s.text }
        return (shifted || capsLock) && page == .letters ? c.uppercased() : c
    }

    private func title(of action: KeyAction) -> String {
        switch action {
        case let .character(c): typedText(c)
        case let .deadKey(k):
            ((shifted || capsLock) ? layoutKey(keysym: k)?.symbol(1)?.label : nil) ?? XKBKeySymbol(keysym: k, text: "").label
        case .shift: capsLock ? "⇪" : "⇧"
        case .backspace: "⌫"
        case .enter: "Enter"
        case .space: currentLayout?.description ?? "space"
        case let .page(p): p == .letters ? lettersTitle : "123"
        case .nextLayout: currentLayout?.shortName ?? "🌐"
        }
    }

    /// The letters key's title: "ABC", or the current layout's first three letters ("ЙЦУ").
    private var lettersTitle: String {
        guard let layout = currentLayout else { return "ABC" }
        let letters = layout.letterRows.flatMap { $0 }.compactMap { k -> String? in
            guard let s = k.symbol(0), !s.isDead else { return nil }
            return s.text
        }
        return letters.prefix(3).joined().uppercased()
    }

    private func updateTitles() {
        let pages = keys.map { ($0.key, $0.value, false) } + layoutKeys.values.map { (Page.letters, $0, true) }
        for (p, rows, fromLayout) in pages {
            for row in rows {
                for (action, button) in row {
                    var a = TextAttributes(fontSize: 22, color: Color(rgb: 0x111827))
                    switch action {
                    case .character, .deadKey: if p == .pin { a.fontSize = 32 }
                    default: a.fontSize = 18
                    }
                    // Centred explicitly: a right-to-left label would otherwise sit at its key's right.
                    if fromLayout { a.alignment = .center }
                    if action == .shift && (shifted || capsLock) { a.color = Color(rgb: 0x1d4ed8) }
                    if case let .deadKey(k) = action, k == pendingDeadKey { a.color = Color(rgb: 0x1d4ed8) }
                    button.setTitle(title(of: action), attributes: a)
                }
            }
        }
    }

    /// The rows of the page shown.
    private var visibleRows: [[Key]] {
        if page == .letters, currentLayout != nil {
            if layoutKeys[layoutIndex] == nil { layoutKeys[layoutIndex] = makeLayoutRows(layoutIndex); updateTitles() }
            return layoutKeys[layoutIndex] ?? []
        }
        if keys[page] == nil { keys[page] = makeRows(page); updateTitles() }
        return keys[page] ?? []
    }

    /// The buttons of the page shown, row by row (for tests and the demo's key map). Main thread.
    public var visibleKeys: [(action: KeyAction, button: ButtonNode)] { visibleRows.flatMap { $0 } }

    /// Shows the page for a field's keyboard type: the numeric or PIN pad, or the letters page
    /// (when a pad was shown). Main thread.
    public func show(_ type: KeyboardType) {
        switch type {
        case .number: switchPage(.numeric)
        case .pin:
            if shufflesPINDigits { keys[.pin] = nil }
            switchPage(.pin)
        case .text: if page == .numeric || page == .pin { switchPage(.letters) }
        }
    }

    private func showLetters() { switchPage(.letters) }

    private func switchPage(_ p: Page) {
        page = p
        shifted = false; capsLock = false; pendingDeadKey = nil
        hideVariants()
        _ = visibleRows
        updateTitles()
        setNeedsLayout()
    }

    private func insert(_ text: String) {
        target?.perform(.insert(text))
        if shifted && !capsLock { shifted = false; updateTitles() }
    }

    /// Acts as if the key was tapped. Main thread.
    public func tap(_ action: KeyAction) {
        switch action {
        case let .character(c):
            var text = typedText(c)
            if let dead = pendingDeadKey {
                pendingDeadKey = nil
                if let sym = typedSymbol(c), let composed = currentLayout?.deadKeyCompositions[dead]?[sym.keysym] { text = composed }
                updateTitles()
            }
            insert(text)
        case let .deadKey(k):
            // Shift selects the key's Shift-level dead key (French ^ and ¨ share a key).
            var sym = k
            if shifted || capsLock, let s = layoutKey(keysym: k)?.symbol(1), s.isDead { sym = s.keysym }
            if let pending = pendingDeadKey {
                pendingDeadKey = nil
                // The accent itself (as the Compose table's dead key twice: ´ ´ → ´).
                let spacing = XKBKeySymbol(keysym: pending, text: "").label
                if pending == sym { updateTitles(); insert(spacing); break }
                insert(spacing)
            }
            pendingDeadKey = sym
            if shifted && !capsLock { shifted = false }
            updateTitles()
        case .space:
            if let dead = pendingDeadKey {
                pendingDeadKey = nil
                updateTitles()
                insert(currentLayout?.deadKeyCompositions[dead]?[0x20] ?? " ")
            } else {
                target?.perform(.insert(" "))
            }
        case .backspace:
            if pendingDeadKey != nil { pendingDeadKey = nil; updateTitles() }
            else { target?.perform(.deleteBackward(.character)) }
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
            switchPage(p)
        case .nextLayout:
            if !layouts.isEmpty { layoutIndex = (layoutIndex + 1) % layouts.count }
            switchPage(.letters)
        }
        keyTyped?(action)
    }

    // MARK: Long press: accented variants (main thread)

    /// The accented variants a long press on `action`'s key offers now: the layout's (AltGr
    /// levels, dead-key compositions, Latin accents — see `XKBLayoutTable.variants`). None on the
    /// built-in US keys (no layout set), which keep their behaviour: a held key types on release.
    /// Main thread.
    public func variants(for action: KeyAction) -> [String] {
        guard page == .letters, case let .character(c) = action, let layout = currentLayout else { return [] }
        return layout.variants[typedText(c)] ?? []
    }

    /// The key under `point` (this node's coordinates) on the page shown.
    func key(at point: Point) -> Key? {
        visibleKeys.first { key in
            let p = key.button.convert(point, from: self)
            return key.button.bounds.contains(p)
        }
    }

    /// Shows the variants of `key` in a row above it, the first selected (for a right-to-left
    /// layout the row runs from the right).
    func showVariants(_ list: [String], above key: ButtonNode) {
        let rtl = currentLayout?.isRightToLeft == true
        popupVariants = rtl ? list.reversed() : list
        popupSelection = rtl ? list.count - 1 : 0
        let kf = Rect(origin: key.convert(Point.zero, to: self), size: key.bounds.size)
        let w = max(kf.width, 36), h = kf.height
        let total = w * Double(list.count) + 8
        var x = kf.midX - total / 2
        x = max(0, min(x, bounds.width - total))
        popupOrigin = Point(x: x, y: kf.minY - h - 12)
        popupCellWidth = w
        popupCellHeight = h
        popupCells = list.map { v in
            let b = ButtonNode()
            b.isFocusable = false
            b.isUserInteractionEnabled = false
            b.cornerRadius = 6
            b.updateStyle { $0.width = .points(w); $0.height = .points(h) }
            return b
        }
        popup.layoutSpecBlock = { [cells = popupCells] _, _ in
            InsetLayoutSpec(insets: EdgeInsets(all: 4), child: StackLayoutSpec(direction: .horizontal, spacing: 0, children: cells))
        }
        popup.setNeedsLayout()
        popup.updateStyle { s in
            s.layoutPosition = Point(x: x, y: kf.minY - h - 12)
            s.width = .points(total)
            s.height = .points(h + 8)
        }
        popup.isHidden = false
        highlightSelection()
        setNeedsLayout()
    }

    /// The centre of the popup's cell `i` in window points (for tests), nil when none is shown.
    func popupCellCentre(_ i: Int) -> Point? {
        guard !popup.isHidden, i >= 0, i < popupCells.count else { return nil }
        let local = Point(x: popupOrigin.x + 4 + popupCellWidth * (Double(i) + 0.5), y: popupOrigin.y + 4 + popupCellHeight / 2)
        return convert(local, to: nil)
    }

    /// Selects the variant under `point` (this node's coordinates; beyond the ends, the end).
    func selectVariant(at point: Point) {
        guard !popupCells.isEmpty, popupCellWidth > 0, point.x.isFinite else { return }
        let i = Int(max(-1, min(Double(popupCells.count), ((point.x - popupOrigin.x - 4) / popupCellWidth).rounded(.down))))
        let clamped = max(0, min(popupCells.count - 1, i))
        if clamped != popupSelection { popupSelection = clamped; highlightSelection() }
    }

    private func highlightSelection() {
        for (i, c) in popupCells.enumerated() {
            c.setBackgroundColor(i == popupSelection ? Color(rgb: 0x2563eb) : .white)
            c.setTitle(popupVariants[i], attributes: TextAttributes(fontSize: 22, color: i == popupSelection ? .white : Color(rgb: 0x111827),
                                                                    alignment: .center))
        }
    }

    /// Types the selected variant and hides the popup.
    func commitVariant() {
        guard !popup.isHidden, popupSelection < popupVariants.count else { hideVariants(); return }
        let v = popupVariants[popupSelection]
        hideVariants()
        pendingDeadKey = nil
        insert(v)
        updateTitles()
        keyTyped?(.character(v))
    }

    /// Hides the popup without typing.
    func hideVariants() {
        guard !popup.isHidden else { return }
        popup.isHidden = true
        popupCells = []
        setNeedsLayout()
    }

    /// Tapping keys leaves the focus (and the caret) in the field.
    public override var touchesKeepFocus: Bool { true }

    /// The shown page's rows stacked 8 pt apart inside an 8 pt inset, keys 6 pt apart and
    /// sized by weight; the second letter row is inset by half a key (the built-in US page) or
    /// by half a key per key it lacks (xkb layouts). Right-to-left layouts run right to left.
    /// The long-press popup is overlaid above its key.
    public override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        let shown = visibleRows
        let layout = page == .letters ? currentLayout : nil
        let pad = page == .numeric || page == .pin
        let rows = shown.enumerated().map { i, row -> any LayoutElement in
            var s = Style()
            s.flexGrow = 1
            s.flexBasis = .points(0)
            var inset = 0.0
            if page == .letters {
                if layout == nil {
                    // The second letter row is inset by half a key, as on a real keyboard.
                    inset = i == 1 ? constrainedSize.max.width / 20 : 0
                } else if i > 0, i < shown.count - 2, let first = shown.first, row.count < first.count {
                    inset = min(constrainedSize.max.width / 8, constrainedSize.max.width / Double(2 * first.count) * Double(first.count - row.count))
                }
            }
            if pad { inset = constrainedSize.max.width / (page == .pin ? 6 : 5) }
            return InsetLayoutSpec(insets: EdgeInsets(top: 0, left: inset, bottom: 0, right: inset), style: s,
                                   child: StackLayoutSpec(direction: .horizontal, spacing: page == .pin ? 10 : 6, children: row.map(\.button)))
        }
        var outer = Style()
        outer.direction = layout?.isRightToLeft == true ? .rtl : .ltr
        let stack = InsetLayoutSpec(insets: EdgeInsets(all: 8), style: outer,
                                    child: StackLayoutSpec(direction: .vertical, spacing: 8, children: rows))
        guard !popup.isHidden else { return stack }
        return OverlayLayoutSpec(child: stack, overlay: AbsoluteLayoutSpec(children: [popup]))
    }
}

/// Long press on a letter key: after 0.5 s held within 10 pt, shows the key's variants above it
/// (cancelling the key's own tap); sliding selects one and lifting types it. Main thread.
final class KeyVariantsRecognizer: GestureRecognizer, @unchecked Sendable {
    private weak var keyboard: KeyboardNode?
    private var key: (action: KeyboardNode.KeyAction, button: ButtonNode)?
    private var list: [String] = []

    init(keyboard: KeyboardNode) {
        self.keyboard = keyboard
        super.init()
    }

    override func touchBegan(_ touch: Touch) {
        guard touches.count == 1, let kb = keyboard, let k = kb.key(at: touch.location(in: kb)) else { fail(); return }
        list = kb.variants(for: k.action)
        if list.isEmpty { fail(); return }
        key = k
    }

    override func touchMoved(_ touch: Touch) {
        if state == .possible {
            if touch.distanceFromStart > 10 { fail() }
        } else if state == .recognized, let kb = keyboard {
            kb.selectVariant(at: touch.location(in: kb))
        }
    }

    override func touchEnded(_ touch: Touch) {
        if state == .recognized { keyboard?.commitVariant() } else { fail() }
    }

    override func touchCancelled(_ touch: Touch) {
        keyboard?.hideVariants()
        fail()
    }

    override var deadline: Double? {
        guard state == .possible, key != nil, let t = touches.first else { return nil }
        return t.startTimestamp + 0.5
    }

    override func tick(now: Double) {
        guard let d = deadline, now >= d, let kb = keyboard, let k = key else { return }
        recognize()
        kb.showVariants(list, above: k.button)
    }

    override func reset() {
        super.reset()
        key = nil
        list = []
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
        performOnPassThread { [weak self] in
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
        keyboard.show(node.keyboardType)
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
