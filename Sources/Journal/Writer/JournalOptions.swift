import Foundation

/// How a ``JournalWriter`` lays out, commits and retains its segments.
public struct JournalOptions: Sendable {
    /// A segment is sealed and a new one begun once it reaches this many bytes (or, when its
    /// owner puts the rotation off, twice this many: ``JournalWriter/rotateIfNeeded(time:snapshotIsLarge:snapshot:)``).
    public var segmentBytes = 4 << 20
    /// A segment is also sealed once it holds this many records (nil: no bound), or twice this
    /// many when its owner puts the rotation off, plus the records of the bundle that reached the
    /// bound: records are counted as they are appended. Readers that rebuild state start at a
    /// segment's snapshot, so this bounds how much they fold.
    public var segmentRecords: Int?
    /// Whole old segments are deleted while the journal is larger than this; nil keeps everything.
    /// The segment being written is never deleted.
    public var retainedBytes: Int? = 64 << 20
    /// When appended records reach the file and when they are made durable.
    public var groupCommit = GroupCommit()
    /// A frame (and so a sync point) ends once it holds this many bytes of records.
    public var frameBytes = 64 << 10
    /// Whether a frame's blocks are linked (the default: smaller) or independent. Each frame
    /// says which in its descriptor and readers read both, so a journal may hold both kinds.
    public var blockMode = LZ4BlockMode.linked
    /// Whose LZ4 code compresses: liblz4 where it is linked in, this package's Swift elsewhere
    /// (iOS). Tests and benchmarks choose Swift on Linux too.
    package var lz4Implementation = LZ4Implementation.platformDefault
    /// A commit group is cut once it holds this many bytes, even below ``GroupCommit/maxRecords``.
    public var maxGroupBytes = 32 << 10
    /// With a group-commit thread, appends only encode records; that thread compresses and
    /// writes them. Once this many bytes of encoded records wait for it (it fell behind), an
    /// append compresses a whole waiting frame itself (with a second compressor, beside the
    /// thread), or else writes the oldest waiting groups after the thread's current chunk, so
    /// staging never holds much more than this (about one more frame). That append waits for
    /// CPU work and at most a `write`, never for an `fdatasync`.
    public var maxStagedBytes = 1 << 20
    /// The largest record (kind, time and payload) accepted; larger appends throw.
    public var maxRecordBytes = 1 << 20
    /// The writer never puts more records than this in one frame (recorded in each header).
    public var maxRecordsPerFrame: UInt32 = 65_536
    /// When a new segment (and its snapshot) begins.
    public var rotation = Rotation.automatic
    /// Written into every segment header, e.g. `engagement-sdk/0.1.0 linux-x86_64`.
    public var producer = "journal/\(SegmentFormat.currentVersion)"
    /// The id of a new journal; nil picks a random one. An existing journal keeps its own.
    public var journalID: UUID?
    /// The file operations; substitute to inject faults.
    public var storage: any JournalStorage = PosixStorage()
    /// Whether the writer holds the directory's ``JournalLock`` from its opening to its
    /// ``JournalWriter/close()``, so that no other writer, in this process or another, opens the
    /// journal meanwhile (the opening throws ``JournalLockError/held(path:holder:)``). Off by
    /// default; taken through ``storage`` (``JournalStorage/lockDirectory(at:)``: a storage with
    /// no other process to exclude takes none).
    public var locksDirectory = false
    /// The monotonic clock stamped into segment headers (diagnostic only).
    public var monotonicNanoseconds: @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }
    /// Hears a failure that no caller would: the group-commit thread's write or sync failed
    /// (the writer is then failed, and later appends throw). Called once, on that thread.
    public var backgroundFailureObserver: (@Sendable (JournalError) -> Void)?

    public init() {}

    func validated() throws -> JournalOptions {
        func require(_ condition: Bool, _ reason: String) throws {
            if !condition { throw JournalError.invalidOptions(reason) }
        }
        try require(segmentBytes >= 1024, "segmentBytes must be at least 1024")
        if let segmentRecords { try require(segmentRecords >= 16, "segmentRecords must be at least 16") }
        try require(frameBytes >= 1024 && frameBytes <= 1 << 20, "frameBytes must be within 1 KiB...1 MiB")
        try require(maxGroupBytes >= 256 && maxGroupBytes <= 1 << 20, "maxGroupBytes must be within 256 B...1 MiB")
        try require(maxRecordBytes >= 64 && maxRecordBytes <= SegmentFormat.maxRecordBytesLimit,
                    "maxRecordBytes must be within 64...\(SegmentFormat.maxRecordBytesLimit)")
        try require(maxStagedBytes >= maxGroupBytes, "maxStagedBytes must be at least maxGroupBytes")
        try require(groupCommit.maxRecords >= 1, "groupCommit.maxRecords must be at least 1")
        try require(maxRecordsPerFrame >= UInt32(groupCommit.maxRecords), "maxRecordsPerFrame must be at least groupCommit.maxRecords")
        if let retainedBytes { try require(retainedBytes >= segmentBytes, "retainedBytes must be at least segmentBytes") }
        if let delay = groupCommit.maxDelay { try require(delay > .zero, "groupCommit.maxDelay must be positive") }
        return self
    }
}

