import SilkGeometry
import Testing
@testable import SilkRaster

// Seeded random text through layout, hit testing and drawing: mixed scripts, combining marks,
// emoji sequences, bidi controls, newlines, controls. Nothing may crash and the results must
// stay consistent. The seed is fixed so a failure reproduces.

@Suite("Text fuzz")
struct TextFuzzTests {
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
        mutating func unit() -> Double { Double(next() % 1_000_000) / 1_000_000 }
    }

    static let pool: [[UInt32]] = [
        Array(0x61...0x7A), [0x20, 0x20, 0x20, 0x2D, 0x2C, 0x2E, 0x0A, 0x09, 0x00, 0x0D],
        Array(0x4E00...0x4E40), [0x3001, 0x3002, 0x300C, 0x300D, 0x30FC, 0x3063],
        Array(0x0627...0x064A), Array(0x05D0...0x05EA), [0x0301, 0x0308, 0x064E, 0x05B8],
        [0x1F600, 0x1F389, 0x2764, 0xFE0F, 0x200D, 0x1F468, 0x1F3FD, 0x1F1EB, 0x1F1F7],
        [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2069, 0x200E, 0x200F],
        [0xFFFD, 0x200B, 0x00A0, 0x2028, 0x2029, 0x0085, 0xE000, 0x10FFFD, 0x1D11E],
    ]

    @Test(arguments: 0..<24)
    func randomTextLaysOutAndDraws(seed: Int) throws {
        var g = Generator(state: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1)
        var text = AttributedText()
        for _ in 0..<(1 + g.below(6)) {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<g.below(60) {
                let group = Self.pool[g.below(Self.pool.count)]
                if let s = Unicode.Scalar(group[g.below(group.count)]) { scalars.append(s) }
            }
            var a = TextAttributes(fontSize: 6 + g.unit() * 30)
            a.fontWeight = g.below(2) == 0 ? .regular : .bold
            a.italic = g.below(3) == 0
            a.kerning = g.below(4) == 0 ? g.unit() * 4 - 1 : 0
            a.lineHeightMultiple = 0.5 + g.unit() * 2
            a.alignment = [.natural, .left, .center, .right, .justified][g.below(5)]
            a.baseWritingDirection = [.natural, .leftToRight, .rightToLeft][g.below(3)]
            a.underline = [.none, .single, .double, .dotted][g.below(4)]
            a.strikethrough = g.below(4) == 0
            a.backgroundColor = g.below(4) == 0 ? .lightGray : nil
            a.link = g.below(4) == 0 ? "silk://\(seed)" : nil
            text.append(AttributedText(String(scalars), attributes: a))
        }
        let width = [Double.infinity, 0, 5, 40, 120, 300][g.below(6)]
        let height = g.below(3) == 0 ? 30 + g.unit() * 100 : .infinity
        let maxLines = g.below(4)
        let mode: TruncationMode = [.head, .middle, .tail][g.below(3)]
        let token: AttributedText? = g.below(3) == 0 ? AttributedText("»\n«", attributes: TextAttributes(fontSize: 12)) : nil
        let l = TextLayout(text: text, constrainedTo: Size(width: width, height: height), maximumLines: maxLines,
                           truncationToken: token, truncationMode: mode)

        #expect(l.size.width.isFinite && l.size.height.isFinite && l.size.width >= 0 && l.size.height >= 0)
        if maxLines > 0 { #expect(l.lineCount <= maxLines) }
        for line in l.lines {
            #expect(line.characterRange.lowerBound >= 0 && line.characterRange.upperBound <= text.scalarCount)
            #expect(line.rect.height >= 0 && line.baseline.isFinite)
            for run in line.runs where !run.isTruncationToken {
                #expect(run.characterRange.lowerBound >= 0 && run.characterRange.upperBound <= text.scalarCount)
            }
        }
        for _ in 0..<20 {
            let p = Point(x: g.unit() * (l.size.width + 20) - 10, y: g.unit() * (l.size.height + 20) - 10)
            if let i = l.characterIndex(at: p) { #expect(i >= 0 && i <= text.scalarCount) }
            _ = l.link(at: p)
        }
        let a = g.below(text.scalarCount + 1), b = g.below(text.scalarCount + 1)
        for r in l.rects(for: min(a, b)..<max(a, b)) { #expect(r.width.isFinite && r.height >= 0) }
        let bitmap = try Bitmap(width: 160, height: 120)
        l.draw(into: bitmap, at: Point(x: g.unit() * 40 - 20, y: g.unit() * 40 - 20), scale: [1, 1.5, 2][g.below(3)],
               clip: g.below(2) == 0 ? Rect(x: 10, y: 10, width: 100, height: 50) : nil, opacity: g.unit())
    }
}
