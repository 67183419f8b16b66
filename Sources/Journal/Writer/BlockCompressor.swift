/// Compresses the blocks of one LZ4 frame, one at a time: what ``FrameCompressor`` puts in each
/// block's data. With liblz4 (``LinkedLZ4Compressor``, ``IndependentLZ4Compressor``) where it is
/// linked in, in Swift (``SwiftLZ4Compressor``) elsewhere.
protocol BlockCompressor: AnyObject {
    /// Whether a block may refer to the frame's earlier blocks.
    var linksBlocks: Bool { get }
    /// Forgets the previous frame: the next block refers to nothing before it.
    func beginFrame()
    /// Compresses `count` bytes at `source` into at most `capacity` bytes at `destination` as
    /// one LZ4 block; returns its size, or 0 when it does not fit. A linked compressor may
    /// refer to the bytes it compressed earlier in the frame, which must be right before
    /// `source` and unchanged.
    func compress(_ source: UnsafeRawPointer, count: Int, into destination: UnsafeMutableRawPointer, capacity: Int) -> Int
}
