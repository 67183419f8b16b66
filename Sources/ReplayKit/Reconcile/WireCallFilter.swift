import SDK

/// A set of wire call ids that may say yes of an id never inserted, never no of one that was
/// (a blocked Bloom filter of 2^25 bits, 4 MiB: the id's own bits, which its mixing spreads,
/// pick one 64-bit word and three bits in it, so an insert or a look-up touches one cache line):
/// what a streamed reconciliation keeps of the calls it let go, to tell an entry made again for
/// one of them. At 3 million ids, a few percent of other ids get a yes (a look-up in the calls
/// let go, at the end).
///
/// The first ``exactLimit`` ids are kept as they are, and the 4 MiB of the filter are made only
/// when more come: a small journal (a simulated story's backend check reconciles one each)
/// would otherwise pay for zeroing them, more than the rest of its reconciliation costs.
struct WireCallFilter {
    private var exact: Set<WireCallID> = []
    private var words: [UInt64] = []
    private static let wordCount = (1 << 25) / 64
    /// Ids kept exactly before the filter takes over (64 KiB of them at most).
    static let exactLimit = 4096

    mutating func insert(_ id: WireCallID) {
        if words.isEmpty {
            if exact.count < Self.exactLimit {
                exact.insert(id)
                return
            }
            words = Array(repeating: 0, count: Self.wordCount)
            for kept in exact { set(kept) }
            exact = []
        }
        set(id)
    }

    func mayContain(_ id: WireCallID) -> Bool {
        guard !words.isEmpty else { return exact.contains(id) }
        let (word, bits) = Self.probe(id)
        return words[word] & bits == bits
    }

    private mutating func set(_ id: WireCallID) {
        let (word, bits) = Self.probe(id)
        words[word] |= bits
    }

    /// The word the id falls in and its three bits there.
    private static func probe(_ id: WireCallID) -> (word: Int, bits: UInt64) {
        let word = Int(truncatingIfNeeded: id.high & UInt64(wordCount - 1))
        let bits: UInt64 = 1 << (id.low & 63) | 1 << ((id.low >> 6) & 63) | 1 << ((id.low >> 12) & 63)
        return (word, bits)
    }
}
