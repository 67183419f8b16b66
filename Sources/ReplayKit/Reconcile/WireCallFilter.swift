import SDK

/// A set of wire call ids that may say yes of an id never inserted, never no of one that was
/// (a Bloom filter of 2^25 bits, 4 MiB, three probes taken from the id's own bits, which the
/// id's mixing spreads): what a streamed reconciliation keeps of the calls it let go, to tell
/// an entry made again for one of them. At 3 million ids, about 1.5% of other ids get a yes
/// (a look-up in the calls let go, at the end).
struct WireCallFilter {
    private var words: [UInt64] = []
    private static let bits = 1 << 25

    mutating func insert(_ id: WireCallID) {
        if words.isEmpty { words = Array(repeating: 0, count: Self.bits / 64) }
        let (first, second, third) = Self.probes(id)
        set(first)
        set(second)
        set(third)
    }

    func mayContain(_ id: WireCallID) -> Bool {
        guard !words.isEmpty else { return false }
        let (first, second, third) = Self.probes(id)
        return isSet(first) && isSet(second) && isSet(third)
    }

    private mutating func set(_ bit: Int) {
        words[bit >> 6] |= 1 << UInt64(bit & 63)
    }

    private func isSet(_ bit: Int) -> Bool {
        words[bit >> 6] & (1 << UInt64(bit & 63)) != 0
    }

    /// The three bits an id sets: from its high word's two halves and its low word.
    private static func probes(_ id: WireCallID) -> (Int, Int, Int) {
        let mask = UInt64(bits - 1)
        return (Int(id.high & mask), Int((id.high >> 32) & mask), Int(id.low & mask))
    }
}
