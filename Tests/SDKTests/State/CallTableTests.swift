import Foundation
import Locking
import SDKTesting
import Testing
import TestSupport
@testable import SDK
@testable import SDKCore

/// The tables by call id laid out by `CallTableSlots` (the engine's completions, the state's pending
/// calls) against a `Dictionary` doing the same: the same value comes out for every id, once,
/// through growth, markers and rebuilds; equality, iteration and look-ups agree with the
/// dictionary's.
@Suite("Call tables", .timeLimit(.minutes(1)))
struct CallTableTests {
    /// A completion that reports `tag` into `heard` when run.
    private static func completion(_ tag: Int, _ heard: Locked<[Int]>) -> CallCompletion {
        .outcome { _ in heard.withLock { $0.append(tag) } }
    }

    private static func id(_ number: UInt64, family: UInt64) -> CallID {
        CallID(high: family, low: number)
    }

    @Test("random insertions, replacements and removals agree with a Dictionary", arguments: [1, 2, 3, 4])
    func agreesWithADictionary(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let heard = Locked<[Int]>([])
        var table = CompletionTable()
        var reference: [CallID: Int] = [:]
        // Ids from two "processes" (high words), sequential as the SDK makes them, plus a few
        // that collide in the hash's low bits with others.
        for step in 0..<40_000 {
            let call = Self.id(random.next() % 3_000, family: random.next() % 2)
            switch random.next() % 5 {
            case 0, 1, 2:
                table.insert(Self.completion(step, heard), for: call)
                reference[call] = step
            default:
                let taken = table.remove(call)
                let expected = reference.removeValue(forKey: call)
                #expect((taken == nil) == (expected == nil), "step \(step)")
                if let taken, let expected {
                    if case .outcome(let body) = taken { body(.applied(project: nil)) }
                    #expect(heard.withLock { $0.removeLast() } == expected, "step \(step)")
                }
            }
            #expect(table.count == reference.count)
        }
        // Everything left comes out, each once.
        for (call, expected) in reference {
            guard case .outcome(let body)? = table.remove(call) else {
                Issue.record("\(call) was not there")
                continue
            }
            body(.applied(project: nil))
            #expect(heard.withLock { $0.removeLast() } == expected)
            #expect(table.remove(call) == nil)
        }
        #expect(table.count == 0)
    }

    @Test("a burst: ten thousand filed, then taken in call order, twice over (the markers go when the table empties)")
    func burst() {
        let heard = Locked<[Int]>([])
        var table = CompletionTable()
        for round in 0..<2 {
            for number in 0..<10_000 { table.insert(Self.completion(number, heard), for: Self.id(UInt64(round * 10_000 + number), family: 7)) }
            #expect(table.count == 10_000)
            for number in 0..<10_000 {
                guard case .outcome(let body)? = table.remove(Self.id(UInt64(round * 10_000 + number), family: 7)) else {
                    Issue.record("\(number) missing")
                    return
                }
                body(.applied(project: nil))
            }
            #expect(table.count == 0)
        }
        #expect(heard.withLock { $0 } == Array(0..<10_000) + Array(0..<10_000))
    }

    @Test("as a collection it holds what a Dictionary holds: look-ups, iteration, keys, values and removal by index", arguments: [5, 6])
    func collectionAgreesWithADictionary(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var table = CallTable<Int>()
        var reference: [CallID: Int] = [:]
        for step in 0..<20_000 {
            let call = Self.id(random.next() % 1_500, family: random.next() % 2)
            switch random.next() % 6 {
            case 0, 1, 2:
                table[call] = step
                reference[call] = step
            case 3:
                table[call] = nil
                reference[call] = nil
            case 4:
                let index = table.index(forKey: call)
                #expect((index == nil) == (reference[call] == nil), "step \(step)")
                if let index {
                    let removed = table.remove(at: index)
                    #expect(removed.key == call && removed.value == reference.removeValue(forKey: call), "step \(step)")
                }
            default:
                #expect(table[call] == reference[call], "step \(step)")
            }
            if step % 1_000 == 0 {
                #expect(Dictionary(uniqueKeysWithValues: table.map { ($0.key, $0.value) }) == reference)
                #expect(Set(table.keys) == Set(reference.keys))
                #expect(table.values.sorted() == reference.values.sorted())
            }
        }
        #expect(table.count == reference.count && table.isEmpty == reference.isEmpty)
        #expect(table.map(\.key).count == table.count, "iteration visits each entry once")
    }

    @Test("equal tables: the same ids with equal values, whatever the order they were filed in or the removals before")
    func equalityIgnoresLayout() {
        var forward = CallTable<String>()
        var backward = CallTable<String>()
        let calls = (0..<200).map { Self.id(UInt64($0), family: 3) }
        for call in calls { forward[call] = "\(call)" }
        // The other filed in reverse, through a growth and with ids filed and taken out again.
        for call in calls.reversed() { backward[call] = "\(call)" }
        for number in 500..<700 { backward[Self.id(UInt64(number), family: 3)] = "gone" }
        for number in 500..<700 { backward[Self.id(UInt64(number), family: 3)] = nil }
        #expect(forward == backward)
        backward[calls[7]] = "changed"
        #expect(forward != backward)
        backward[calls[7]] = "\(calls[7])"
        backward[Self.id(1_000, family: 3)] = "extra"
        #expect(forward != backward)
        #expect(CallTable<String>() == [:])
    }
}

