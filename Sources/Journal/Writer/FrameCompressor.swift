/// Compresses the records of one LZ4 frame at a time: a block checksum per block, one block per
/// commit group, blocks linked or independent (``LZ4BlockMode``). The frames are standard LZ4
/// frames (the frame header, then each block's size, data and XXH32 checksum, then the end
/// mark), the same bytes liblz4's frame API writes for these settings (`LZ4F_blockLinked` or
/// `LZ4F_blockIndependent`, `LZ4F_blockChecksumEnabled`, `LZ4F_max4MB`, `autoFlush`,
/// `stableSrc`, level 0).
///
/// They are written here over a block compressor (``BlockCompressor``) because liblz4 1.9.4's
/// frame API allocates and zeroes a 64 KiB buffer at the start of every frame
/// (`LZ4F_compressEnd` forgets the one it had), a buffer these settings never use, and a frame
/// ends every ~64 KiB; and because iOS has no liblz4, where the blocks come from
/// ``SwiftLZ4Compressor``.
///
/// The groups of a frame come from one ``FrameBuffer``, contiguous and at stable addresses:
/// that is what lets linked blocks use earlier groups as the dictionary without copying them,
/// and it is why a frame ends after ~64 KiB: the appender starts a new buffer.
// Unchecked: a compressor is reachable only through the committer (``CommitSink``) inside its
// lock, so exactly one thread uses it at a time.
final class FrameCompressor: @unchecked Sendable { // only used under the committer's lock
    private let blocks: any BlockCompressor
    private(set) var isFrameOpen = false
    /// The frame header this compressor writes (``header(for:)``).
    let header: [UInt8]

    /// The frame header: the magic number, then the descriptor (``LZ4BlockMode/frameFlags``,
    /// ``SegmentFormat/writerBlockDescriptor``) and its check byte, the second byte of the
    /// descriptor's XXH32.
    static func header(for mode: LZ4BlockMode) -> [UInt8] {
        let descriptor = [mode.frameFlags, SegmentFormat.writerBlockDescriptor]
        let check = UInt8(truncatingIfNeeded: XXHash32.hash(descriptor) >> 8)
        return withUnsafeBytes(of: SegmentFormat.lz4FrameMagic.littleEndian) { Array($0) } + descriptor + [check]
    }

    init(mode: LZ4BlockMode = .linked, implementation: LZ4Implementation = .platformDefault) throws {
        blocks = try mode.makeCompressor(implementation)
        precondition(blocks.linksBlocks == (mode == .linked))
        header = Self.header(for: mode)
    }

    /// Writes the 7-byte LZ4 frame header into `output`.
    func beginFrame(into output: StagingBuffer) throws {
        precondition(!isFrameOpen)
        blocks.beginFrame()
        output.append(header)
        isFrameOpen = true
    }

    /// Compresses `[start, end)` of `frame` into one block appended to `output`: stored as it is
    /// when compressing would not make it smaller. With linked blocks, the frame's earlier
    /// groups, right before `start`, must be unchanged since they were compressed.
    func compress(_ frame: FrameBuffer, from start: Int, to end: Int, into output: StagingBuffer) throws {
        precondition(isFrameOpen)
        let size = end - start
        guard size > 0 else { return }
        precondition(size <= SegmentFormat.maxBlockBytes, "a block holds at most 4 MiB")
        let destination = output.reserve(4 + size + 4)
        let source = UnsafeRawPointer(frame.base + start)
        // At most `size - 1` bytes: 0 means the block does not get smaller.
        let compressed = blocks.compress(source, count: size, into: destination + 4, capacity: size - 1)
        let dataBytes: Int
        if compressed > 0 {
            store(UInt32(compressed), at: destination)
            dataBytes = compressed
        } else {
            store(UInt32(size) | SegmentFormat.uncompressedBlockFlag, at: destination)
            (destination + 4).copyMemory(from: source, byteCount: size)
            dataBytes = size
        }
        let checksum = XXHash32.hash(UnsafeRawBufferPointer(start: destination + 4, count: dataBytes))
        store(checksum, at: destination + 4 + dataBytes)
        output.commit(4 + dataBytes + 4)
    }

    /// Closes the frame (end mark).
    func endFrame(into output: StagingBuffer) throws {
        precondition(isFrameOpen)
        output.append(SegmentFormat.endMark)
        isFrameOpen = false
    }

    private func store(_ value: UInt32, at pointer: UnsafeMutableRawPointer) {
        pointer.storeBytes(of: value.littleEndian, as: UInt32.self)
    }
}
