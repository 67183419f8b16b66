import CLZ4

/// Compresses the records of one LZ4 frame at a time with liblz4's frame API: linked blocks,
/// a block checksum per block, one block per commit group.
///
/// The groups of a frame come from one ``FrameBuffer``, contiguous and at stable addresses:
/// that is what lets liblz4 use earlier groups as the dictionary without copying them
/// (`stableSrc`), and it is why a frame ends after ~64 KiB: the appender starts a new buffer.
// Unchecked: a compressor is reachable only through the committer (``CommitSink``) inside its
// lock, so exactly one thread uses it at a time.
final class FrameCompressor: @unchecked Sendable { // only used under the committer's lock
    private let context: OpaquePointer
    private var preferences: LZ4F_preferences_t
    private var options: LZ4F_compressOptions_t
    private(set) var isFrameOpen = false

    init() throws {
        var created: OpaquePointer?
        let status = LZ4F_createCompressionContext(&created, UInt32(LZ4F_VERSION))
        guard LZ4F_isError(status) == 0, let created else {
            throw JournalError.failed("liblz4 could not create a compression context")
        }
        context = created
        preferences = LZ4F_preferences_t()
        preferences.frameInfo.blockMode = LZ4F_blockLinked
        preferences.frameInfo.blockChecksumFlag = LZ4F_blockChecksumEnabled
        preferences.frameInfo.blockSizeID = LZ4F_max4MB
        preferences.frameInfo.contentChecksumFlag = LZ4F_noContentChecksum
        preferences.autoFlush = 1
        preferences.compressionLevel = 0
        options = LZ4F_compressOptions_t()
        options.stableSrc = 1
    }

    deinit {
        LZ4F_freeCompressionContext(context)
    }

    /// Writes the 7-byte LZ4 frame header into `output`.
    func beginFrame(into output: StagingBuffer) throws {
        precondition(!isFrameOpen)
        let destination = output.reserve(Int(LZ4F_HEADER_SIZE_MAX))
        let written = LZ4F_compressBegin(context, destination, Int(LZ4F_HEADER_SIZE_MAX), &preferences)
        guard LZ4F_isError(written) == 0 else { throw compressionError(written) }
        output.commit(written)
        isFrameOpen = true
    }

    /// Compresses `[start, end)` of `frame` into one block appended to `output`. The frame's
    /// earlier groups, right before `start`, must be unchanged since they were compressed.
    func compress(_ frame: FrameBuffer, from start: Int, to end: Int, into output: StagingBuffer) throws {
        precondition(isFrameOpen)
        let size = end - start
        guard size > 0 else { return }
        let bound = LZ4F_compressBound(size, &preferences)
        let destination = output.reserve(bound)
        let written = LZ4F_compressUpdate(context, destination, bound, frame.base + start, size, &options)
        guard LZ4F_isError(written) == 0 else { throw compressionError(written) }
        output.commit(written)
    }

    /// Closes the frame (end mark).
    func endFrame(into output: StagingBuffer) throws {
        precondition(isFrameOpen)
        let bound = LZ4F_compressBound(0, &preferences)
        let destination = output.reserve(bound)
        let written = LZ4F_compressEnd(context, destination, bound, &options)
        guard LZ4F_isError(written) == 0 else { throw compressionError(written) }
        output.commit(written)
        isFrameOpen = false
    }

    private func compressionError(_ code: Int) -> JournalError {
        .failed("liblz4: \(String(cString: LZ4F_getErrorName(code)))")
    }
}
