import SilkGeometry
import Testing
@testable import SilkRaster

/// `TextAlignment.natural` follows the layout direction given to `TextLayout` (CSS
/// `text-align: start` follows `direction`); explicit alignments stay as given.
@Suite struct TextAlignmentDirectionTests {
    private func layout(_ s: String, _ alignment: TextAlignment = .natural, width: Double = 300,
                        in direction: WritingDirection) -> TextLayout {
        TextLayout(text: AttributedText(s, attributes: TextAttributes(fontSize: 16, alignment: alignment)),
                   constrainedTo: Size(width: width, height: .infinity), layoutDirection: direction)
    }

    @Test func naturalIsRightInARightToLeftContextWhateverTheScript() {
        for s in ["hello world", "שלום עולם", "مرحبا بالعالم"] {
            let l = layout(s, in: .rightToLeft)
            #expect(abs(l.lines[0].rect.maxX - 300) < 0.01, "\(s)")
        }
    }

    @Test func naturalIsLeftInALeftToRightContextWhateverTheScript() {
        for s in ["hello world", "שלום עולם", "مرحبا بالعالم"] {
            let l = layout(s, in: .leftToRight)
            #expect(abs(l.lines[0].rect.minX) < 0.01, "\(s)")
        }
        // The bidi base direction still comes from the text: the Hebrew line is right to left.
        #expect(layout("שלום עולם", in: .leftToRight).lines[0].isRightToLeft)
    }

    @Test func withoutAContextNaturalFollowsTheParagraph() {
        #expect(abs(layout("שלום עולם", in: .natural).lines[0].rect.maxX - 300) < 0.01)
        #expect(abs(layout("hello", in: .natural).lines[0].rect.minX) < 0.01)
    }

    @Test func explicitAlignmentsStayAsGiven() {
        for d in [WritingDirection.leftToRight, .rightToLeft, .natural] {
            let left = layout("שלום", .left, in: d), right = layout("hello", .right, in: d), centre = layout("hello", .center, in: d)
            #expect(abs(left.lines[0].rect.minX) < 0.01)
            #expect(abs(right.lines[0].rect.maxX - 300) < 0.01)
            #expect(abs(centre.lines[0].rect.midX - 150) < 0.01)
        }
    }

    @Test func justifiedLastLineStartsAtTheContextsStart() {
        let text = "one two three four five six seven eight nine ten eleven twelve"
        let l = layout(text, .justified, width: 120, in: .rightToLeft)
        #expect(l.lineCount > 1)
        // Full lines are stretched to both edges; the last one sits at the right.
        #expect(abs(l.lines[0].rect.minX) < 0.5)
        #expect(abs(l.lines[l.lineCount - 1].rect.maxX - 120) < 0.01)
    }

    @Test func fittingWidthHugsNaturalTextButNotExplicitAlignment() {
        let rtl = layout("שלום", in: .rightToLeft)
        #expect(rtl.size.width == 300)                       // the lines are placed in 300
        #expect(rtl.fittingWidth < 100 && rtl.fittingWidth == rtl.lines[0].rect.width)
        #expect(layout("hello", .center, in: .leftToRight).fittingWidth == 300)
        #expect(layout("hello", .right, in: .rightToLeft).fittingWidth == 300)
        #expect(layout("hello", .natural, width: .infinity, in: .rightToLeft).fittingWidth == layout("hello", .natural, width: .infinity, in: .rightToLeft).size.width)
    }
}
