/// Puts positions in ascending order of their two-word keys (compared as the tuple
/// `(high, low)`), by a least-significant-byte radix sort: a snapshot puts every pending call
/// in call-id order (``CallID/orderKey``), thousands of them in a burst, and a comparison sort
/// spent more on that than on writing the calls.
///
/// Keys are assumed distinct (they are dictionary keys); the order of equal keys is unspecified.
enum TwoWordKeySort {
    /// A key and the position (in the caller's collection) it belongs to.
    struct Entry {
        var high: UInt64
        var low: UInt64
        var position: Int
    }

    /// Below this many entries a comparison sort is cheaper than the radix sort's histograms.
    static let radixThreshold = 256

    /// `entries` in ascending key order.
    static func sorted(_ entries: [Entry]) -> [Entry] {
        guard entries.count >= radixThreshold else {
            return entries.sorted { ($0.high, $0.low) < ($1.high, $1.low) }
        }
        // The bits in which some key differs from the first, per word, found in one walk: a
        // byte in which every key is the same (UUIDs' version and variant bits, the high bytes
        // of sequential ids, a high word all the SDK's ids share) needs no pass, not even the
        // count that would find it changes nothing.
        let first = entries[0]
        var differingHigh: UInt64 = 0
        var differingLow: UInt64 = 0
        for entry in entries {
            differingHigh |= entry.high ^ first.high
            differingLow |= entry.low ^ first.low
        }
        var source = entries
        var target = entries
        var counts = [Int](repeating: 0, count: 256)
        // Up to sixteen stable counting passes, the low word's bytes first, each from the lowest
        // byte: after the last, the entries are in order of the whole key. Ids need not be
        // random (sequential ones share their high word), so both words are sorted alike.
        for pass in 0..<16 {
            let inLowWord = pass < 8
            let shift = UInt64(pass % 8) * 8
            guard ((inLowWord ? differingLow : differingHigh) >> shift) & 0xFF != 0 else { continue }
            let moved = source.withUnsafeBufferPointer { from in
                target.withUnsafeMutableBufferPointer { to in
                    counts.withUnsafeMutableBufferPointer { counts in
                        Self.pass(from: from, to: to, counts: counts, inLowWord: inLowWord, shift: shift)
                    }
                }
            }
            // A pass in which every key has the same byte leaves the order as it is (UUIDs'
            // version and variant bits, the high bytes of sequential ids): nothing was moved.
            if moved { swap(&source, &target) }
        }
        return source
    }

    /// One stable counting pass over byte `shift / 8` of one word; false (and `to` unused) when
    /// every key has the same byte there.
    private static func pass(from: UnsafeBufferPointer<Entry>, to: UnsafeMutableBufferPointer<Entry>,
                             counts: UnsafeMutableBufferPointer<Int>, inLowWord: Bool, shift: UInt64) -> Bool {
        @inline(__always) func digit(_ entry: Entry) -> Int {
            Int(truncatingIfNeeded: ((inLowWord ? entry.low : entry.high) >> shift) & 0xFF)
        }
        counts.update(repeating: 0)
        for entry in from { counts[digit(entry)] += 1 }
        if counts[digit(from[0])] == from.count { return false }
        var offset = 0
        for index in counts.indices {
            let count = counts[index]
            counts[index] = offset
            offset += count
        }
        for entry in from {
            let bucket = digit(entry)
            to[counts[bucket]] = entry
            counts[bucket] += 1
        }
        return true
    }
}
