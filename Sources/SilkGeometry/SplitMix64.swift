/// SplitMix64 (Steele, Lea & Flood 2014): a tiny, fast, seeded generator. The demo content, the
/// benchmark scenes, the soak runs and the property tests use it so that the same seed builds the
/// same scene or replays the same failure on every machine — `SystemRandomNumberGenerator` cannot.
/// Not for anything that must be unpredictable.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's whole state: copy it to fork a sequence, store it to resume one.
    public var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits; advances ``state``.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// An integer in `0..<n` (`0` when `n <= 1`). Plain modulo: the bias is below 2⁻⁴⁰ for the
    /// small `n` it is meant for, and unlike `Int.random(in:using:)` the sequence is fixed by
    /// this file rather than by the standard library's algorithm.
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }

    /// A double uniform in `[0, 1)`: the top 53 bits of the next value.
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
