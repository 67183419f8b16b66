#if canImport(CLZ4)
import CLZ4
#endif

/// The buffer blocks are decoded into. A frame's blocks may be linked: each may copy from the
/// previous 64 KiB of the frame's content, so content is decoded contiguously and, when the
/// buffer fills, only the last 64 KiB are kept (slid to the front). Its size is fixed, so a
/// hostile file cannot make the reader allocate more.
final class DecodeWindow {
    let capacity: Int
    /// The decoder compressed blocks go through.
    let decoding: LZ4Implementation
    private let storage: UnsafeMutableRawPointer
    /// Where the current frame's content starts in the buffer (its dictionary begins here).
    private var frameStart = 0
    /// The end of decoded content.
    private(set) var end = 0

    init(maxBlockBytes: Int = SegmentFormat.maxBlockBytes, decoding: LZ4Implementation = .platformDefault) {
        capacity = maxBlockBytes + 4 * SegmentFormat.windowBytes
        self.decoding = decoding
        storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        storage.deallocate()
    }

    /// Forgets the previous frame: the next block has no dictionary.
    func beginFrame() {
        frameStart = 0
        end = 0
    }

    /// Decodes one block of at most `maxOutput` bytes; returns the range of its content, or
    /// throws where the block is malformed. `linked` blocks may refer to the frame's earlier
    /// content.
    func decode(block: UnsafeRawBufferPointer, compressed: Bool, linked: Bool, maxOutput: Int) throws(LZ4BlockError) -> Range<Int> {
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
    func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
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
            // liblz4 returns minus one minus the input position where it stopped.
            guard produced >= 0 else { throw LZ4BlockError(offset: -produced - 1, reason: "liblz4 stops here") }
            return produced
        #endif
        case .swift:
            return try LZ4BlockDecoder.decode(block, into: storage, at: end, dictionaryStart: end - dictionarySize, limit: maxOutput)
        }
    }

    private func makeRoom(for output: Int, keepingDictionary: Bool) {
        guard end + output > capacity else { return }
        let keep = keepingDictionary ? min(end - frameStart, SegmentFormat.windowBytes) : 0
        if keep > 0 { storage.copyMemory(from: storage + (end - keep), byteCount: keep) }
        frameStart = 0
        end = keep
    }
}
