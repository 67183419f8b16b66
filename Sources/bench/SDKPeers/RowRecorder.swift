import Journal
import SDK

/// A peer that records one row per fact and has no segments: what `FactRecorder` asks beyond
/// writing a row is the same for every such peer.
protocol RowRecorder: FactRecorder {
    /// Writes one fact as a row; returns its sequence number.
    func recordRow(kind: UInt32, timestamp: JournalTime, payload: [UInt8]) throws -> UInt64
}

extension RowRecorder {
    /// Peers have no segments: nothing to begin.
    func beginSegmentIfNeeded(time: JournalTime, snapshotIsLarge: () -> Bool, snapshot provider: (SnapshotRequest) -> [UInt8]) throws {}

    /// Peers have no segments: nothing to begin.
    func beginSegment(time: JournalTime, skippingThrough: UInt64?, snapshot provider: (SnapshotRequest) -> [UInt8]) throws {}

    /// Peers keep every row: the benchmarks never run long enough for rows to age.
    func removeRecords(olderThan maxAge: Duration, at time: JournalTime, snapshot provider: (SnapshotRequest) -> [UInt8]) throws {}

    /// The benchmarks never erase.
    func eraseAll(time: JournalTime, snapshot provider: (SnapshotRequest) -> [UInt8]) throws -> JournalErasure {
        throw JournalError.invalidOptions("a benchmark peer cannot erase its rows")
    }

    /// Peers are never reopened after a failure: nothing was recovered, nothing is accounted.
    var recoveredThrough: UInt64 { 0 }
    func recordsHandedOut(after sequence: UInt64) -> HandedOutRecords? { nil }

    func record(_ bundle: RecordBundle, timestamp: JournalTime) throws -> UInt64 {
        var last: UInt64 = 0
        for index in 0..<bundle.count {
            last = try recordRow(kind: bundle.kinds[index], timestamp: timestamp, payload: Array(bundle.payloads[bundle.payloadRange(index)]))
        }
        return last
    }
}
