/// What ``JournalWriter/eraseAll(time:snapshot:)`` deleted: every record the journal held, as a
/// range of sequence numbers, and the segments and bytes they took.
public struct JournalErasure: Sendable, Hashable {
    /// The first record deleted (the oldest the journal still held).
    public var firstSequence: UInt64
    /// The last record deleted; below `firstSequence` when there was none.
    public var lastSequence: UInt64
    /// The segment files deleted.
    public var segments: Int
    /// The bytes those files took.
    public var bytes: Int
    /// Segment files that could not be deleted (each tried twice), and their bytes: their records
    /// are still on the disk, and the next erasure or retention tries them again.
    public var segmentsLeft = 0
    public var bytesLeft = 0
    /// Why a file could not be deleted (the last error), or the deletions not made durable.
    public var failure: String?

    public init(firstSequence: UInt64, lastSequence: UInt64, segments: Int, bytes: Int) {
        self.firstSequence = firstSequence
        self.lastSequence = lastSequence
        self.segments = segments
        self.bytes = bytes
    }

    /// How many records were deleted.
    public var records: UInt64 {
        lastSequence >= firstSequence ? lastSequence - firstSequence + 1 : 0
    }
}
