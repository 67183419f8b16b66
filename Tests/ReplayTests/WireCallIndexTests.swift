import SDK
import Testing
@testable import ReplayKit

/// The reconciler's map from wire id to slot answers as a dictionary would, through growth and
/// removals that shift runs of entries back.
@Suite("Wire call index")
struct WireCallIndexTests {
    @Test("200,000 random inserts, updates, removals and lookups answer as a Dictionary")
    func matchesADictionary() {
        var generator = SystemRandomNumberGenerator()
        var index = WireCallIndex()
        var model: [WireCallID: Int] = [:]
        // Few distinct ids, so updates, removals of held ids and long runs all happen.
        let ids = (0..<5_000).map { _ in WireCallID(high: UInt64.random(in: 0...3, using: &generator), low: UInt64.random(in: .min ... .max, using: &generator)) }
        for step in 0..<200_000 {
            let id = ids[Int.random(in: 0..<ids.count, using: &generator)]
            switch Int.random(in: 0..<3, using: &generator) {
            case 0:
                index[id] = step
                model[id] = step
            case 1:
                index[id] = nil
                model[id] = nil
            default:
                #expect(index[id] == model[id], "lookup at step \(step)")
            }
            if step % 10_000 == 0 { #expect(index.count == model.count) }
        }
        for id in ids { #expect(index[id] == model[id]) }
        #expect(index.count == model.count)
    }

    @Test("ids equal in every bit but one are told apart, and all removed leaves none")
    func nearIdsAndEmptying() {
        var index = WireCallIndex()
        let ids = (0..<64).flatMap { bit in [WireCallID(high: 1 << UInt64(bit), low: 0), WireCallID(high: 0, low: 1 << UInt64(bit))] }
        for (slot, id) in ids.enumerated() { index[id] = slot }
        for (slot, id) in ids.enumerated() { #expect(index[id] == slot) }
        #expect(index[WireCallID(high: 0, low: 0)] == nil)
        for id in ids.reversed() { index[id] = nil }
        #expect(index.count == 0)
        for id in ids { #expect(index[id] == nil) }
    }
}
