/// Records a writer gave sequence numbers to after a given one: after a failure, what a journal
/// reopened at that sequence does not hold (``JournalWriter/recordsHandedOut(after:)``).
public struct HandedOutRecords: Sendable, Equatable {
    /// Their sequence numbers, in order: every one of them was given out, once.
    public var sequences: ClosedRange<UInt64>
    /// The timestamp of the first of them, or nil when the writer no longer knows it (the
    /// first was already durable, so a journal that ends before it lost a durable record).
    public var firstTime: JournalTime?
    /// How many of them are snapshots (the first record of a segment the writer began).
    public var snapshots: Int

    public init(sequences: ClosedRange<UInt64>, firstTime: JournalTime?, snapshots: Int) {
        self.sequences = sequences
        self.firstTime = firstTime
        self.snapshots = snapshots
    }

    /// How many records: snapshots included.
    public var count: UInt64 { sequences.upperBound - sequences.lowerBound + 1 }
}
