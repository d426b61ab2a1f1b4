import Testing
import SilkGeometry
@testable import SilkRaster

/// Caret geometry for editing (TextCaret.swift), checked against glyph boxes from `rects(for:)`.
@Suite struct TextCaretTests {
    let attrs = TextAttributes(fontSize: 20)

    func layout(_ s: String, width: Double = .infinity, keepSpaces: Bool = true) -> TextLayout {
        TextLayout(text: AttributedText(s, attributes: attrs), constrainedTo: Size(width: width, height: .infinity),
                   keepsTrailingWhitespace: keepSpaces)
    }

    @Test func caretsSitAtGlyphEdges() throws {
        let l = layout("hello")
        for i in 0..<5 {
            let box = try #require(l.rects(for: i..<(i + 1)).first)
            let caret = try #require(l.caretRect(at: i))
            #expect(abs(caret.minX - box.minX) < 0.01)
            #expect(caret.height == l.lines[0].rect.height)
        }
        let end = try #require(l.caretRect(at: 5))
        #expect(abs(end.minX - l.size.width) < 0.01)
    }

    @Test func aTrailingSpaceMovesTheCaretWhenKept() throws {
        let kept = try #require(layout("ab ").caretRect(at: 3))
        let before = try #require(layout("ab ").caretRect(at: 2))
        #expect(kept.minX > before.minX + 2)
        // Hanging (the default for display), the space takes no room.
        let hung = layout("ab ", keepSpaces: false)
        #expect(abs(hung.size.width - (hung.caretRect(at: 2)?.minX ?? -1)) < 0.01)
    }

    @Test func pointsMapToTheNearestBoundary() throws {
        let l = layout("hello")
        let box = try #require(l.rects(for: 1..<2).first)   // "e"
        #expect(l.caretIndex(at: Point(x: box.minX + box.width * 0.3, y: 5)) == 1)
        #expect(l.caretIndex(at: Point(x: box.minX + box.width * 0.7, y: 5)) == 2)
        #expect(l.caretIndex(at: Point(x: -50, y: 5)) == 0)
        #expect(l.caretIndex(at: Point(x: 1000, y: 5)) == 5)
    }

    @Test func linesAndLineBreaks() throws {
        let l = layout("ab\ncd\n")
        let a = try #require(l.caretRect(at: 0)), c = try #require(l.caretRect(at: 3))
        #expect(c.minY > a.minY)
        #expect(abs(c.minX - a.minX) < 0.01)
        let endOfFirst = try #require(l.caretRect(at: 2))
        #expect(endOfFirst.minY == a.minY)
        // After the final line break: a new, empty line below.
        let after = try #require(l.caretRect(at: 6))
        #expect(after.minY >= c.maxY - 0.01)
        #expect(after.minX == 0)
        #expect(l.caretIndex(at: Point(x: 3, y: after.midY)) == 6)
    }

    @Test func wrappedLinesKeepTheCaretOnTheClickedLine() throws {
        let l = layout("aaaa bbbb cccc", width: 60)
        #expect(l.lineCount >= 2)
        let first = l.lines[0]
        let i = l.caretIndex(at: Point(x: 500, y: first.rect.midY))
        #expect(i < l.lines[1].characterRange.lowerBound)
        #expect(l.lineIndex(forCaret: l.lines[1].characterRange.lowerBound) == 1)
    }

    @Test func rightToLeftCaretsRunFromTheRight() throws {
        let l = layout("שלום")
        let start = try #require(l.caretRect(at: 0)), end = try #require(l.caretRect(at: 4))
        #expect(start.minX > end.minX)
    }

    @Test func emptyTextHasNoCaretRectButMetrics() {
        #expect(layout("").caretRect(at: 0) == nil)
        let m = TextLayout.emptyLineMetrics(attrs)
        #expect(m.height > 20 && m.height < 30)
        #expect(m.baseline > 10 && m.baseline < m.height)
    }
}
