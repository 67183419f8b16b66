import Foundation
import Locking
import Testing
import TestSupport
@testable import SDK
@testable import SDKCore

/// The engine's table of pending completions against a `Dictionary` doing the same: the same
/// completion comes out for every id, once, through growth, markers and rebuilds.
@Suite("Completion table", .timeLimit(.minutes(1)))
struct CompletionTableTests {
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
}
