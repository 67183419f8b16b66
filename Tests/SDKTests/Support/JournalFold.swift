import Foundation
import Journal
@testable import SDK

/// The journal of an SDK directory, read back and folded the way `replay` does.
struct JournalFold {
    struct Entry {
        var sequence: UInt64
        var time: JournalTime
        var fact: Fact
    }

    let entries: [Entry]

    init(directory: String, storage: any JournalStorage = PosixStorage()) throws {
        let cursor = try JournalReader(directory: directory + "/journal", storage: storage).records()
        var entries: [Entry] = []
        while let record = try cursor.next() {
            if record.isSnapshot { continue }
            entries.append(Entry(sequence: record.sequence, time: record.timestamp,
                                 fact: try FactCodec.decode(kind: record.kind, payload: record.payload)))
        }
        self.entries = entries
    }

    /// The state after every record up to and including `sequence`.
    func state(through sequence: UInt64) -> SDKState {
        var state = SDKState()
        for entry in entries where entry.sequence <= sequence { state.evolve(entry.fact, at: entry.time) }
        return state
    }

    /// Feeds each recorded input through `decide` on the state before it; returns the first
    /// input whose decisions differ from the recorded ones, with both lists.
    func recheck() -> (sequence: UInt64, recorded: [Fact], decided: [Fact])? {
        var state = SDKState()
        var index = 0
        while index < entries.count {
            let input = entries[index]
            var end = index + 1
            while end < entries.count, !(FactKind(rawValue: FactCodec.kind(of: entries[end].fact))?.isInput ?? false) { end += 1 }
            let recorded = entries[index..<end].map(\.fact)
            var copy = state
            let decided = copy.decide(input.fact, at: input.time)
            // Compared by encoding: bit-for-bit the same decisions (NaN arguments included).
            if decided.map(FactCodec.payload(of:)) != recorded.map(FactCodec.payload(of:))
                || decided.map(FactCodec.kind(of:)) != recorded.map(FactCodec.kind(of:)) {
                return (input.sequence, recorded, decided)
            }
            for entry in entries[index..<end] { state.evolve(entry.fact, at: entry.time) }
            index = end
        }
        return nil
    }
}
