/// Whether the blocks of a record frame are linked or independent: the LZ4 frame descriptor's
/// block-independence flag, which is how a segment tells its readers (docs/FORMAT.md). Readers
/// read both, whichever LZ4 code they run.
public enum LZ4BlockMode: Sendable, Equatable {
    /// Each block may copy from the previous 64 KiB of its frame: what the writer writes unless
    /// told otherwise, on every platform.
    case linked
    /// Each block is compressed alone, as any LZ4 block compressor can write it. Larger: up to
    /// three times the bytes where commit groups are small (docs/FORMAT-RATIONALE.md, "Linked
    /// blocks on every platform").
    case independent

    /// The frame descriptor's FLG byte for this mode: version 01, block checksums, and the
    /// block-independence bit when independent.
    var frameFlags: UInt8 {
        switch self {
        case .linked: SegmentFormat.writerFrameFlags
        case .independent: SegmentFormat.writerFrameFlags | SegmentFormat.independentBlocksFlag
        }
    }

    /// A compressor of this mode's blocks with `implementation`'s code.
    func makeCompressor(_ implementation: LZ4Implementation) throws -> any BlockCompressor {
        switch (self, implementation) {
        #if canImport(CLZ4)
        case (.linked, .liblz4): try LinkedLZ4Compressor()
        case (.independent, .liblz4): IndependentLZ4Compressor()
        #endif
        case (.linked, .swift): SwiftLZ4Compressor(linksBlocks: true)
        case (.independent, .swift): SwiftLZ4Compressor(linksBlocks: false)
        }
    }
}