/// When the writer begins a new segment, which starts with a snapshot record.
public enum Rotation: Sendable, Equatable {
    /// Inside `append`, once the segment passed its size bound, with the snapshot provider
    /// given at open. Right for appenders whose state is consistent between any two appends.
    case automatic
    /// Only when the owner calls ``JournalWriter/rotateIfNeeded(time:snapshotIsLarge:snapshot:)``,
    /// at a moment it chooses (between two bundles of related records). `append` never rotates:
    /// a segment may pass its size bound by what is appended before the next call.
    case onRequest
}

/// Group commit: appends are gathered into groups; each group is compressed into one LZ4 block
/// and handed to the file system in one write.
public struct GroupCommit: Sendable {
    /// A group is cut once it holds this many records.
    public var maxRecords = 64
    /// A group is cut this long after its first record, by a background thread. With nil there
    /// is no thread: groups are cut only by size, by ``JournalWriter/sync()`` and ``JournalWriter/flush()``,
    /// all on the caller's thread, which makes the journal's bytes a function of the calls alone.
    public var maxDelay: Duration? = .milliseconds(2)
    /// Whether each group is made durable (`fdatasync`) as it is written ("durable"), or only
    /// when ``JournalWriter/flush()`` or ``JournalWriter/sync()`` asks ("buffered").
    public var synchronizesEachGroup = true

    public init(maxRecords: Int = 64, maxDelay: Duration? = .milliseconds(2), synchronizesEachGroup: Bool = true) {
        self.maxRecords = maxRecords
        self.maxDelay = maxDelay
        self.synchronizesEachGroup = synchronizesEachGroup
    }
}

/// What the writer asks the snapshot provider for: the state as of every record before
/// `sequence`, to be stored as record `sequence`, the first of a new segment.
public struct SnapshotRequest: Sendable, Equatable {
    public enum Reason: String, Sendable, Equatable {
        /// The journal's very first segment.
        case newJournal = "new journal"
        /// The previous segment reached its size bound.
        case rotation
        /// The previous segment ends in corruption and is kept as it is.
        case resumeAfterCorruption = "resume after corruption"
        /// The segment was created but its snapshot never reached the disk.
        case missingSnapshot = "missing snapshot"
        /// The last segment's header allows smaller records or frames than the writer's options:
        /// it is kept as it is and a new segment begins.
        case limitsChanged = "segment limits changed"
        /// The writer's owner asked for a new segment (``JournalWriter/beginSegment(time:snapshot:)``).
        case requested
        /// The segment being written grew old: a new one begins so that it can be deleted by age
        /// (``JournalWriter/removeSegments(olderThan:at:snapshot:)``).
        case ageLimit = "age limit"
        /// Everything before was erased (``JournalWriter/eraseAll(time:snapshot:)``).
        case erasure
    }

    public var sequence: UInt64
    public var time: JournalTime
    public var reason: Reason
}
