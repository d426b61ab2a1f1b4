import Testing
import SilkGeometry

@Suite struct SplitMix64Tests {
    /// The reference sequence of Vigna's splitmix64.c for seed 1234567: scenes built and
    /// failures replayed from a seed are the same on every machine and every Swift version.
    @Test func matchesTheReferenceSequence() {
        var g = SplitMix64(seed: 1_234_567)
        let expected: [UInt64] = [6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
                                  4_593_380_528_125_082_431, 16_408_922_859_458_223_821]
        #expect((0..<5).map { _ in g.next() } == expected)
    }

    @Test func unitAndBelowStayInRange() {
        var g = SplitMix64(seed: 42)
        for _ in 0..<10_000 {
            let u = g.unit()
            #expect(u >= 0 && u < 1)
            let b = g.below(7)
            #expect(b >= 0 && b < 7)
        }
        #expect(g.below(0) == 0 && g.below(-3) == 0 && g.below(1) == 0)
    }
}
