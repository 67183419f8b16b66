import Foundation
import Journal

/// Where the engine records facts. The SDK always records into its journal; the `bench`
/// executable (in this package) substitutes peers to compare what recording costs.
///
/// A class: the engine calls its recorder twice per input through an `any FactRecorder`
/// property, and a class existential is copied for the call with one retain, not through its
/// value witnesses.
package protocol FactRecorder: AnyObject, Sendable {
    /// Identifies the record stream (the journal id).
    var streamID: UUID { get }
    /// The sequence number of the last record.
    var lastSequence: UInt64 { get }
    /// Begins a new segment with the snapshot `provider` returns, when one is due. A rotation
    /// may be put off while `snapshotIsLarge` says true, up to twice the segment's bounds
    /// (``JournalWriter/rotateIfNeeded(time:snapshotIsLarge:snapshot:)``).
    func beginSegmentIfNeeded(time: JournalTime, snapshotIsLarge: () -> Bool, snapshot provider: (SnapshotRequest) -> [UInt8]) throws
    /// Begins a new segment now with the snapshot `provider` returns (after an outage).
    func beginSegment(time: JournalTime, snapshot provider: (SnapshotRequest) -> [UInt8]) throws
    /// Records the facts of one input, encoded in `batch`, atomically (a crash keeps all of them
    /// or none); returns the last one's sequence number.
    func record(_ batch: RecordBatch, timestamp: JournalTime) throws -> UInt64
    /// Calls `completion` once everything recorded before the call is durable.
    func flush(completion: @escaping @Sendable (Result<UInt64, JournalError>) -> Void)
    func close() throws
}

extension JournalWriter: FactRecorder {
    package var streamID: UUID { journalID }

    package func beginSegmentIfNeeded(time: JournalTime, snapshotIsLarge: () -> Bool, snapshot provider: (SnapshotRequest) -> [UInt8]) throws {
        try rotateIfNeeded(time: time, snapshotIsLarge: snapshotIsLarge, snapshot: provider)
    }

    package func record(_ batch: RecordBatch, timestamp: JournalTime) throws -> UInt64 {
        try appendBatch(batch, timestamp: timestamp)
    }
}
