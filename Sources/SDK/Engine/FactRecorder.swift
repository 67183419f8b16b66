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
    /// The last record the journal held when this recorder opened it (0: none).
    var recoveredThrough: UInt64 { get }
    /// The records this recorder numbered after `sequence`, if any (what a failed recorder lost
    /// when the journal reopened holds records through `sequence` only).
    func recordsHandedOut(after sequence: UInt64) -> HandedOutRecords?
    /// Begins a new segment with the snapshot `provider` returns, when one is due. A rotation
    /// may be put off while `snapshotIsLarge` says true, up to twice the segment's bounds
    /// (``JournalWriter/rotateIfNeeded(time:snapshotIsLarge:snapshot:)``).
    func beginSegmentIfNeeded(time: JournalTime, snapshotIsLarge: () -> Bool, snapshot provider: (SnapshotRequest) -> [UInt8]) throws
    /// Begins a new segment now with the snapshot `provider` returns (after an outage), past
    /// `skippingThrough`, the last sequence number an earlier recorder of the journal gave out.
    func beginSegment(time: JournalTime, skippingThrough: UInt64?, snapshot provider: (SnapshotRequest) -> [UInt8]) throws
    /// Records the facts of one input, encoded in `bundle`, atomically (a crash keeps all of them
    /// or none); returns the last one's sequence number.
    func record(_ bundle: RecordBundle, timestamp: JournalTime) throws -> UInt64
    /// Deletes what is older than `maxAge` at `time`, beginning a new segment (with the snapshot
    /// `provider` returns) when the one being written grew old
    /// (``JournalWriter/removeSegments(olderThan:at:snapshot:)``).
    func removeRecords(olderThan maxAge: Duration, at time: JournalTime, snapshot provider: (SnapshotRequest) -> [UInt8]) throws
    /// Deletes every record, going on in a new segment whose first record is the snapshot
    /// `provider` returns (``JournalWriter/eraseAll(time:snapshot:)``).
    func eraseAll(time: JournalTime, snapshot provider: (SnapshotRequest) -> [UInt8]) throws -> JournalErasure
    /// Calls `completion` once everything recorded before the call is durable.
    func flush(completion: @escaping @Sendable (Result<UInt64, JournalError>) -> Void)
    func close() throws
    /// Whether this recorder holds an inter-process lock that ``close()`` gives back, so that the
    /// engine closes it while the app is suspended and opens it again (``EngineEnvironment/reopenRecorder()``)
    /// for the next input (docs/PLATFORMS.md, "App extensions").
    var locksJournal: Bool { get }
}

extension FactRecorder {
    package var locksJournal: Bool { false }
}

extension JournalWriter: FactRecorder {
    package var streamID: UUID { journalID }
    package var recoveredThrough: UInt64 { recovery.lastSequence ?? 0 }
    package var locksJournal: Bool { locksDirectory }

    package func beginSegmentIfNeeded(time: JournalTime, snapshotIsLarge: () -> Bool, snapshot provider: (SnapshotRequest) -> [UInt8]) throws {
        try rotateIfNeeded(time: time, snapshotIsLarge: snapshotIsLarge, snapshot: provider)
    }

    package func record(_ bundle: RecordBundle, timestamp: JournalTime) throws -> UInt64 {
        try appendBundle(bundle, timestamp: timestamp)
    }

    package func removeRecords(olderThan maxAge: Duration, at time: JournalTime, snapshot provider: (SnapshotRequest) -> [UInt8]) throws {
        try removeSegments(olderThan: maxAge, at: time, snapshot: provider)
    }
}
