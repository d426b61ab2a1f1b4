import Foundation
import Testing
import SilkGeometry
import SilkInput
import SilkLayout
import SilkRaster
import SilkRender
import SilkScenes
import SilkTestSupport
@testable import SilkNodes

/// Layouts read from xkb (the system's /usr/share/X11/xkb and Compose table): which keys each
/// layout shows, its dead keys, variants and direction, and bad names.
@Suite struct XKBLayoutTableTests {
    private func letters(_ t: XKBLayoutTable) -> [String] {
        t.letterRows.flatMap { $0 }.compactMap { $0.symbol(0) }.filter { !$0.isDead }.map(\.text)
    }

    @Test func germanHasItsLettersAndDeadKeys() throws {
        let de = try XKBLayoutTable.load("de")
        let l = letters(de)
        for c in ["q", "z", "y", "ü", "ö", "ä", "ß"] { #expect(l.contains(c), "de lacks \(c)") }
        #expect(de.letterRows[0].first?.symbol(0)?.text == "q" && de.letterRows[0][5].symbol(0)?.text == "z")
        #expect(de.shortName == "DE" && de.description.contains("German") && !de.isRightToLeft)
        // de's acute dead key composes with e (Compose table), and shift gives Ä for ä.
        #expect(de.deadKeyCompositions[0xfe51]?[0x65] == "é")
        #expect(de.variants["e"]?.contains("é") == true)
    }

    @Test func frenchSpanishRussianGreekArabicHebrew() throws {
        let fr = try XKBLayoutTable.load("fr")
        #expect(fr.letterRows[0].first?.symbol(0)?.text == "a")         // AZERTY
        #expect(letters(fr).contains("é") && letters(fr).contains("ù"))
        let es = try XKBLayoutTable.load("es")
        #expect(letters(es).contains("ñ"))
        // AltGr+e (€) first, then e composed with es's dead keys (` and ´: è, é).
        #expect(es.variants["e"]?.prefix(3) == ["€", "è", "é"])
        let ru = try XKBLayoutTable.load("ru")
        #expect(letters(ru).prefix(3) == ["й", "ц", "у"] && letters(ru).contains("ё"))
        let el = try XKBLayoutTable.load("el")
        #expect(letters(el).contains("λ") && el.deadKeyCompositions[0xfe51]?[0x7e1] == "ά")  // Greek_alpha
        let ar = try XKBLayoutTable.load("ar")
        #expect(ar.isRightToLeft && letters(ar).contains("ش"))
        let he = try XKBLayoutTable.load("he")
        #expect(he.isRightToLeft && letters(he).contains("ש") && letters(he).contains("ם"))
    }

    @Test func badNamesAreClearErrors() {
        #expect(throws: XKBError.self) { try XKBLayoutTable.load("xx-no-such") }
        #expect(throws: XKBError.self) { try XKBLayoutTable.load("../../etc/passwd") }
        #expect(throws: XKBError.self) { try XKBLayoutTable.load("") }
        do { _ = try XKBLayoutTable.load("zz") } catch {
            #expect(error.description.contains("\"zz\" is unknown to xkb"))
        }
    }

    /// xkb's "empty" layout compiles but types nothing on the block: skipped with a message.
    @Test func aLayoutWithoutLettersIsRefused() {
        do { _ = try XKBLayoutTable.load("empty"); Issue.record("empty loaded") } catch {
            #expect(error.description.contains("types no letter"))
        }
        let k = KeyboardNode()
        #expect(k.setLayouts(["empty", "gr"], includingEnvironment: false).count == 1)
        #expect(k.layouts.map(\.name) == ["gr"])
    }

    @Test func environmentLayoutsPairVariants() {
        let c = SilkConfiguration(environment: ["XKB_DEFAULT_LAYOUT": "us,de", "XKB_DEFAULT_VARIANT": "intl,"])
        #expect(XKBLayoutTable.environmentLayouts(c) == ["us(intl)", "de"])
        #expect(XKBLayoutTable.environmentLayouts(SilkConfiguration(environment: [:])) == [])
    }
}

extension PipelineTests {
/// The localized on-screen keyboard in a real node pass, typed by touches through the input
/// dispatcher, and its goldens (one per layout and pad) at 1×.
@Suite(.serialized) struct LocalizedKeyboardTests {
    static let size = Size(width: 640, height: 480)

