import Foundation
import Journal

/// Where the engine records facts. The SDK always records into its journal; the `bench`
/// executable (in this package) substitutes peers to compare what recording costs.
package protocol FactRecorder: Sendable {
    /// Identifies the record stream (the journal id).
    var streamID: UUID { get }
    /// The sequence number of the last record.
    var lastSequence: UInt64 { get }
    /// Begins a new segment with the snapshot `provider` returns, when one is due.
    func beginSegmentIfNeeded(time: JournalTime, snapshot provider: (SnapshotRequest) -> [UInt8]) throws
    /// Records one fact; returns its sequence number.
    func record(kind: UInt32, timestamp: JournalTime, payload: [UInt8]) throws -> UInt64
    /// Calls `completion` once everything recorded before the call is durable.
    func flush(completion: @escaping @Sendable (Result<UInt64, JournalError>) -> Void)
    func close() throws
}

extension JournalWriter: FactRecorder {
    package var streamID: UUID { journalID }

    package func beginSegmentIfNeeded(time: JournalTime, snapshot provider: (SnapshotRequest) -> [UInt8]) throws {
        try rotateIfNeeded(time: time, snapshot: provider)
    }

    package func record(kind: UInt32, timestamp: JournalTime, payload: [UInt8]) throws -> UInt64 {
        try payload.withUnsafeBytes { try append(kind: kind, timestamp: timestamp, payload: $0) }
    }
}
