/// What a ``JournalWriter`` found and repaired when it opened an existing journal.
public struct RecoveryReport: Sendable, Equatable {
    /// Segments present when the writer opened the directory.
    public var segmentsFound = 0
    /// The last record found in the journal, if any.
    public var lastSequence: UInt64?
    /// A torn tail that was truncated away (what a crash mid-append leaves).
    public var tornTail: Damage?
    /// How many bytes the truncation removed.
    public var truncatedBytes = 0
    /// Corruption found at the end of the last segment. That segment is kept untouched, for
    /// `replay verify` and salvage, and appends continue in a new segment.
    public var corruption: Damage?
    /// Segments whose creation never completed (no full header) and were removed.
    public var removedIncompleteSegments: [String] = []
    /// Set when the disk refused a repair (truncating a torn tail, closing a frame, or making
    /// what is kept durable: a sync failed, or the disk is full). Nothing the journal holds
    /// past its last durable point is then trusted: the writer opens stopped, every append
    /// throws, and a writer opened once the disk works repairs the journal.
    public var repairFailure: JournalError?

    public init() {}
}
