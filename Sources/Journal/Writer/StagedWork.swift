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

    /// Compress the group into one block.
    case group(Group)
    /// Write the frame's end mark; `frame` may then be reused for a new frame.
    case endFrame(FrameBuffer)

    /// Decompressed bytes this step holds in staging.
    var stagedBytes: Int {
        if case .group(let group) = self { return group.end - group.start }
        return 0
    }
}