    private func scene(_ layouts: [String], type: KeyboardType = .text)
        -> (KeyboardAvoidingNode, EditableTextNode, Harness, InputDispatcher) {
        let content = DisplayNode()
        let field = EditableTextNode()
        field.typingAttributes = TextAttributes(fontSize: 18)
        field.contentNode.displaysAsynchronously = false
        field.keyboardType = type
        content.addSubnode(field)
        content.layoutSpecBlock = { _, _ in
            InsetLayoutSpec(insets: EdgeInsets(top: 20, left: 20, bottom: .infinity, right: 20), child: field)
        }
        let host = KeyboardAvoidingNode(contentNode: content)
        let errors = host.keyboard.setLayouts(layouts, includingEnvironment: false)
        #expect(errors.isEmpty)
        let h = Harness(root: host, size: Self.size)
        h.iterate()
        return (host, field, h, InputDispatcher(rootNode: host))
    }

    private func centre(_ b: ButtonNode) -> Point { b.convert(Point(x: b.bounds.midX, y: b.bounds.midY), to: nil) }

    private func button(_ host: KeyboardAvoidingNode, _ action: KeyboardNode.KeyAction) -> ButtonNode? {
        let key = host.keyboard.visibleKeys.first(where: { $0.action == action })?.button
        if key == nil { Issue.record("no key \(action) on \(host.keyboard.currentLayout?.name ?? "us")") }
        return key
    }

    /// Taps the key typing `c` (a letter key, or a dead key when `c` is its keysym's label).
    private func tap(_ host: KeyboardAvoidingNode, _ h: Harness, _ d: InputDispatcher, _ action: KeyboardNode.KeyAction, at t: inout Double) {
        guard let key = button(host, action) else { return }
        let c = centre(key)
        d.down(c.x, c.y, at: t)
        d.up(at: t + 0.05)
        t += 1
        h.iterate()
    }

    private func type(_ s: String, _ host: KeyboardAvoidingNode, _ h: Harness, _ d: InputDispatcher, at t: inout Double) {
        for ch in s { tap(host, h, d, .character(String(ch)), at: &t) }
    }

    private func withKeyboard(_ body: () throws -> Void) rethrows {
        let saved = KeyboardPresence.policy
        KeyboardPresence.policy = .always
        defer { KeyboardPresence.policy = saved }
        try body()
    }

    @Test func typingStrasseEllinikaShalomByTaps() {
        withKeyboard {
            let (host, field, h, d) = scene(["de", "el", "he"])
            d.focus(field)
            h.iterate()
            #expect(host.isKeyboardShown)
            #expect(host.keyboard.layouts.map(\.shortName) == ["DE", "EL", "HE"])
            var t = 1.0
            type("straße", host, h, d, at: &t)
            #expect(field.text == "straße")
            tap(host, h, d, .nextLayout, at: &t)
            #expect(host.keyboard.currentLayout?.name == "el")
            tap(host, h, d, .space, at: &t)
            // ά is the dead acute (the ΄ key) then α, composed through the Compose table.
            type("ελληνικ", host, h, d, at: &t)
            tap(host, h, d, .deadKey(0xfe51), at: &t)
            type("α", host, h, d, at: &t)
            #expect(field.text == "straße ελληνικά")
            tap(host, h, d, .nextLayout, at: &t)
            tap(host, h, d, .space, at: &t)
            type("של", host, h, d, at: &t)
            // Shift on Hebrew (no capitals) types the letter, not xkb's level-2 QWERTY capital.
            tap(host, h, d, .shift, at: &t)
            type("ום", host, h, d, at: &t)
            #expect(field.text == "straße ελληνικά שלום")
            // Hebrew is laid out right to left: its first letter key (ק, AD03) is right of the next.
            let keys = host.keyboard.visibleKeys.map(\.button)
            #expect(centre(keys[0]).x > centre(keys[1]).x)
            tap(host, h, d, .nextLayout, at: &t)
            #expect(host.keyboard.currentLayout?.name == "de")
            #expect(centre(host.keyboard.visibleKeys[0].button).x < centre(host.keyboard.visibleKeys[1].button).x)
            // Shift on de types the key's Shift level: Ü.
            tap(host, h, d, .shift, at: &t)
            type("ü", host, h, d, at: &t)
            #expect(field.text.hasSuffix("Ü"))
            #expect(d.focusedNode === field)
        }
    }

