#if canImport(CLZ4)
import CLZ4
#endif

/// The buffer blocks are decoded into. A frame's blocks may be linked: each may copy from the
/// previous 64 KiB of the frame's content, so content is decoded contiguously and, when the
/// buffer fills, only the last 64 KiB are kept (slid to the front). Its size is fixed, so a
/// hostile file cannot make the reader allocate more.
package final class DecodeWindow {
    package let capacity: Int
    /// The decoder compressed blocks go through.
    package let decoding: LZ4Implementation
    private let storage: UnsafeMutableRawPointer
    /// Where the current frame's content starts in the buffer (its dictionary begins here).
    private var frameStart = 0
    /// The end of decoded content.
    private(set) var end = 0

    package init(maxBlockBytes: Int = SegmentFormat.maxBlockBytes, decoding: LZ4Implementation = .platformDefault) {
        capacity = maxBlockBytes + 4 * SegmentFormat.windowBytes
        self.decoding = decoding
        storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        storage.deallocate()
    }

    /// Forgets the previous frame: the next block has no dictionary.
    package func beginFrame() {
        frameStart = 0
        end = 0
    }

    /// Decodes one block of at most `maxOutput` bytes; returns the range of its content, or
    /// throws where the block is malformed. `linked` blocks may refer to the frame's earlier
    /// content.
    package func decode(block: UnsafeRawBufferPointer, compressed: Bool, linked: Bool, maxOutput: Int) throws(LZ4BlockError) -> Range<Int> {
        precondition(maxOutput <= capacity - SegmentFormat.windowBytes)
        makeRoom(for: maxOutput, keepingDictionary: linked)
        let produced: Int
        if compressed {
            let dictionarySize = linked ? min(end - frameStart, SegmentFormat.windowBytes) : 0
            produced = try decompress(block, dictionarySize: dictionarySize, maxOutput: maxOutput)
        } else {
            guard block.count <= maxOutput else {
                throw LZ4BlockError(offset: 0, reason: "an uncompressed block of \(block.count) bytes exceeds \(maxOutput)")
            }
            if let source = block.baseAddress { (storage + end).copyMemory(from: source, byteCount: block.count) }
            produced = block.count
        }
        let start = end
        end += produced
        return start..<end
    }

    /// The decoded bytes in `range`; valid until the next call to `decode`.
    package func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: storage + range.lowerBound, count: range.count)
    }

    /// Decodes a compressed block to `end`, the `dictionarySize` bytes before it its dictionary.
    private func decompress(_ block: UnsafeRawBufferPointer, dictionarySize: Int, maxOutput: Int) throws(LZ4BlockError) -> Int {
        switch decoding {
        #if canImport(CLZ4)
        case .liblz4:
            let dictionary = storage + (end - dictionarySize)
            let produced = Int(LZ4_decompress_safe_usingDict(
                block.baseAddress?.assumingMemoryBound(to: CChar.self),
                (storage + end).assumingMemoryBound(to: CChar.self),
                Int32(block.count), Int32(maxOutput),
                UnsafePointer(dictionary.assumingMemoryBound(to: CChar.self)), Int32(dictionarySize)))
            // liblz4 does not hold every block to the format's rules (LZ4BlockRules): a block
            // it decodes that breaks them is refused, as the Swift decoder refuses it.
            guard produced >= 0, LZ4BlockRules.hold(in: block) else {
                // liblz4 returns minus one minus the input position where it stopped.
                throw refusal(of: block, dictionarySize: dictionarySize, maxOutput: maxOutput,
                              liblz4StoppedAt: produced < 0 ? -produced - 1 : nil)
            }
            return produced
        #endif
        case .swift:
            return try LZ4BlockDecoder.decode(block, into: storage, at: end, dictionaryStart: end - dictionarySize, limit: maxOutput)
        }
    }

    #if canImport(CLZ4)
    /// Why a block liblz4's path refuses does not decode, in the Swift decoder's words (the
    /// same on both paths; the block is damage, so the output it writes past `end` is never read).
    private func refusal(of block: UnsafeRawBufferPointer, dictionarySize: Int, maxOutput: Int, liblz4StoppedAt: Int?) -> LZ4BlockError {
        do throws(LZ4BlockError) {
            _ = try LZ4BlockDecoder.decode(block, into: storage, at: end, dictionaryStart: end - dictionarySize, limit: maxOutput)
        } catch {
            return error
        }
        // Not reached while both keep the same rules (fuzz-journal holds them to it).
        return liblz4StoppedAt.map { LZ4BlockError(offset: $0, reason: "liblz4 stops here") }
            ?? LZ4BlockError(offset: 0, reason: "the block breaks the format's rules")
    }
    #endif

    private func makeRoom(for output: Int, keepingDictionary: Bool) {
        guard end + output > capacity else { return }
        let keep = keepingDictionary ? min(end - frameStart, SegmentFormat.windowBytes) : 0
        if keep > 0 { storage.copyMemory(from: storage + (end - keep), byteCount: keep) }
        frameStart = 0
        end = keep
    }
}
