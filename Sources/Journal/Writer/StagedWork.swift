/// One step of the commit pipeline, sealed by the appender and carried out, in order, by the
/// committer (``CommitSink``): compress a group into a block, or close a frame.
enum StagedWork: Sendable {
    /// A sealed commit group: records plus their block check, `[start, end)` of `frame`.
    struct Group: Sendable {
        let frame: FrameBuffer
        let start: Int
        let end: Int
        /// The group's first record, for the sync marker when the group opens a frame.
        let firstSequence: UInt64
        let firstTime: JournalTime
        let lastSequence: UInt64
        /// Whether the group is the frame's first: a sync marker and a frame header go first.
        let opensFrame: Bool
    }

    /// A whole frame an appender compressed with the second compressor while the group-commit
    /// thread compressed earlier ones: sync marker, frame header, blocks and end mark.
    struct CompressedFrame: Sendable {
        let bytes: [UInt8]
        let firstSequence: UInt64
        let firstTime: JournalTime
        let lastSequence: UInt64
        /// The decompressed bytes its groups held in staging (released once it is written).
        let stagedBytes: Int
    }

    /// Compress the group into one block.
    case group(Group)
    /// Write the frame's end mark; `frame` may then be reused for a new frame.
    case endFrame(FrameBuffer)
    /// Write the frame as it is.
    case compressedFrame(CompressedFrame)
    /// A frame an appender is compressing now: the committer stops before it.
    case beingCompressed

    /// Decompressed bytes this step holds in staging.
    var stagedBytes: Int {
        switch self {
        case .group(let group): group.end - group.start
        case .compressedFrame(let frame): frame.stagedBytes
        case .endFrame, .beingCompressed: 0
        }
    }
}
