import CLZ4
import Journal

/// Recomputes, in place, the checksums a writer would have written into a segment or index
/// file: the header's XXH32, each sync marker's XXH32, each LZ4 frame header's checksum byte,
/// each block's XXH32 and the block check at the end of each block's content.
///
/// It walks the structure the way docs/FORMAT.md lays it out and stops at the first thing it
/// does not recognise, leaving the rest as it was. It only rewrites checksum bytes: every other
/// byte the fuzzer chose is kept, so the reader sees well-checksummed but otherwise hostile
/// framing, records, sequence numbers and times.
///
/// A block check sits in the block's decompressed content. In a stored (uncompressed) block it
/// is rewritten directly; in a compressed block it is rewritten when its four digest bytes are
/// the block's last four literal bytes, which is how LZ4 ends every block it writes.
enum SegmentChecksumRepair {
    /// How far back linked blocks may copy from (LZ4's window).
    private static let windowBytes = SegmentFormat.windowBytes
    /// The block check record before its digest: length 6, kind 1, time delta 0.
    private static let blockCheckPrefix: [UInt8] = [0x06, 0x01, 0x00]
    private static let blockCheckBytes = 7

    static func repairSegment(_ bytes: inout [UInt8]) {
        guard bytes.count >= 8, load32(bytes, 0) == SegmentFormat.headerMagic else { return }
        let headerSize = Int(load32(bytes, 4))
        guard headerSize >= 8, headerSize <= SegmentFormat.maxHeaderBytes, bytes.count - 8 >= headerSize else { return }
        store32(hash(bytes[8..<(8 + headerSize - 4)]), into: &bytes, at: 8 + headerSize - 4)
        var position = 8 + headerSize
        while bytes.count - position >= 8 {
            let magic = load32(bytes, position)
            if magic == SegmentFormat.syncMarkerMagic {
                guard bytes.count - position >= 28 else { return }
                store32(hash(bytes[(position + 8)..<(position + 24)]), into: &bytes, at: position + 24)
                position += 28
            } else if magic & 0xFFFF_FFF0 == 0x184D_2A50 {
                let size = Int(load32(bytes, position + 4))
                guard size <= bytes.count - position - 8 else { return }
                position += 8 + size
            } else if magic == SegmentFormat.lz4FrameMagic {
                guard let next = repairFrame(&bytes, at: position) else { return }
                position = next
            } else {
                return
            }
        }
    }

    /// Recomputes each entry's XXH32 of an index file.
    static func repairIndex(_ bytes: inout [UInt8]) {
        guard bytes.count >= 16, Array(bytes[0..<4]) == Array("JIDX".utf8) else { return }
        var position = 16
        while bytes.count - position >= 28 {
            store32(hash(bytes[position..<(position + 24)]), into: &bytes, at: position + 24)
            position += 28
        }
    }

    /// Repairs the LZ4 frame at `start`; returns the offset after its end mark, or nil when the
    /// frame does not end inside the file.
    private static func repairFrame(_ bytes: inout [UInt8], at start: Int) -> Int? {
        guard bytes.count - start >= 7 else { return nil }
        let flags = bytes[start + 4]
        let headerLength = 7 + (flags & 0x08 != 0 ? 8 : 0)
        guard bytes.count - start >= headerLength else { return nil }
        bytes[start + headerLength - 1] = UInt8(truncatingIfNeeded: hash(bytes[(start + 4)..<(start + headerLength - 1)]) >> 8)
        let blockSizeID = Int(bytes[start + 5] >> 4) & 7
        let maxBlockBytes = (4...7).contains(blockSizeID) ? 1 << (8 + 2 * blockSizeID) : SegmentFormat.maxBlockBytes
        let linked = flags & 0x20 == 0
        let checksummed = flags & 0x10 != 0
        let trailer = flags & 0x04 != 0 ? 8 : 4
        var history: [UInt8] = []
        var position = start + headerLength
        while bytes.count - position >= 4 {
            let word = load32(bytes, position)
            if word == 0 { return position + trailer }
            let size = Int(word & 0x7FFF_FFFF)
            let data = (position + 4)..<(position + 4 + size)
            guard size <= maxBlockBytes, bytes.count - data.lowerBound >= size + (checksummed ? 4 : 0) else { return nil }
            if word & 0x8000_0000 != 0 {
                repairStoredBlockCheck(&bytes, data, history: &history)
            } else {
                repairCompressedBlockCheck(&bytes, data, dictionary: linked ? history : [], maxOutput: maxBlockBytes,
                                           history: &history)
            }
            if checksummed { store32(hash(bytes[data]), into: &bytes, at: data.upperBound) }
            position = data.upperBound + (checksummed ? 4 : 0)
        }
        return nil
    }