    /// Holding e shows its variants; sliding onto é and lifting types it (and not e).
    @Test(arguments: ["fr", "es"]) func longPressTypesEAcute(_ layout: String) throws {
        try withKeyboard {
            let (host, field, h, d) = scene([layout])
            d.focus(field)
            h.iterate()
            let e = try #require(button(host, .character("e")))
            let c = centre(e)
            d.down(c.x, c.y, at: 1)
            d.move(c.x + 2, c.y, at: 1.7)   // past the 0.5 s deadline: the popup shows
            h.iterate()
            let shown = host.keyboard.shownVariants
            let i = try #require(shown.firstIndex(of: "é"), "variants \(shown)")
            // Slide up onto the popup's cell for é (cells are the key's width, from the popup's left).
            let cell = try #require(host.keyboard.popupCellCentre(i))
            d.move(cell.x, cell.y, at: 1.9)
            d.up(at: 2.0)
            h.iterate()
            #expect(field.text == "é")
            #expect(host.keyboard.shownVariants.isEmpty)
            // A quick tap still types e.
            var t = 3.0
            type("e", host, h, d, at: &t)
            #expect(field.text == "ée")
            // The built-in US keys (no layout) keep their behaviour: held, a key types on release.
            host.keyboard.layouts = []
            h.iterate()
            let plainE = try #require(button(host, .character("e")))
            #expect(host.keyboard.variants(for: .character("e")).isEmpty)
            let p = centre(plainE)
            d.down(p.x, p.y, at: 5)
            d.up(at: 6)
            h.iterate()
            #expect(field.text == "éee")
        }
    }

    /// On a right-to-left layout the variants run from the right: the first, selected at once,
    /// is the rightmost, and lifting without sliding types it. (No xkb RTL layout offers more than
    /// one variant on a letter key, so the popup is given three.)
    @Test func variantsRunRightToLeftOnHebrew() throws {
        try withKeyboard {
            let (host, field, h, d) = scene(["he"])
            d.focus(field)
            h.iterate()
            let key = try #require(button(host, .character("ש")))
            host.keyboard.target = field
            host.keyboard.showVariants(["א", "ב", "ג"], above: key)
            h.iterate()
            #expect(host.keyboard.shownVariants == ["ג", "ב", "א"])
            let right = try #require(host.keyboard.popupCellCentre(2)), left = try #require(host.keyboard.popupCellCentre(0))
            #expect(right.x > left.x)
            host.keyboard.commitVariant()
            #expect(field.text == "א")
        }
    }

    /// es's dead acute: ´ then e types é; twice types the accent; then space types what the
    /// Compose table says (an apostrophe); Shift selects the key's level-2 dead key (¨); a letter
    /// it does not combine with types just the letter.
    @Test func deadKeysComposeByTaps() {
        withKeyboard {
            let (host, field, h, d) = scene(["es"])
            d.focus(field)
            h.iterate()
            var t = 1.0
            tap(host, h, d, .deadKey(0xfe51), at: &t)
            #expect(host.keyboard.pendingDeadKey == 0xfe51)
            type("e", host, h, d, at: &t)
            tap(host, h, d, .deadKey(0xfe51), at: &t)
            tap(host, h, d, .deadKey(0xfe51), at: &t)
            tap(host, h, d, .deadKey(0xfe51), at: &t)
            tap(host, h, d, .space, at: &t)
            tap(host, h, d, .shift, at: &t)
            tap(host, h, d, .deadKey(0xfe51), at: &t)
            type("o", host, h, d, at: &t)
            tap(host, h, d, .deadKey(0xfe51), at: &t)
            type("q", host, h, d, at: &t)
            #expect(field.text == "é´'öq")
            #expect(host.keyboard.pendingDeadKey == nil)
        }
    }

