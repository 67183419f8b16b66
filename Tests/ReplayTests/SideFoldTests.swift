import Foundation
import Journal
import Locking
import SDK
import Testing
@testable import ReplayKit

/// `SideFold`: a second fold of a walk's records on a thread of its own (the report's switches
/// and contract beside its calls) must see what the walk sees, in the walk's order.
@Suite("folding beside a walk", .timeLimit(.minutes(2)))
struct SideFoldTests {
    private typealias Seen = (items: [String], states: [SDKState], final: SDKState)

    /// A journal of `calls` setEmail calls (three records each), in segments of 8 KiB.
    private func journal(calls: UInt64) throws -> String {
        typealias J = CraftedJournal
        let path = ReplayHarness.temporaryDirectory()
        let journal = try CraftedJournal(directory: path, segmentBytes: 8192)
        try journal.append(.callReceived(J.received(1, .initialize(J.us))))
        try journal.append(.initialized(project: J.us, generation: 1))
        for number in UInt64(2)..<(calls + 2) {
            try journal.append(.callReceived(J.received(number, .setEmail("user\(number)@example.com"))))
            try journal.append(.identityChanged(email: "user\(number)@example.com", userID: nil))
            try journal.append(.callResolved(call: J.call(number), outcome: .applied(project: J.us.fingerprint)))
        }
        try journal.close()
        return path
    }

    @Test("the side thread reads every record in order against the state the walk had before it, and each resumption where it was handed")
    func sameAsTheWalk() throws {
        let journal = try journal(calls: 400)
        defer { try? FileManager.default.removeItem(atPath: journal) }
        let walk = try JournalWalk(reader: try JournalReader(directory: journal))
        let side = SideFold<Seen>(startingFrom: walk.state) { feed in
            var seen: Seen = ([], [], SDKState())
            feed.forEach { item, before in
                switch item {
                case .record(let record):
                    seen.items.append("record \(record.sequence)")
                    seen.states.append(copy before)
                case .resumed(let skip):
                    seen.items.append("resumed at \(skip.resumedAtSequence ?? 0)")
                }
            }
            seen.final = feed.state
            return seen
        }
        var expected: [String] = [], states: [SDKState] = []
        while let record = try walk.next() {
            if record.sequence == 40 {
                let damage = Damage(kind: .corruption, segment: "a test's", offset: 0, sequence: 39, reason: "a test's")
                side.handResumption(after: SkippedRange(damage: damage, resumedAtOffset: nil, resumedAtSequence: 40))
                expected.append("resumed at 40")
            }
            side.hand(record)
            expected.append("record \(record.sequence)")
            walk.fold(record) { states.append(copy $0) }
        }
        let seen = side.finish()
        #expect(states.count > 2 * SideFold<Seen>.batchSize, "the journal spans several hand-overs")
        #expect(seen.items == expected)
        // (States are compared by index: a failure printing thousands of them says nothing.)
        #expect(seen.states.count == states.count)
        let differs = states.indices.first { $0 >= seen.states.count || seen.states[$0] != states[$0] }
        #expect(differs == nil, "the side's state before the \(differs.map(String.init) ?? "-")th record is not the walk's")
        #expect(seen.final == walk.state, "the side's final state is the walk's")
    }

    @Test("more records than may wait: the walk waits for the side thread, which reads them all")
    func boundedHandOver() {
        let unreadable = DecodedRecord(sequence: 1, time: JournalTime(microsecondsSince1970: 0), kind: 999, payloadBytes: 0,
                                       content: .unreadable("a test's"))
        let count = 3 * SideFold<Int>.batchesAhead * SideFold<Int>.batchSize + 7
        let side = SideFold<Int>(startingFrom: SDKState()) { feed in
            var read = 0
            feed.forEach { _, _ in read += 1 }
            return read
        }
        for _ in 0..<count { side.hand(unreadable) }
        #expect(side.finish() == count)
    }

    @Test("a fold dropped unfinished (its walk threw) lets its thread end, and waits for it")
    func droppedUnfinished() {
        let ended = Locked(false)
        do {
            let side = SideFold<Int>(startingFrom: SDKState()) { feed in
                var read = 0
                feed.forEach { _, _ in read += 1 }
                ended.withLock { $0 = true }
                return read
            }
            side.hand(DecodedRecord(sequence: 1, time: JournalTime(microsecondsSince1970: 0), kind: 999, payloadBytes: 0,
                                    content: .unreadable("a test's")))
        }
        #expect(ended.withLock { $0 })
    }
}
