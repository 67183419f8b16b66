#if canImport(Compression)
import Compression

/// Independent blocks over Apple's Compression framework: `COMPRESSION_LZ4_RAW` is a bare LZ4
/// block, without Apple's own `bv41` framing, so each group becomes one standard block. The
/// framework has no dictionary, hence independent blocks.
///
/// Not compiled on Linux: it is kept to this one call, and Linux writes the same kind of frame
/// through ``IndependentLZ4Compressor``, which the tests read back with both decoders.
final class AppleLZ4Compressor: BlockCompressor {
    private let scratch: UnsafeMutableRawPointer

    init() {
        scratch = UnsafeMutableRawPointer.allocate(
            byteCount: max(1, compression_encode_scratch_buffer_size(COMPRESSION_LZ4_RAW)), alignment: 16)
    }

    deinit {
        scratch.deallocate()
    }

    var linksBlocks: Bool { false }

    func beginFrame() {}

    func compress(_ source: UnsafeRawPointer, count: Int, into destination: UnsafeMutableRawPointer, capacity: Int) -> Int {
        let written = compression_encode_buffer(destination.assumingMemoryBound(to: UInt8.self), capacity,
                                                source.assumingMemoryBound(to: UInt8.self), count,
                                                scratch, COMPRESSION_LZ4_RAW)
        // 0: it did not fit. A full buffer is taken as not fitting too, in case the framework
        // ever returned a cut-short block rather than 0; the group is then stored uncompressed.
        return written < capacity ? written : 0
    }
}
#endif