    @Test func unknownLayoutsFallBackToUS() {
        let k = KeyboardNode()
        let errors = k.setLayouts(["xx-nope", "yy"], includingEnvironment: false)
        #expect(errors.count == 2)
        #expect(errors.first?.description.contains("xx-nope") == true)
        #expect(k.layouts.map(\.name) == ["us"])
        // One bad name among good ones is skipped.
        #expect(k.setLayouts(["ru", "nope"], includingEnvironment: false).count == 1)
        #expect(k.layouts.map(\.name) == ["ru"])
    }

    @Test func aLongListIsCutAtTheMaximumBeforeAnyIsCompiled() {
        let k = KeyboardNode()
        // Repeats count once; past the maximum, one error and no compile per name.
        let names = ["us", "us"] + (0..<10_000).map { "nope\($0)" }
        let errors = k.setLayouts(names, includingEnvironment: false)
        #expect(errors.count == KeyboardNode.maximumLayouts)   // 15 unknown names + the cut
        #expect(errors.first?.description.contains("more than \(KeyboardNode.maximumLayouts)") == true)
        #expect(k.layouts.map(\.name) == ["us"])
    }

    @Test func pinPadForAPinField() {
        withKeyboard {
            let (host, field, h, d) = scene([], type: .pin)
            d.focus(field)
            h.iterate()
            #expect(host.keyboard.page == .pin)
            var t = 1.0
            type("2580", host, h, d, at: &t)
            tap(host, h, d, .backspace, at: &t)
            #expect(field.text == "258")
            // Shuffled digits: still every digit once, typing what the key says.
            host.keyboard.shufflesPINDigits = true
            host.keyboard.show(.pin)
            h.iterate()
            let digits = host.keyboard.visibleKeys.compactMap { k -> String? in
                if case let .character(c) = k.action { return c } else { return nil }
            }
            #expect(digits.sorted() == (0...9).map(String.init))
            type("1", host, h, d, at: &t)
            #expect(field.text == "2581")
        }
    }

    /// The long-press popup over fr's e, é selected (640×330 at 1×: the popup rises above the
    /// keyboard's top row).
    @Test func longPressPopupGolden() throws {
        let keyboard = KeyboardNode()
        #expect(keyboard.setLayouts(["fr"], includingEnvironment: false).isEmpty)
        keyboard.style.width = .points(640)
        keyboard.style.height = .points(260)
        let root = DisplayNode()
        root.backgroundColor = Color(rgb: 0x1f2937)
        root.addSubnode(keyboard)
        root.layoutSpecBlock = { _, _ in InsetLayoutSpec(insets: EdgeInsets(top: 70, left: 0, bottom: 0, right: 0), child: keyboard) }
        let size = Size(width: 640, height: 330)
        _ = try NodeSnapshot.render(root, size: size, scale: 1)   // lays the keys out
        let e = try #require(keyboard.visibleKeys.first { $0.action == .character("e") }?.button)
        let variants = keyboard.variants(for: .character("e"))
        let i = try #require(variants.firstIndex(of: "é"))
        keyboard.showVariants(variants, above: e)
        let cell = try #require(keyboard.popupCellCentre(i))
        keyboard.selectVariant(at: keyboard.convert(cell, from: nil))
        #expect(keyboard.shownVariants == variants)
        let bitmap = try NodeSnapshot.render(root, size: size, scale: 1)
        try Golden.verify(bitmap, named: "keyboard-fr-long-press", in: Golden.directory())
    }

    /// Goldens of each layout's letters page and of the two pads (640×260 at 1×).
    @Test(arguments: ["us", "de", "fr", "es", "ru", "el", "ar", "he", "numeric", "pin"])
    func golden(_ name: String) throws {
        let keyboard = KeyboardNode()
        switch name {
        case "numeric": keyboard.show(.number)
        case "pin": keyboard.show(.pin)
        default: #expect(keyboard.setLayouts([name, "us"], includingEnvironment: false).isEmpty)
        }
        keyboard.style.width = .points(640)
        keyboard.style.height = .points(260)
        let root = DisplayNode()
        root.addSubnode(keyboard)
        root.layoutSpecBlock = { _, _ in InsetLayoutSpec(insets: .zero, child: keyboard) }
        let bitmap = try NodeSnapshot.render(root, size: Size(width: 640, height: 260), scale: 1)
        try Golden.verify(bitmap, named: "keyboard-\(name)", in: Golden.directory())
    }
}
}
