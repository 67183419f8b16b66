/// The second half of the commit pipeline: turns sealed groups into LZ4 blocks and hands them
/// to the segment file.
///
/// It lives behind its own lock in ``JournalWriter``, taken before the writer state's lock,
/// never after it. Whoever holds it is the only one compressing or writing segment data: the
/// group-commit thread, or an appending thread that does the work itself (no group-commit
/// thread, a segment to begin, `sync()`, `close()`, or staging past its byte bound).
struct CommitSink: Sendable {
    let compressor: FrameCompressor
    /// Where a round's blocks gather before their one `write`.
    let staging: StagingBuffer

    /// What one ``write(_:to:)`` did.
    struct Written {
        /// The last sequence of the last group written, if any group was.
        var lastSequence: UInt64?
        /// Bytes of decompressed content that left staging.
        var stagedBytes = 0
        /// Frame buffers whose end mark was written: free for new frames.
        var freedFrames: [FrameBuffer] = []
    }

    /// Compresses `work` in order and writes the result to `segment` with one `write`: a sync
    /// marker and frame header before each group that opens a frame (indexed), a block per
    /// group, an end mark per closed frame. Throws what the write threw; the writer then fails.
    func write(_ work: [StagedWork], to segment: WriterState.ActiveSegment) throws -> Written {
        var written = Written()
        defer { staging.removeAll() }
        for step in work {
            switch step {
            case .group(let group):
                if group.opensFrame {
                    let markerOffset = segment.file.size + staging.count
                    staging.append(SyncMarker(firstSequence: group.firstSequence, firstTime: group.firstTime).encoded())
                    try compressor.beginFrame(into: staging)
                    segment.index.add(IndexEntry(offset: markerOffset, sequence: group.firstSequence, time: group.firstTime))
                }
                try compressor.compress(group.frame, from: group.start, to: group.end, into: staging)
                written.lastSequence = group.lastSequence
                written.stagedBytes += group.end - group.start
            case .endFrame(let frame):
                try compressor.endFrame(into: staging)
                written.freedFrames.append(frame)
            case .compressedFrame(let frame):
                precondition(!compressor.isFrameOpen, "a compressed frame follows a closed one")
                segment.index.add(IndexEntry(offset: segment.file.size + staging.count, sequence: frame.firstSequence,
                                             time: frame.firstTime))
                staging.append(frame.bytes)
                written.lastSequence = frame.lastSequence
                written.stagedBytes += frame.stagedBytes
            case .beingCompressed:
                preconditionFailure("the committer never takes a frame being compressed")
            }
        }
        if !staging.isEmpty { try segment.file.append(staging.bytes) }
        return written
    }

    /// Compresses a whole frame, `groups` being all of its groups in order, into its sync marker,
    /// frame header, blocks and end mark: what ``write(_:to:)`` would write for them. Used with
    /// the second compressor, by an appender, while the first compresses earlier frames.
    func compressFrame(_ groups: [StagedWork.Group]) throws -> StagedWork.CompressedFrame {
        precondition(groups.first?.opensFrame == true && !compressor.isFrameOpen)
        defer { staging.removeAll() }
        let first = groups[0]
        staging.append(SyncMarker(firstSequence: first.firstSequence, firstTime: first.firstTime).encoded())
        try compressor.beginFrame(into: staging)
        for group in groups { try compressor.compress(group.frame, from: group.start, to: group.end, into: staging) }
        try compressor.endFrame(into: staging)
        return StagedWork.CompressedFrame(bytes: Array(staging.bytes), firstSequence: first.firstSequence, firstTime: first.firstTime,
                                          lastSequence: groups[groups.count - 1].lastSequence,
                                          stagedBytes: groups.reduce(0) { $0 + $1.end - $1.start })
    }
}
