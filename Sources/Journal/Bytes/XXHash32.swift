/// XXH32, the 32-bit checksum of the LZ4 frame format (block checksums, the frame header's
/// checksum byte) and of this journal's own headers.
///
/// Debian's liblz4 computes XXH32 inside its frame API but does not export it, so the reader,
/// which verifies blocks before decoding them, carries this implementation of the published
/// algorithm. Tests check it against the checksums liblz4 itself writes.
public enum XXHash32 {
    private static let prime1: UInt32 = 0x9E37_79B1
    private static let prime2: UInt32 = 0x85EB_CA77
    private static let prime3: UInt32 = 0xC2B2_AE3D
    private static let prime4: UInt32 = 0x27D4_EB2F
    private static let prime5: UInt32 = 0x1656_67B1

    /// The XXH32 digest of `bytes` with `seed`.
    public static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt32 = 0) -> UInt32 {
        let count = bytes.count
        guard let base = bytes.baseAddress else { return finalize(seed &+ prime5 &+ 0) }
        var offset = 0
        var accumulator: UInt32

        if count >= 16 {
            var lane1 = seed &+ prime1 &+ prime2
            var lane2 = seed &+ prime2
            var lane3 = seed
            var lane4 = seed &- prime1
            let limit = count - 16
            while offset <= limit {
                lane1 = round(lane1, base.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian)
                lane2 = round(lane2, base.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self).littleEndian)
                lane3 = round(lane3, base.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self).littleEndian)
                lane4 = round(lane4, base.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self).littleEndian)
                offset += 16
            }
            accumulator = rotateLeft(lane1, 1) &+ rotateLeft(lane2, 7) &+ rotateLeft(lane3, 12) &+ rotateLeft(lane4, 18)
        } else {
            accumulator = seed &+ prime5
        }

        accumulator = accumulator &+ UInt32(truncatingIfNeeded: count)

        while offset + 4 <= count {
            let word = base.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian
            accumulator = rotateLeft(accumulator &+ word &* prime3, 17) &* prime4
            offset += 4
        }
        while offset < count {
            let byte = UInt32(base.load(fromByteOffset: offset, as: UInt8.self))
            accumulator = rotateLeft(accumulator &+ byte &* prime5, 11) &* prime1
            offset += 1
        }
        return finalize(accumulator)
    }

    /// The XXH32 digest of `bytes` with `seed`.
    public static func hash(_ bytes: some Collection<UInt8>, seed: UInt32 = 0) -> UInt32 {
        if let digest = bytes.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0), seed: seed) }) {
            return digest
        }
        return Array(bytes).withUnsafeBytes { hash($0, seed: seed) }
    }

    @inline(__always)
    private static func round(_ lane: UInt32, _ input: UInt32) -> UInt32 {
        rotateLeft(lane &+ input &* prime2, 13) &* prime1
    }

    @inline(__always)
    private static func rotateLeft(_ value: UInt32, _ bits: UInt32) -> UInt32 {
        (value << bits) | (value >> (32 - bits))
    }

    @inline(__always)
    private static func finalize(_ value: UInt32) -> UInt32 {
        var digest = value
        digest ^= digest >> 15
        digest = digest &* prime2
        digest ^= digest >> 13
        digest = digest &* prime3
        digest ^= digest >> 16
        return digest
    }
}
