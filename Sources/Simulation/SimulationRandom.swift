import SDKTesting

/// The simulator's only source of randomness: SDKTesting's ``SplitMix64``, seeded from the
/// story's seed, with the draws a story needs.
///
/// Deterministic across runs, processes and platforms, so one seed always gives the same story
/// and the same journal bytes.
struct SimulationRandom {
    private var generator: SplitMix64

    init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    /// A generator for one purpose, independent of every other stream drawn from the seed.
    init(seed: UInt64, stream: UInt64) {
        var mixer = SplitMix64(seed: seed ^ (stream &* 0x9E37_79B9_7F4A_7C15))
        generator = SplitMix64(seed: mixer.next())
    }

    mutating func next() -> UInt64 {
        generator.next()
    }

    /// A number in `range` (which must not be empty).
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound) &+ 1
        return range.lowerBound + Int(width == 0 ? next() : next() % width)
    }

    /// A number in `range` (which must not be empty).
    mutating func int64(_ range: ClosedRange<Int64>) -> Int64 {
        let width = UInt64(bitPattern: range.upperBound &- range.lowerBound) &+ 1
        return range.lowerBound &+ Int64(bitPattern: width == 0 ? next() : next() % width)
    }

    /// True with probability `probability` (0...1).
    mutating func chance(_ probability: Double) -> Bool {
        guard probability > 0 else { return false }
        return Double(next() >> 11) / Double(1 << 53) < probability
    }

    /// One element of a non-empty array.
    mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[int(0...(elements.count - 1))]
    }
}
