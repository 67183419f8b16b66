import Foundation
import Journal
import Locking
import SDK
import Testing
@testable import ReplayKit

/// `SideFold`: analyses of a walk's records on a thread of their own (the report's switches and
/// contract beside its calls) must read what the walk handed over, in the walk's order.
@Suite("analysing beside a walk", .timeLimit(.minutes(2)))
struct SideFoldTests {
    @Test("the side thread reads every record with its look, in order, each resumption where it was handed, and the walk's end")
    func sameAsTheWalk() throws {
        let journal = try ReadAheadTests.journal(calls: 400)
        defer { try? FileManager.default.removeItem(atPath: journal) }
        let walk = try JournalWalk(reader: try JournalReader(directory: journal))
        // The look: the number of pending calls before the record.
        let side = SideFold<Int, (items: [String], end: SDKState?)> { feed in
            var items: [String] = []
            feed.forEach { item in
                switch item {
                case .record(let record, let pending): items.append("record \(record.sequence), \(pending) pending")
                case .resumed(let skip): items.append("resumed at \(skip.resumedAtSequence ?? 0)")
                }
            }
            return (items, feed.end)
        }
        var expected: [String] = []
        while let record = try walk.next() {
            if record.sequence == 40 {
                let damage = Damage(kind: .corruption, segment: "a test's", offset: 0, sequence: 39, reason: "a test's")
                side.handResumption(after: SkippedRange(damage: damage, resumedAtOffset: nil, resumedAtSequence: 40))
                expected.append("resumed at 40")
            }
            walk.fold(record) { before in
                side.hand(record, looking: before.pendingCalls.count)
                expected.append("record \(record.sequence), \(before.pendingCalls.count) pending")
            }
        }
        let seen = side.finish(endingWith: walk.state)
        #expect(expected.count > 2 * SideFold<Int, Int>.batchSize, "the journal spans several hand-overs")
        #expect(seen.items == expected)
        #expect(seen.end == walk.state, "the side's end is the walk's state after its last record")
    }

    @Test("more records than may wait: the walk waits for the side thread, which reads them all")
    func boundedHandOver() {
        let unreadable = DecodedRecord(sequence: 1, time: JournalTime(microsecondsSince1970: 0), kind: 999, payloadBytes: 0,
                                       content: .unreadable("a test's"))
        let count = 3 * SideFold<Int, Int>.batchesAhead * SideFold<Int, Int>.batchSize + 7
        let side = SideFold<Int, Int> { feed in
            var read = 0
            feed.forEach { _ in read += 1 }
            return read
        }
        for number in 0..<count { side.hand(unreadable, looking: number) }
        #expect(side.finish(endingWith: SDKState()) == count)
    }

    @Test("a fold dropped unfinished (its walk threw) lets its thread end without the walk's end, and waits for it")
    func droppedUnfinished() {
        let ended = Locked<Bool?>(nil)
        do {
            let side = SideFold<Int, Int> { feed in
                var read = 0
                feed.forEach { _ in read += 1 }
                ended.withLock { $0 = feed.end != nil }
                return read
            }
            side.hand(DecodedRecord(sequence: 1, time: JournalTime(microsecondsSince1970: 0), kind: 999, payloadBytes: 0,
                                    content: .unreadable("a test's")), looking: 0)
        }
        #expect(ended.withLock { $0 } == false)
    }
}
