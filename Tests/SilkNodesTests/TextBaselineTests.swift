import SilkGeometry
import SilkLayout
import SilkRaster
import Testing
@testable import SilkNodes

/// Text nodes report their baselines, so a stack aligns text of different sizes by them.
@Suite struct TextBaselineTests {
    @Test func textOfDifferentSizesSharesItsFirstBaseline() throws {
        let big = TextNode(AttributedText("Big", attributes: TextAttributes(fontSize: 32)))
        let small = TextNode(AttributedText("small", attributes: TextAttributes(fontSize: 12)))
        let range = SizeRange(max: Size(width: 400, height: 400))
        let bigBaseline = try #require(big.layoutThatFits(range).baselines?.first)
        let smallBaseline = try #require(small.layoutThatFits(range).baselines?.first)
        #expect(bigBaseline > smallBaseline)
        let stack = StackLayoutSpec(direction: .horizontal, alignItems: .baselineFirst, children: [big, small])
        let l = try stack.layoutThatFits(range)
        let f = l.sublayouts.map(\.frame)
        // The small text moves down by the difference of the baselines.
        #expect(abs((f[1].minY + smallBaseline) - (f[0].minY + bigBaseline)) < 0.001)
        #expect(f[1].minY > 0)
    }
}
