/// An LZ4 block compressor in Swift: what writes linked blocks where there is no liblz4
/// (iOS), so a journal there is as small as on Linux, and what tests on Linux run for it.
///
/// The algorithm is liblz4's fast one at acceleration 1: a hash of each 4-byte sequence finds
/// the last place it occurred (a table of 4,096 positions), a match is extended both ways, and
/// after misses the search steps faster through bytes that do not compress. Linked, the table
/// and the positions carry over from block to block of a frame, so a block may copy from the
/// frame's previous 64 KiB, which must sit right before it and unchanged (``FrameBuffer``);
/// independent, each block starts from an empty table. Blocks keep the format's end-of-block
/// rules (the last 5 bytes are literals, the last match starts at least 12 bytes before the
/// end), which liblz4's decoder enforces.
package final class SwiftLZ4Compressor: BlockCompressor {
    package let linksBlocks: Bool
    /// Each hash's last position, as an offset from ``frameBase`` plus one (0: none).
    private let table: UnsafeMutablePointer<UInt32>
    /// The first byte of the frame's first block: positions are counted from it.
    private var frameBase: UnsafeRawPointer?
    /// The end of the previous block of the frame: the next one must start there.
    private var frameEnd = 0

    private static let hashBits = 12
    private static let minimumMatch = 4
    /// No match starts in a block's last 12 bytes.
    private static let matchStartLimit = 12
    /// A block's last 5 bytes are literals.
    private static let lastLiterals = 5
    /// After 2^6 misses in a row the search skips a byte more at each step (liblz4's skip trigger).
    private static let skipTrigger = 6

    package init(linksBlocks: Bool) {
        self.linksBlocks = linksBlocks
        table = UnsafeMutablePointer<UInt32>.allocate(capacity: 1 << Self.hashBits)
        table.initialize(repeating: 0, count: 1 << Self.hashBits)
    }

    deinit {
        table.deallocate()
    }

    package func beginFrame() {
        table.update(repeating: 0, count: 1 << Self.hashBits)
        frameBase = nil
        frameEnd = 0
    }

    package func compress(_ source: UnsafeRawPointer, count: Int, into destination: UnsafeMutableRawPointer, capacity: Int) -> Int {
        let start: Int
        if linksBlocks, let frameBase {
            start = source - frameBase
            precondition(start == frameEnd, "a linked block starts where the frame's previous one ended")
        } else {
            // Independent blocks, or a frame's first: positions start afresh.
            if frameBase != nil { table.update(repeating: 0, count: 1 << Self.hashBits) }
            frameBase = source
            start = 0
        }
        frameEnd = start + count
        var output = BlockOutput(base: destination, capacity: capacity)
        return compressBlock(base: frameBase!, from: start, to: start + count, into: &output) ? output.count : 0
    }

    /// Writes the sequences of `base[from..<to]`, matches reaching back at most 65,535 bytes and
    /// not before `base`. Returns false when they do not fit the output.
    private func compressBlock(base: UnsafeRawPointer, from blockStart: Int, to blockEnd: Int, into output: inout BlockOutput) -> Bool {
        var anchor = blockStart
        if blockEnd - blockStart > Self.matchStartLimit {
            let lastMatchStart = blockEnd - Self.matchStartLimit
            let matchEndLimit = blockEnd - Self.lastLiterals
            var position = blockStart
            search: while true {
                // Find a match: the last place this position's 4 bytes were seen, if it says the same.
                var candidate = 0
                var misses = 1 << Self.skipTrigger
                while true {
                    guard position <= lastMatchStart else { break search }
                    let sequence = load32(base, position)
                    let hash = Self.hash(sequence)
                    let seen = Int(table[hash])
                    table[hash] = UInt32(position + 1)
                    if seen > 0 {
                        candidate = seen - 1
                        if position - candidate <= 65_535 && load32(base, candidate) == sequence { break }
                    }
                    position += misses >> Self.skipTrigger
                    misses += 1
                }
                // Extend it backwards over literals not yet written, then forwards.
                while position > anchor && candidate > 0 && base.load(fromByteOffset: position - 1, as: UInt8.self)
                    == base.load(fromByteOffset: candidate - 1, as: UInt8.self) {
                    position -= 1
                    candidate -= 1
                }
                let length = Self.minimumMatch + commonLength(base, position + Self.minimumMatch, candidate + Self.minimumMatch,
                                                              limit: matchEndLimit)
                guard output.writeSequence(literals: base + anchor, count: position - anchor,
                                           offset: position - candidate, matchLength: length) else { return false }
                position += length
                anchor = position
                // The position two bytes back is worth remembering: the next match often starts near.
                if position - 2 > blockStart && position - 2 <= lastMatchStart {
                    table[Self.hash(load32(base, position - 2))] = UInt32(position - 2 + 1)
                }
            }
        }
        return output.writeLastLiterals(base + anchor, count: blockEnd - anchor)
    }

    /// How many bytes from `a` on equal those from `b` on, stopping at `limit` (for `a`).
    private func commonLength(_ base: UnsafeRawPointer, _ a: Int, _ b: Int, limit: Int) -> Int {
        var length = 0
        while a + length + 8 <= limit {
            let difference = base.loadUnaligned(fromByteOffset: a + length, as: UInt64.self)
                ^ base.loadUnaligned(fromByteOffset: b + length, as: UInt64.self)
            if difference != 0 { return length + UInt64(littleEndian: difference).trailingZeroBitCount / 8 }
            length += 8
        }
        while a + length < limit && base.load(fromByteOffset: a + length, as: UInt8.self) == base.load(fromByteOffset: b + length, as: UInt8.self) {
            length += 1
        }
        return length
    }

    private func load32(_ base: UnsafeRawPointer, _ position: Int) -> UInt32 {
        UInt32(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt32.self))
    }

    private static func hash(_ sequence: UInt32) -> Int {
        Int((sequence &* 2_654_435_761) >> UInt32(32 - hashBits))
    }
}

