/// One sync point of a segment: where its marker starts, and the sequence and time of the first
/// record of the frame after it.
public struct IndexEntry: Sendable, Equatable {
    public var offset: Int
    public var sequence: UInt64
    public var time: JournalTime

    public init(offset: Int, sequence: UInt64, time: JournalTime) {
        self.offset = offset
        self.sequence = sequence
        self.time = time
    }
}
