import SilkGeometry
import Testing
@testable import SilkRaster

// Layout behaviour: breaking, truncation, CJK, RTL, measurement, baselines, hit testing.
// Widths are derived from measured text rather than hard-coded, so the tests hold for any
// reasonable font metrics.

private let attrs = TextAttributes(fontFamily: "DejaVu Sans", fontSize: 16)

private func width(_ s: String, _ a: TextAttributes = attrs) -> Double {
    TextLayout.measure(AttributedText(s, attributes: a), width: .infinity).width
}

private func layout(_ s: String, width w: Double, lines: Int = 0, token: AttributedText? = nil,
                    mode: TruncationMode = .tail, _ a: TextAttributes = attrs) -> TextLayout {
    TextLayout(text: AttributedText(s, attributes: a), constrainedTo: Size(width: w, height: .infinity),
               maximumLines: lines, truncationToken: token, truncationMode: mode)
}

/// The text of each line, by character ranges.
private func lineStrings(_ l: TextLayout) -> [String] {
    let scalars = Array(l.text.string.unicodeScalars)
    return l.lines.map { line in
        var s = String.UnicodeScalarView()
        s.append(contentsOf: scalars[line.characterRange])
        return String(s).trimmingCharacters(in: " ")
    }
}

private extension String {
    func trimmingCharacters(in c: Character) -> String {
        var s = Substring(self)
        while s.last == c { s = s.dropLast() }
        while s.first == c { s = s.dropFirst() }
        return String(s)
    }
}

@Suite("Text layout")
struct TextLayoutTests {
    @Test func breaksAtSpaces() {
        let w = width("hello world") + 1
        let l = layout("hello world again and more", width: w)
        #expect(lineStrings(l) == ["hello world", "again and", "more"])
        #expect(l.size.width <= w)
        #expect(!l.isTruncated)
    }

    @Test func breaksAfterHyphens() {
        let w = width("state-of-") + 0.5
        let l = layout("state-of-the-art", width: w)
        #expect(lineStrings(l).first == "state-of-")
        #expect(lineStrings(l).joined() == "state-of-the-art")
    }

    @Test func pathsBreakAfterSlashes() {
        let l = layout("https://example.com/silk/text/layout", width: width("https://example.com/sil"))
        #expect(lineStrings(l).first == "https://example.com/")
        let fraction = "1/2".unicodeScalars.map(\.value)
        #expect(fraction.withUnsafeBufferPointer(LineBreaking.opportunities) == [false, false, false, false])
    }

