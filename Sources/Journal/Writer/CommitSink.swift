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
            }
        }
        if !staging.isEmpty { try segment.file.append(staging.bytes) }
        return written
    }
}