    private static func repairStoredBlockCheck(_ bytes: inout [UInt8], _ data: Range<Int>, history: inout [UInt8]) {
        if data.count >= blockCheckBytes,
           bytes[(data.upperBound - blockCheckBytes)..<(data.upperBound - 4)].elementsEqual(blockCheckPrefix) {
            store32(hash(bytes[data.lowerBound..<(data.upperBound - blockCheckBytes)]), into: &bytes, at: data.upperBound - 4)
        }
        remember(bytes[data], in: &history)
    }

    private static func repairCompressedBlockCheck(_ bytes: inout [UInt8], _ data: Range<Int>, dictionary: [UInt8], maxOutput: Int,
                                                   history: inout [UInt8]) {
        guard var content = decompress(bytes[data], dictionary: dictionary, maxOutput: maxOutput) else {
            history.removeAll()
            return
        }
        let count = content.count
        if count >= blockCheckBytes,
           content[(count - blockCheckBytes)..<(count - 4)].elementsEqual(blockCheckPrefix),
           bytes[(data.upperBound - 4)..<data.upperBound].elementsEqual(content[(count - 4)...]) {
            let digest = hash(content[..<(count - blockCheckBytes)])
            store32(digest, into: &bytes, at: data.upperBound - 4)
            store32(digest, into: &content, at: count - 4)
        }
        remember(content[...], in: &history)
    }

    /// Keeps the last ``windowBytes`` of a frame's content: what the next linked block may copy.
    private static func remember(_ content: ArraySlice<UInt8>, in history: inout [UInt8]) {
        history.append(contentsOf: content)
        if history.count > windowBytes { history.removeFirst(history.count - windowBytes) }
    }

    /// An LZ4 block's content, or nil when it does not decode within `maxOutput` bytes. LZ4
    /// expands at most 255-fold, so the buffer is sized by the block, not by `maxOutput` alone.
    private static func decompress(_ block: ArraySlice<UInt8>, dictionary: [UInt8], maxOutput: Int) -> [UInt8]? {
        let capacity = min(maxOutput, block.count * 255 + 64)
        var failed = false
        let content = [UInt8](unsafeUninitializedCapacity: capacity) { output, initialized in
            let produced = block.withUnsafeBytes { source in
                dictionary.withUnsafeBytes { dictionary in
                    LZ4_decompress_safe_usingDict(
                        source.baseAddress?.assumingMemoryBound(to: CChar.self),
                        UnsafeMutableRawPointer(output.baseAddress)?.assumingMemoryBound(to: CChar.self),
                        Int32(source.count), Int32(capacity),
                        dictionary.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(dictionary.count))
                }
            }
            failed = produced < 0
            initialized = max(0, Int(produced))
        }
        return failed ? nil : content
    }

    private static func hash(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBytes { XXHash32.hash($0) }
    }

    private static func load32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << UInt32(8 * $1) }
    }

    private static func store32(_ value: UInt32, into bytes: inout [UInt8], at offset: Int) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> UInt32(8 * index)) }
    }
}
