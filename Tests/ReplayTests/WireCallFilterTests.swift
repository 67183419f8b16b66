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
}
