import CLZ4

/// Compresses the records of one LZ4 frame at a time with liblz4's frame API: linked blocks,
/// a block checksum per block, one block per commit group.
///
/// Records are encoded straight into ``input``, which holds the whole frame's content at stable
/// addresses. That is what lets liblz4 use earlier records as the dictionary without copying
/// them (`stableSrc`), and it is why a frame ends after ~64 KiB: the buffer starts over.
// Unchecked: a compressor is reachable only through the writer state inside its lock, so
// exactly one thread uses it at a time.
final class FrameCompressor: @unchecked Sendable { // only used under the writer's lock
    private let context: OpaquePointer
    private var preferences: LZ4F_preferences_t
    private var options: LZ4F_compressOptions_t
    private(set) var inputCapacity: Int
    /// The frame's content: committed blocks, then the pending group.
    private(set) var input: UnsafeMutableRawPointer
    /// Bytes of the frame's content already compressed into blocks.
    private(set) var compressedUpTo = 0
    /// The end of the pending group's bytes.
    private(set) var inputEnd = 0
    private(set) var isFrameOpen = false

    init(inputCapacity: Int) throws {
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
        self.inputCapacity = inputCapacity
        input = UnsafeMutableRawPointer.allocate(byteCount: inputCapacity, alignment: 16)
    }

    deinit {
        LZ4F_freeCompressionContext(context)
        input.deallocate()
    }

    var pendingBytes: Int { inputEnd - compressedUpTo }
    var frameContentBytes: Int { inputEnd }

    /// Room at the end of the pending group for one record of at most `byteCount` bytes (and,
    /// after it, the group's block check record).
    func reserveRecord(_ byteCount: Int) -> UnsafeMutableRawPointer? {
        inputEnd + byteCount + SegmentFormat.blockCheckBytes <= inputCapacity ? input + inputEnd : nil
    }

    func commitRecord(_ byteCount: Int) {
        inputEnd += byteCount
    }

    /// Grows the frame buffer to hold at least `byteCount` bytes (plus a block check). Only
    /// between frames, when nothing in the buffer is still needed.
    func ensureCapacity(_ byteCount: Int) {
        precondition(!isFrameOpen && inputEnd == 0)
        let needed = byteCount + SegmentFormat.blockCheckBytes
        guard needed > inputCapacity else { return }
        input.deallocate()
        input = UnsafeMutableRawPointer.allocate(byteCount: needed, alignment: 16)
        inputCapacity = needed
    }

    /// Ends the pending group with its block check record: the XXH32 of the group's bytes.
    /// The input buffer always keeps room for it (see the writer's capacity).
    func appendBlockCheck() {
        let digest = XXHash32.hash(UnsafeRawBufferPointer(start: input + compressedUpTo, count: pendingBytes))
        let check = input + inputEnd
        check.storeBytes(of: UInt8(SegmentFormat.blockCheckBytes - 1), as: UInt8.self)
        check.storeBytes(of: UInt8(SegmentFormat.blockCheckKind), toByteOffset: 1, as: UInt8.self)
        check.storeBytes(of: 0, toByteOffset: 2, as: UInt8.self)
        check.storeBytes(of: digest.littleEndian, toByteOffset: 3, as: UInt32.self)
        inputEnd += SegmentFormat.blockCheckBytes
    }

    /// Writes the 7-byte LZ4 frame header into `output`.
    func beginFrame(into output: StagingBuffer) throws {
        precondition(!isFrameOpen && compressedUpTo == 0)
        let destination = output.reserve(Int(LZ4F_HEADER_SIZE_MAX))
        let written = LZ4F_compressBegin(context, destination, Int(LZ4F_HEADER_SIZE_MAX), &preferences)
        guard LZ4F_isError(written) == 0 else { throw compressionError(written) }
        output.commit(written)
        isFrameOpen = true
    }

    /// Compresses the pending group into one block appended to `output`.
    func compressPending(into output: StagingBuffer) throws {
        precondition(isFrameOpen)
        let size = pendingBytes
        guard size > 0 else { return }
        let bound = LZ4F_compressBound(size, &preferences)
        let destination = output.reserve(bound)
        let written = LZ4F_compressUpdate(context, destination, bound, input + compressedUpTo, size, &options)
        guard LZ4F_isError(written) == 0 else { throw compressionError(written) }
        output.commit(written)
        compressedUpTo = inputEnd
    }

    /// Closes the frame (end mark) and starts the content buffer over.
    func endFrame(into output: StagingBuffer) throws {
        precondition(isFrameOpen && pendingBytes == 0)
        let bound = LZ4F_compressBound(0, &preferences)
        let destination = output.reserve(bound)
        let written = LZ4F_compressEnd(context, destination, bound, &options)
        guard LZ4F_isError(written) == 0 else { throw compressionError(written) }
        output.commit(written)
        isFrameOpen = false
        compressedUpTo = 0
        inputEnd = 0
    }

    /// Drops a pending group that could not be written (the writer has failed).
    func discardPending() {
        inputEnd = compressedUpTo
    }

    private func compressionError(_ code: Int) -> JournalError {
        .failed("liblz4: \(String(cString: LZ4F_getErrorName(code)))")
    }
}
