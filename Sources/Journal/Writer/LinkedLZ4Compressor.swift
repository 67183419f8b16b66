#if canImport(CLZ4)
import CLZ4

/// Linked blocks over liblz4's streaming block API (`LZ4_compress_fast_continue`): each block
/// may copy from the frame's earlier groups in place, which is why a frame's groups stay in one
/// ``FrameBuffer`` until its end mark is written.
final class LinkedLZ4Compressor: BlockCompressor {
    /// The compressor's state, kept from block to block and reset at each frame's start.
    private let stream: UnsafeMutablePointer<LZ4_stream_t>

    init() throws {
        guard let created = LZ4_createStream() else {
            throw JournalError.failed("liblz4 could not create a compression stream")
        }
        stream = created
    }

    deinit {
        LZ4_freeStream(stream)
    }

    var linksBlocks: Bool { true }

    func beginFrame() {
        LZ4_resetStream_fast(stream)
    }

    func compress(_ source: UnsafeRawPointer, count: Int, into destination: UnsafeMutableRawPointer, capacity: Int) -> Int {
        Int(LZ4_compress_fast_continue(stream, source.assumingMemoryBound(to: CChar.self),
                                       destination.assumingMemoryBound(to: CChar.self), Int32(count), Int32(capacity), 1))
    }
}
#endif
