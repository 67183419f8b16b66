import CLZ4

/// The buffer blocks are decoded into. A frame's blocks are linked: each may copy from the
/// previous 64 KiB of the frame's content, so content is decoded contiguously and, when the
/// buffer fills, only the last 64 KiB are kept (slid to the front). Its size is fixed, so a
/// hostile file cannot make the reader allocate more.
final class DecodeWindow {
    let capacity: Int
    private let storage: UnsafeMutableRawPointer
    /// Where the current frame's content starts in the buffer (its dictionary begins here).
    private var frameStart = 0
    /// The end of decoded content.
    private(set) var end = 0

    init(maxBlockBytes: Int = SegmentFormat.maxBlockBytes) {
        capacity = maxBlockBytes + 4 * SegmentFormat.windowBytes
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

    /// Decodes one block of at most `maxOutput` bytes; returns the range of its content, or nil
    /// when the block is malformed. `linked` blocks may refer to the frame's earlier content.
    func decode(block: UnsafeRawBufferPointer, compressed: Bool, linked: Bool, maxOutput: Int) -> Range<Int>? {
        precondition(maxOutput <= capacity - SegmentFormat.windowBytes)
        makeRoom(for: maxOutput, keepingDictionary: linked)
        let destination = storage + end
        let produced: Int
        if compressed {
            let dictionarySize = linked ? min(end - frameStart, SegmentFormat.windowBytes) : 0
            let dictionary = storage + (end - dictionarySize)
            produced = Int(LZ4_decompress_safe_usingDict(
                block.baseAddress?.assumingMemoryBound(to: CChar.self),
                destination.assumingMemoryBound(to: CChar.self),
                Int32(block.count), Int32(maxOutput),
                UnsafePointer(dictionary.assumingMemoryBound(to: CChar.self)), Int32(dictionarySize)))
            guard produced >= 0 else { return nil }
        } else {
            guard block.count <= maxOutput else { return nil }
            if let source = block.baseAddress { destination.copyMemory(from: source, byteCount: block.count) }
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

    private func makeRoom(for output: Int, keepingDictionary: Bool) {
        guard end + output > capacity else { return }
        let keep = keepingDictionary ? min(end - frameStart, SegmentFormat.windowBytes) : 0
        if keep > 0 { storage.copyMemory(from: storage + (end - keep), byteCount: keep) }
        frameStart = 0
        end = keep
    }
}
