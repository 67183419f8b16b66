import SDKTesting
import Testing
import TestSupport
@testable import SDKCore

@Suite("Snapshots: call ids in order (two-word radix sort)")
struct TwoWordKeySortTests {
    @Test("the radix sort gives the comparison sort's order, below and above its threshold, with shared high words and constant bytes",
          arguments: [0, 1, 2, 255, 256, 257, 1_000, 5_000])
    func sameOrderAsComparing(count: Int) {
        var keys = SplitMix64(seed: UInt64(count))
        var entries: [TwoWordKeySort.Entry] = []
        for position in 0..<count {
            // A third share their high word with another entry (only the low word orders them);
            // one byte of each word is the same in every key (as a UUID's version and variant
            // bits are), so the passes over it move nothing.
            let high = position % 3 == 0 && position > 0 ? entries[position - 1].high : (keys.next() & ~0xFF_0000) | 0x42_0000
            entries.append(TwoWordKeySort.Entry(high: high, low: (keys.next() & ~0xFF) | 0x80, position: position))
        }
        let sorted = TwoWordKeySort.sorted(entries)
        let expected = entries.sorted { ($0.high, $0.low) < ($1.high, $1.low) }
        #expect(sorted.map(\.position) == expected.map(\.position))
    }
}