    @Test func longWordBreaksBetweenCharacters() {
        let l = layout("abcdefghijklmnopqrstuvwxyz", width: width("abcdefgh"))
        #expect(l.lineCount >= 3)
        #expect(lineStrings(l).joined() == "abcdefghijklmnopqrstuvwxyz")
        for line in l.lines { #expect(line.rect.width <= width("abcdefgh") + 0.01) }
    }

    @Test func cjkBreaksAfterIdeographsButNotBeforeClosingPunctuation() {
        let a = TextAttributes(fontSize: 16)
        let w = width("中文中", a) + 0.5
        let l = layout("中文中文中文", width: w, a)
        #expect(lineStrings(l) == ["中文中", "文中文"])
        // "。" must not start a line: it is carried with the ideograph before it.
        let k = layout("你好你。好你", width: w, a)
        for s in lineStrings(k) { #expect(!s.hasPrefix("。")) }
        #expect(lineStrings(k).joined() == "你好你。好你")
    }

    @Test func cjkUsesAFallbackFont() {
        let l = layout("Hi 中文", width: .infinity)
        let fonts = l.lines[0].runs.map { $0.font.familyName }
        #expect(fonts.count >= 2)
        #expect(l.lines[0].runs.last!.font.covers(0x4E2D))
    }

    @Test func maximumLinesTruncatesWithDefaultToken() {
        let text = "one two three four five six seven eight nine ten eleven twelve"
        let w = width("one two three") + 1
        let l = layout(text, width: w, lines: 2)
        #expect(l.lineCount == 2)
        #expect(l.isTruncated)
        #expect(l.lines[1].isTruncated)
        let token = l.lines[1].runs.filter(\.isTruncationToken)
        #expect(token.count == 1)
        #expect(l.lines[1].rect.width <= w + 0.01)
        // The token is the last run, visually, in a left-to-right paragraph.
        #expect(l.lines[1].runs.last?.isTruncationToken == true)
        let full = layout(text, width: w)
        #expect(full.lineCount > 2 && !full.isTruncated)
    }

    @Test func oneLineTruncationAndCustomToken() throws {
        let text = "The quick brown fox jumps over the lazy dog"
        let w = width("The quick brown fox")
        let custom = AttributedText(" more»", attributes: TextAttributes(fontSize: 16, color: .blue))
        let l = layout(text, width: w, lines: 1, token: custom)
        #expect(l.lineCount == 1 && l.isTruncated)
        let tokenRun = l.lines[0].runs.first(where: \.isTruncationToken)
        #expect(tokenRun?.attributes.color == .blue)
        #expect(tokenRun?.glyphCount == 6)
        #expect(l.lines[0].rect.width <= w + 0.01)
        // A token carrying a link ("… more") is tappable and stands for the hidden text.
        let more = AttributedText("… more", attributes: TextAttributes(fontSize: 16, link: "silk://more"))
        let m = layout(text, width: w, lines: 1, token: more)
        let run = try #require(m.lines[0].runs.first { $0.isTruncationToken })
        let p = Point(x: m.lines[0].rect.minX + run.x + run.width / 2, y: m.lines[0].baseline - 4)
        #expect(m.isTruncationToken(at: p))
        #expect(m.link(at: p)?.url == "silk://more")
        #expect(m.link(at: p)?.range.upperBound == text.unicodeScalars.count)
        #expect(!m.isTruncationToken(at: Point(x: 2, y: p.y)))
    }

    @Test(arguments: [TruncationMode.head, .middle, .tail])
    func truncationModesPlaceTheToken(mode: TruncationMode) {
        let text = "/home/silk/projects/texture/Source/Layout/ASStackLayoutSpec.mm"
        let w = width(text) / 2
        let l = layout(text, width: w, lines: 1, mode: mode)
        #expect(l.isTruncated && l.lineCount == 1)
        let runs = l.lines[0].runs
        let index = runs.firstIndex(where: \.isTruncationToken)
        #expect(index != nil)
        switch mode {
        case .head: #expect(index == 0)
        case .tail: #expect(index == runs.count - 1)
        case .middle: #expect(index! > 0 && index! < runs.count - 1)
        }
        #expect(l.lines[0].rect.width <= w + 0.01)
    }

    @Test func rightToLeftTailTruncationPutsTheTokenOnTheLeft() {
        let text = "שלום עולם זהו טקסט ארוך מאוד שלא נכנס בשורה אחת בכלל"
        let l = layout(text, width: width(text) / 2, lines: 1)
        #expect(l.isTruncated && l.lines[0].isRightToLeft)
        #expect(l.lines[0].runs.first?.isTruncationToken == true)
        #expect(abs(l.lines[0].rect.maxX - width(text) / 2) < 0.01)
    }

    @Test func heightConstraintLimitsLines() {
        let one = layout("x", width: 100).size.height
        let l = TextLayout(text: AttributedText("a b c d e f g h i j", attributes: attrs),
                           constrainedTo: Size(width: width("a b"), height: one * 2.5))
        #expect(l.lineCount == 2)
        #expect(l.isTruncated)
    }

    @Test func rightToLeftParagraphIsRightAligned() {
        let a = TextAttributes(fontSize: 16)
        let l = layout("مرحبا بالعالم", width: 300, a)
        #expect(l.lines[0].isRightToLeft)
        #expect(abs(l.lines[0].rect.maxX - 300) < 0.01)
        #expect(l.lines[0].runs.allSatisfy { $0.isRightToLeft })
        let h = layout("שלום עולם", width: 300, a)
        #expect(h.lines[0].isRightToLeft && abs(h.lines[0].rect.maxX - 300) < 0.01)
        let forced = layout("hello", width: 300, TextAttributes(fontSize: 16, baseWritingDirection: .rightToLeft))
        #expect(forced.lines[0].isRightToLeft)
    }

    @Test func mixedDirectionsReorderRuns() {
        // "abc שלום def": LTR paragraph, Hebrew run in the middle drawn right to left.
        let l = layout("abc שלום def", width: .infinity)
        let line = l.lines[0]
        #expect(!line.isRightToLeft)
        let hebrew = line.runs.first(where: \.isRightToLeft)!
        #expect(hebrew.characterRange.contains(4))
        // The left edge of the Hebrew run shows its logically last letter (ם, index 7).
        let p = Point(x: line.rect.minX + hebrew.x + 1, y: line.baseline - 4)
        #expect(l.characterIndex(at: p) == 7)
        // Arabic paragraph with an English word: the Latin run is not reversed.
        let ar = layout("مرحبا English بالعالم", width: .infinity)
        let latin = ar.lines[0].runs.first { !$0.isRightToLeft }!
        #expect(latin.characterRange.contains(6))
        let e = ar.characterIndex(at: Point(x: ar.lines[0].rect.minX + latin.x + 1, y: ar.lines[0].baseline - 4))
        #expect(e == 6)
    }

    @Test func measurementIsStable() {
        let text = AttributedText("Silk measures text the same way every time it is asked to.", attributes: attrs)
        let measured = TextLayout.measure(text, width: 150)
        #expect(measured.width <= 150)
        let again = TextLayout(text: text, constrainedTo: Size(width: measured.width, height: .infinity))
        #expect(again.size == measured)
        let unbounded = TextLayout.measure(text, width: .infinity)
        #expect(unbounded.width > measured.width)
        #expect(TextLayout.measure(AttributedText(""), width: 100) == .zero)
    }

    @Test func baselines() {
        let l = layout("one two three four", width: width("one two") + 1)
        #expect(l.lineCount == 3)
        let lh = l.lines[0].rect.height
        #expect(l.firstBaseline > lh / 2 && l.firstBaseline < lh)
        #expect(abs(l.lastBaseline - (l.firstBaseline + 2 * lh)) < 0.001)
        var mixed = AttributedText("small ", attributes: attrs)
        mixed.append(AttributedText("BIG", attributes: TextAttributes(fontSize: 40)))
        let m = TextLayout(text: mixed, constrainedTo: Size(width: .infinity, height: .infinity))
        #expect(m.firstBaseline > l.firstBaseline * 2)
        var tall = attrs
        tall.lineHeightMultiple = 2
        let t = layout("x", width: 100, tall)
        #expect(abs(t.size.height - 2 * layout("x", width: 100).size.height) < 0.001)
    }

    @Test func hitTesting() {
        let l = layout("hello world", width: .infinity)
        let line = l.lines[0]
        let wStart = width("hello world") - width("world")
        let wx = wStart + 2
        #expect(l.characterIndex(at: Point(x: wx, y: line.baseline - 3)) == 6)
        #expect(l.characterIndex(at: Point(x: 0.5, y: 2)) == 0)
        #expect(l.characterIndex(at: Point(x: -50, y: -50)) == nil)
        let rects = l.rects(for: 6..<11)
        #expect(rects.count == 1)
        #expect(abs(rects[0].minX - wStart) < 0.5)
        #expect(abs(rects[0].width - width("world")) < 0.5)
        let two = layout("hello world", width: width("hello") + 1)
        #expect(two.rects(for: 3..<8).count == 2)
    }

    @Test func linksAtPoints() {
        var text = AttributedText("Read the ", attributes: attrs)
        var linkAttributes = attrs
        linkAttributes.link = "https://example.com"
        linkAttributes.underline = .dotted
        text.append(AttributedText("docs", attributes: linkAttributes))
        text.append(AttributedText(" now.", attributes: attrs))
        let l = TextLayout(text: text, constrainedTo: Size(width: .infinity, height: .infinity))
        let x = width("Read the docs") - width("docs") + 3
        let hit = l.link(at: Point(x: x, y: l.firstBaseline - 3))
        #expect(hit == TextLink(url: "https://example.com", range: 9..<13))
        #expect(l.link(at: Point(x: 2, y: l.firstBaseline - 3)) == nil)
        #expect(l.link(atCharacter: 10)?.url == "https://example.com")
    }

    @Test func invalidUTF8BecomesReplacementCharacters() throws {
        let bytes: [UInt8] = [0x66, 0xFF, 0xFE, 0x6F, 0xC3, 0x28, 0x00, 0x6F, 0xF0, 0x9F, 0x98]
        let text = AttributedText(utf8Bytes: bytes, attributes: attrs)
        #expect(text.string.unicodeScalars.contains("\u{FFFD}"))
        let l = TextLayout(text: text, constrainedTo: Size(width: 200, height: .infinity))
        #expect(l.lineCount == 1)
        #expect(l.lines[0].runs.reduce(0) { $0 + $1.glyphCount } == text.scalarCount)
        let bitmap = try Bitmap(width: 220, height: 40)
        l.draw(into: bitmap, at: Point(x: 2, y: 2))
    }

    @Test func trailingNewlinesDoNotTruncate() {
        let l = layout("one\n\n", width: 200, lines: 1)
        #expect(l.lineCount == 1 && !l.isTruncated)
        #expect(layout("one\n\ntwo", width: 200, lines: 1).isTruncated)
    }

    @Test func paragraphsAndEmptyLines() {
        let l = layout("one\n\ntwo\r\nthree", width: .infinity)
        #expect(l.lineCount == 4)
        #expect(lineStrings(l) == ["one", "", "two", "three"])
        #expect(l.lines[1].rect.height > 0)
    }

    @Test func maximumLengthIsEnforced() {
        let big = String(repeating: "a", count: TextLayout.maximumLength + 10)
        let l = TextLayout(text: AttributedText(big, attributes: attrs), constrainedTo: Size(width: 300, height: 100))
        #expect(l.isTruncated)
        #expect(l.text.scalarCount == TextLayout.maximumLength)
    }

    @Test func longParagraphsAreShapedInWindowsWithoutSeams() {
        let words = (0..<2000).map { "w\($0 % 97)" }.joined(separator: " ")  // > 4096 scalars, one paragraph
        let l = layout(words, width: 200)
        #expect(l.text.scalarCount > TextLayout.shapingWindow)
        for (a, b) in zip(l.lines, l.lines.dropFirst()) { #expect(a.characterRange.upperBound == b.characterRange.lowerBound) }
        #expect(l.lines.last?.characterRange.upperBound == l.text.scalarCount)
        // No short line where one window ends and the next begins.
        for line in l.lines.dropLast() { #expect(line.rect.width > 150) }
    }

    @Test func builtinFontWhenSystemFontsAreMissing() {
        let db = FontDatabase(useSystemFonts: false)
        let l = TextLayout(text: AttributedText("Hello 中文", attributes: TextAttributes(fontFamily: "No Such Family")),
                           constrainedTo: Size(width: .infinity, height: .infinity), fonts: db)
        #expect(l.lineCount == 1)
        for run in l.lines[0].runs { #expect(run.font.path.hasSuffix("assets/fonts/DejaVuSans.ttf")) }
        let bold = TextLayout(text: AttributedText("Bold", attributes: TextAttributes(fontWeight: .bold)),
                              constrainedTo: Size(width: .infinity, height: .infinity), fonts: db)
        #expect(bold.lines[0].runs[0].font.path.hasSuffix("DejaVuSans-Bold.ttf"))
        // An unknown family on the system database still finds a font.
        let sys = layout("Hello", width: .infinity, TextAttributes(fontFamily: "No Such Family"))
        #expect(sys.size.width > 10)
    }

    @Test func justifiedLinesFillTheWidth() {
        let a = TextAttributes(fontSize: 16, alignment: .justified)
        let w = width("aaa bbb ccc") + 20
        let l = layout("aaa bbb ccc ddd eee fff ggg", width: w, a)
        #expect(l.lineCount >= 2)
        #expect(abs(l.lines[0].rect.width - w) < 0.01)
        #expect(l.lines.last!.rect.width < w - 1)
    }

    @Test func arabicLettersJoin() {
        // The same letter shaped alone and inside a word gets different (contextual) glyphs.
        let alone = layout("ب", width: .infinity).lines[0].runs[0]
        let word = layout("ببب", width: .infinity).lines[0].runs[0]
        #expect(word.glyphCount == 3)
        #expect(Set(word.glyphs).count > 1)
        #expect(!word.glyphs.allSatisfy { $0 == alone.glyphs[0] })
        // A colour change inside the word keeps the joining (the paragraph is the shaping context).
        var split = AttributedText("ب", attributes: attrs)
        split.append(AttributedText("بب", attributes: TextAttributes(fontSize: 16, color: .red)))
        let s = TextLayout(text: split, constrainedTo: Size(width: .infinity, height: .infinity))
        let glyphs = s.lines[0].runs.flatMap(\.glyphs)
        #expect(Set(glyphs) == Set(word.glyphs))
    }

    @Test func trackingWidensText() {
        var tracked = attrs
        tracked.kerning = 2
        let plain = width("abcd"), wide = width("abcd", tracked)
        #expect(abs(wide - plain - 8) < 0.01)
    }

    @Test func emojiUsesAColourFontWhenInstalled() throws {
        let l = layout("a😀b", width: .infinity)
        let emojiRun = try #require(l.lines[0].runs.first { $0.characterRange.contains(1) })
        guard emojiRun.font.hasColorGlyphs else { return }  // no colour emoji font on this machine
        let b = try Bitmap(width: Int(l.size.width) + 4, height: Int(l.size.height) + 4)
        l.draw(into: b, at: Point(x: 2, y: 2))
        var coloured = 0
        for y in 0..<b.height {
            for x in 0..<b.width {
                let p = b.argb32(x: x, y: y)
                let r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, bl = p & 0xff
                if max(r, g, bl) - min(r, g, bl) > 60 { coloured += 1 }
            }
        }
        #expect(coloured > 20)
    }

    @Test func attributedTextEditing() {
        var t = AttributedText("hello world", attributes: attrs)
        t.modifyAttributes(in: 6..<11) { $0.fontWeight = .bold }
        #expect(t.runs.count == 2)
        #expect(t.attributes(at: 7).fontWeight == .bold)
        t.modifyAttributes(in: 6..<11) { $0.fontWeight = .regular }
        #expect(t.runs.count == 1)
        let s = t.string
        #expect(t.scalarOffset(of: s.firstIndex(of: "w")!) == 6)
        #expect(t.string[t.stringIndex(ofScalarOffset: 6)] == "w")
    }
}
