import SDK
import Testing
@testable import ReplayKit

/// The filter of ids a streamed reconciliation let go: never a no for an id inserted, and few
/// yeses for others.
@Suite("Wire call filter")
struct WireCallFilterTests {
    @Test("a million ids inserted all answer yes; of a million others, under 1% do")
    func noFalseNegativesFewFalsePositives() {
        var generator = SystemRandomNumberGenerator()
        var filter = WireCallFilter()
        func randomID() -> WireCallID {
            WireCallID(high: UInt64.random(in: .min ... .max, using: &generator), low: UInt64.random(in: .min ... .max, using: &generator))
        }
        #expect(!filter.mayContain(randomID()), "an empty filter holds nothing")
        let inserted = (0..<1_000_000).map { _ in randomID() }
        for id in inserted { filter.insert(id) }
        #expect(inserted.allSatisfy { filter.mayContain($0) })
        let falseYeses = (0..<1_000_000).reduce(0) { count, _ in count + (filter.mayContain(randomID()) ? 1 : 0) }
        #expect(falseYeses < 10_000, "\(falseYeses) false yeses")
    }

    @Test("below its exact limit it answers exactly; past it, every id kept before still answers yes")
    func exactThenFiltered() {
        var filter = WireCallFilter()
        let ids = (0..<UInt64(WireCallFilter.exactLimit + 100)).map { WireCallID(high: $0 &* 0x9E37_79B9_7F4A_7C15, low: $0) }
        for id in ids.prefix(WireCallFilter.exactLimit) { filter.insert(id) }
        #expect(ids.prefix(WireCallFilter.exactLimit).allSatisfy { filter.mayContain($0) })
        #expect(!ids.suffix(100).contains { filter.mayContain($0) }, "exact: no false yes")
        for id in ids.suffix(100) { filter.insert(id) }
        #expect(ids.allSatisfy { filter.mayContain($0) })
    }
}
