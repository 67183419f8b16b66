/// One frame's decompressed content at stable addresses: the appender encodes records (and each
/// group's block check) into it, the compressor reads sealed groups back out of it.
///
/// The whole frame stays in place until its end mark is written, because the frame's blocks are
/// linked: liblz4 uses the earlier groups of the frame as the dictionary of the next one, in
/// place (`stableSrc`), without copying them. So the appender fills a fresh buffer once a frame
/// ends, while the compressor may still be reading the previous one.
// Unchecked: the appender writes only at and past `end` (under the writer's lock); the committer
// reads only bytes of groups sealed before it took them (handed over under the same lock), and
// the memory is reallocated only while no group of it is sealed (`end == 0`). The two never
// touch the same bytes, and every hand-off goes through the lock.
final class FrameBuffer: @unchecked Sendable { // disjoint ranges, handed over under the writer's lock
    private(set) var base: UnsafeMutableRawPointer
    private(set) var capacity: Int
    /// The end of the content encoded so far (sealed groups, then the pending group).
    private(set) var end = 0

    init(capacity: Int) {
        self.capacity = capacity
        base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        base.deallocate()
    }

    /// Room at the end for one record of at most `byteCount` bytes (and, after it, the group's
    /// block check record), or nil when the frame is full.
    func reserveRecord(_ byteCount: Int) -> UnsafeMutableRawPointer? {
        end + byteCount + SegmentFormat.blockCheckBytes <= capacity ? base + end : nil
    }

    func commitRecord(_ byteCount: Int) {
        end += byteCount
    }

    /// Grows the buffer to hold at least `byteCount` bytes (plus a block check). Only while it
    /// is empty, when nothing in it is still needed.
    func ensureCapacity(_ byteCount: Int) {
        precondition(end == 0)
        let needed = byteCount + SegmentFormat.blockCheckBytes
        guard needed > capacity else { return }
        base.deallocate()
        base = UnsafeMutableRawPointer.allocate(byteCount: needed, alignment: 16)
        capacity = needed
    }

    /// Ends the group that began at `start` with its block check record: the XXH32 of the
    /// group's bytes. The capacity always keeps room for it (see ``reserveRecord(_:)``).
    func appendBlockCheck(groupStart start: Int) {
        let digest = XXHash32.hash(UnsafeRawBufferPointer(start: base + start, count: end - start))
        let check = base + end
        check.storeBytes(of: UInt8(SegmentFormat.blockCheckBytes - 1), as: UInt8.self)
        check.storeBytes(of: UInt8(SegmentFormat.blockCheckKind), toByteOffset: 1, as: UInt8.self)
        check.storeBytes(of: 0, toByteOffset: 2, as: UInt8.self)
        check.storeBytes(of: digest.littleEndian, toByteOffset: 3, as: UInt32.self)
        end += SegmentFormat.blockCheckBytes
    }

    /// Drops the bytes from `offset` on (a pending group the failed writer will never write).
    func truncate(to offset: Int) {
        end = min(end, offset)
    }

    /// Starts over for a new frame: only once the previous frame's end mark was written.
    func reset() {
        end = 0
    }
}
