/// What ``JournalReader/verify(progress:)`` found.
public struct VerificationReport: Sendable, Equatable {
    public var segments = 0
    public var records = 0
    public var snapshots = 0
    public var firstSequence: UInt64?
    public var lastSequence: UInt64?
    public var firstTime: JournalTime?
    public var lastTime: JournalTime?
    /// Bytes of segment files on disk.
    public var fileBytes = 0
    /// Bytes of the decompressed record stream (what `lz4 -dc` prints).
    public var recordBytes = 0
    /// A torn tail at the end of the last segment (not an error: recovery truncates it).
    public var tornTail: Damage?
    /// Every corruption found, in file order.
    public var corruption: [Damage] = []
    /// What was stepped over to get past each corruption.
    public var skipped: [SkippedRange] = []
    /// Sequence numbers a failed writer gave out that no segment holds, as the segment after
    /// each run declares: not damage (docs/FORMAT.md).
    public var abandoned: [ClosedRange<UInt64>] = []
    /// Set when a file could not be read at all.
    public var unreadable: String?

    public init() {}

    /// No corruption and nothing unreadable (a torn tail is allowed).
    public var isClean: Bool { corruption.isEmpty && unreadable == nil }

    /// Record-stream bytes per file byte.
    public var compressionRatio: Double { fileBytes > 0 ? Double(recordBytes) / Double(fileBytes) : 0 }
}
