#if canImport(CLZ4)
import CLZ4

/// Independent blocks over liblz4's block API (`LZ4_compress_fast_extState`, acceleration 1, as
/// the linked compressor): each block alone. The same bytes as liblz4's frame API writes with
/// `LZ4F_blockIndependent`.
final class IndependentLZ4Compressor: BlockCompressor {
    /// liblz4's hash table, reinitialised by every call: allocated once rather than on the stack.
    private let state: UnsafeMutableRawPointer

    init() {
        state = UnsafeMutableRawPointer.allocate(byteCount: Int(LZ4_sizeofState()), alignment: 16)
    }

    deinit {
        state.deallocate()
    }

    var linksBlocks: Bool { false }

    func beginFrame() {}

    func compress(_ source: UnsafeRawPointer, count: Int, into destination: UnsafeMutableRawPointer, capacity: Int) -> Int {
        Int(LZ4_compress_fast_extState(state, source.assumingMemoryBound(to: CChar.self),
                                       destination.assumingMemoryBound(to: CChar.self), Int32(count), Int32(capacity), 1))
    }
}
#endif
