/// Whether the blocks of a record frame are linked or independent: the LZ4 frame descriptor's
/// block-independence flag, which is how a segment tells its readers (docs/FORMAT.md). Readers
/// read both on every platform.
public enum LZ4BlockMode: Sendable, Equatable {
    /// Each block may copy from the previous 64 KiB of its frame: the smaller journal. Written
    /// with liblz4's streaming block API, so only where liblz4 is linked in (Linux, a Mac with
    /// Homebrew's lz4).
    case linked
    /// Each block is compressed alone: larger (docs/FORMAT.md gives the cost), but any LZ4 block
    /// compressor writes it, Apple's Compression framework included, so it needs no liblz4.
    case independent

    /// Linked where liblz4 is linked in, independent elsewhere (iOS).
    public static var platformDefault: LZ4BlockMode {
        #if canImport(CLZ4)
        .linked
        #else
        .independent
        #endif
    }

    /// The frame descriptor's FLG byte for this mode: version 01, block checksums, and the
    /// block-independence bit when independent.
    var frameFlags: UInt8 {
        switch self {
        case .linked: SegmentFormat.writerFrameFlags
        case .independent: SegmentFormat.writerFrameFlags | SegmentFormat.independentBlocksFlag
        }
    }

    /// A compressor for this mode on this platform; throws for linked blocks where liblz4 is not
    /// linked in.
    func makeCompressor() throws -> any BlockCompressor {
        switch self {
        case .linked:
            #if canImport(CLZ4)
            return try LinkedLZ4Compressor()
            #else
            throw JournalError.invalidOptions("linked LZ4 blocks need liblz4, which this build does not link; use .independent")
            #endif
        case .independent:
            #if canImport(Compression)
            return AppleLZ4Compressor()
            #elseif canImport(CLZ4)
            return IndependentLZ4Compressor()
            #else
            throw JournalError.invalidOptions("this build has no LZ4 block compressor (neither liblz4 nor Apple's Compression)")
            #endif
        }
    }
}