/// Where ``SwiftLZ4Compressor`` writes a block's sequences: checked against the capacity before
/// each one.
private struct BlockOutput {
    let base: UnsafeMutableRawPointer
    let capacity: Int
    private(set) var count = 0

    init(base: UnsafeMutableRawPointer, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// A token, `count` literals and a match of `matchLength` at `offset`; false when it does not fit.
    mutating func writeSequence(literals: UnsafeRawPointer, count literalCount: Int, offset: Int, matchLength: Int) -> Bool {
        let matchExtra = matchLength - 4
        let needed = 1 + Self.extensionBytes(literalCount) + literalCount + 2 + Self.extensionBytes(matchExtra)
        guard needed <= capacity - count else { return false }
        write(UInt8(min(literalCount, 15) << 4 | min(matchExtra, 15)))
        writeExtension(literalCount)
        (base + count).copyMemory(from: literals, byteCount: literalCount)
        count += literalCount
        write(UInt8(truncatingIfNeeded: offset))
        write(UInt8(truncatingIfNeeded: offset >> 8))
        writeExtension(matchExtra)
        return true
    }

    /// The block's last sequence: literals only; false when it does not fit.
    mutating func writeLastLiterals(_ literals: UnsafeRawPointer, count literalCount: Int) -> Bool {
        guard 1 + Self.extensionBytes(literalCount) + literalCount <= capacity - count else { return false }
        write(UInt8(min(literalCount, 15) << 4))
        writeExtension(literalCount)
        (base + count).copyMemory(from: literals, byteCount: literalCount)
        count += literalCount
        return true
    }

    /// The bytes that extend a length of 15 or more in a token.
    private static func extensionBytes(_ length: Int) -> Int {
        length < 15 ? 0 : (length - 15) / 255 + 1
    }

    private mutating func writeExtension(_ length: Int) {
        guard length >= 15 else { return }
        var rest = length - 15
        while rest >= 255 {
            write(255)
            rest -= 255
        }
        write(UInt8(rest))
    }

    private mutating func write(_ byte: UInt8) {
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }
}
