/// A record as the reader finds it, with its payload borrowed from the reader's buffer.
///
/// The payload is valid only until the reader moves on; copy it (``JournalRecord``) to keep it.
public struct RecordView {
    public let sequence: UInt64
    public let kind: UInt32
    public let timestamp: JournalTime
    public let payload: UnsafeRawBufferPointer

    /// Whether this is a snapshot record, which the writer puts first in every segment.
    public var isSnapshot: Bool { kind == SegmentFormat.snapshotKind }
}

/// A record with its own copy of the payload.
public struct JournalRecord: Sendable, Hashable {
    public var sequence: UInt64
    public var kind: UInt32
    public var timestamp: JournalTime
    public var payload: [UInt8]

    public init(sequence: UInt64, kind: UInt32, timestamp: JournalTime, payload: [UInt8]) {
        self.sequence = sequence
        self.kind = kind
        self.timestamp = timestamp
        self.payload = payload
    }

    public init(_ view: RecordView) {
        self.init(sequence: view.sequence, kind: view.kind, timestamp: view.timestamp, payload: Array(view.payload))
    }

    public var isSnapshot: Bool { kind == SegmentFormat.snapshotKind }
}
