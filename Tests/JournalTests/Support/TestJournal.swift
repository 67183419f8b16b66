import Foundation
import SDKTesting
import TestSupport
@testable import Journal

/// Small deterministic helpers for journal tests.
enum TestJournal {
    /// Options for deterministic tests: no group-commit thread, small segments and frames.
    static func options(
        segmentBytes: Int = 4096, frameBytes: Int = 1024, groupRecords: Int = 4, retainedBytes: Int? = nil,
        storage: (any JournalStorage)? = nil
    ) -> JournalOptions {
        var options = JournalOptions()
        if let storage { options.storage = storage }
        options.segmentBytes = segmentBytes
        options.frameBytes = frameBytes
        options.maxGroupBytes = 512
        options.retainedBytes = retainedBytes
        options.groupCommit = GroupCommit(maxRecords: groupRecords, maxDelay: nil, synchronizesEachGroup: false)
        options.journalID = UUID(uuidString: "00000000-0000-4000-8000-000000000001")
        options.monotonicNanoseconds = { 42 }
        return options
    }

    /// A snapshot provider that encodes the request, so tests can check what was asked.
    static let snapshot: @Sendable (SnapshotRequest) -> [UInt8] = { request in
        Array("snapshot@\(request.sequence):\(request.reason.rawValue)".utf8)
    }

    /// The payload of test record `index`: text with repetition, like real records.
    static func payload(_ index: Int) -> [UInt8] {
        var generator = SplitMix64(seed: UInt64(index))
        let names = ["alice", "bob", "carol", "dave"]
        let text = "{\"event\":\"purchase\",\"email\":\"\(names[Int(generator.next() % 4)])\(generator.next() % 100)@example.com\","
            + "\"amount\":\(generator.next() % 1000),\"index\":\(index)}"
        return Array(text.utf8)
    }

    static func time(_ index: Int) -> JournalTime {
        JournalTime(microsecondsSince1970: 1_700_000_000_000_000 + Int64(index) * 1_500)
    }

    /// Appends `count` test records (kinds 1...3) and returns their sequence numbers.
    @discardableResult
    static func appendRecords(_ writer: JournalWriter, count: Int, startingAt first: Int = 0) throws -> [UInt64] {
        try (first..<(first + count)).map { index in
            try writer.append(kind: UInt32(16 + index % 3), timestamp: time(index), payload: payload(index))
        }
    }

    /// Every record a strict cursor returns, plus its torn tail.
    static func readAll(_ directory: String, from sequence: UInt64? = nil) throws -> (records: [JournalRecord], tornTail: Damage?) {
        let cursor = try JournalReader(directory: directory).records(from: sequence)
        var records: [JournalRecord] = []
        while let record = try cursor.next() { records.append(record) }
        return (records, cursor.tornTail)
    }

    /// Application records only (snapshots removed).
    static func applicationRecords(_ records: [JournalRecord]) -> [JournalRecord] {
        records.filter { !$0.isSnapshot }
    }
}
