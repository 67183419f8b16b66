/// What the LZ4 block format requires that liblz4's decoder does not hold every block to: no
/// match at offset 0 (liblz4 1.9.4 writes zeros for it, as many as the match is long), and the
/// end of block conditions (lz4's `doc/lz4_Block_format.md`: after the last match come at least
/// 5 literals, and the last match starts at least 12 bytes before the block's end), which liblz4
/// checks only against its output room and only in some of its loops.
///
/// The reader checks them on every block liblz4 decodes, and ``LZ4BlockDecoder`` refuses a block
/// that breaks them, so a journal reads exactly alike through liblz4 and through the Swift
/// decoder: a block only one of them would accept is damage on both paths (docs/FORMAT.md,
/// "Linked blocks on every platform"). Every block an LZ4 compressor writes keeps them.
enum LZ4BlockRules {
    /// Whether `block`, which liblz4 decoded, keeps the rules: its sequences' headers (tokens,
    /// length extensions, offsets) are walked, never its literals, and the walk must end exactly
    /// at the block's end with literals. Reads nothing outside `block`, whatever its bytes.
    static func hold(in block: UnsafeRawBufferPointer) -> Bool {
        guard let base = block.baseAddress, block.count > 0 else { return false }
        let input = base.assumingMemoryBound(to: UInt8.self)
        let end = block.count
        var position = 0
        // Where the sequence being read begins, and where the last one with a match began (-1:
        // none yet): the end of block conditions need only the last match, read again at the end.
        var sequence = 0
        var lastMatchSequence = -1
        while true {
            // Here position < end: the block is not empty, and every path back here checks it.
            sequence = position
            let token = Int(truncatingIfNeeded: input[position])
            position &+= 1
            var literals = token &>> 4
            if literals == 15 {
                guard let more = extensionLength(input, at: &position, end: end) else { return false }
                literals &+= more
            }
            position &+= literals
            // Fewer than 3 bytes after the literals (an offset and a next token): these literals
            // end the block, exactly at its end.
            guard position < end &- 2 else {
                return position == end && (lastMatchSequence < 0 || endConditionsHold(input, lastMatchSequence, literals))
            }
            guard base.loadUnaligned(fromByteOffset: position, as: UInt16.self) != 0 else { return false }
            position &+= 2
            if token & 15 == 15 {
                // Most long matches take one extension byte, and a next token must follow.
                guard position < end &- 1 else { return false }
                let byte = input[position]
                position &+= 1
                if byte == 255 {
                    guard extensionLength(input, at: &position, end: end) != nil, position < end else { return false }
                }
            }
            lastMatchSequence = sequence
        }
    }

    /// Whether the block's last `literals` (after the sequence at `matchSequence`, whose match is
    /// the block's last) are at least 5, and its last match starts at least 12 bytes before the end.
    private static func endConditionsHold(_ input: UnsafePointer<UInt8>, _ matchSequence: Int, _ literals: Int) -> Bool {
        guard literals >= 5 else { return false }
        guard literals < 12 else { return true }
        // The sequence was walked already: its lengths are within the block.
        let token = Int(input[matchSequence])
        var position = matchSequence + 1
        var matchLiterals = token >> 4
        if matchLiterals == 15 { matchLiterals += extensionLength(input, at: &position, end: .max) ?? 0 }
        position += matchLiterals + 2
        var match = (token & 15) + 4
        if token & 15 == 15 { match += extensionLength(input, at: &position, end: .max) ?? 0 }
        return literals + match >= 12
    }

    /// The bytes extending a length of 15 (each adds its value; 255 means another follows), or
    /// nil when they run past the block's end.
    private static func extensionLength(_ input: UnsafePointer<UInt8>, at position: inout Int, end: Int) -> Int? {
        var total = 0
        while position < end {
            let byte = Int(truncatingIfNeeded: input[position])
            position &+= 1
            total &+= byte
            if byte != 255 { return total }
        }
        return nil
    }
}
