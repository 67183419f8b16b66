/// An LZ4 block decoder in Swift (lz4's `doc/lz4_Block_format.md`): what reads journals where
/// there is no liblz4 (iOS), and on Linux a second decoder checked against liblz4's.
///
/// A block may copy from bytes decoded before it, its dictionary: in a frame of linked blocks,
/// the previous 64 KiB of the frame's content. They sit right before the output, in the same
/// buffer, so a match is one copy whether it starts in the dictionary or in the block.
///
/// Every length and offset is checked against what is left of the input, the output limit and
/// the bytes before the output that may be copied, before a byte moves: a malformed block is an
/// ``LZ4BlockError`` naming the block byte where the broken part begins, never a read or a write
/// outside those ranges. It holds every block to the format's rules, the end of block
/// conditions included (after the last match at least 5 literals, and the last match starting at
/// least 12 bytes before the end: ``LZ4BlockRules``), so it decodes exactly the blocks the
/// reader's liblz4 path decodes (liblz4's `LZ4_decompress_safe_usingDict`, then those rules),
/// with the same output.
package enum LZ4BlockDecoder {
    /// Decodes `block` into `buffer` from byte `start` on, producing at most `limit` bytes;
    /// `buffer[dictionaryStart..<start]` is the dictionary. Returns the number of bytes produced.
    package static func decode(_ block: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawPointer, at start: Int,
                               dictionaryStart: Int, limit: Int) throws(LZ4BlockError) -> Int {
        precondition(dictionaryStart <= start && limit >= 0)
        guard let input = block.baseAddress?.assumingMemoryBound(to: UInt8.self), block.count > 0 else {
            throw LZ4BlockError(offset: 0, reason: "the block is empty")
        }
        let inputEnd = block.count
        let output = buffer.assumingMemoryBound(to: UInt8.self)
        let outputEnd = start + limit
        var inputPosition = 0
        var outputPosition = start
        // The length of the last match so far (0: none yet), for the end of block conditions.
        var lastMatch = 0
        while true {
            let sequenceStart = inputPosition
            let token = Int(input[inputPosition])
            inputPosition += 1

            var literals = token >> 4
            if literals == 15 {
                literals += try lengthExtension(input, at: &inputPosition, end: inputEnd, sequenceStart: sequenceStart,
                                                of: "literal length")
            }
            guard literals <= inputEnd - inputPosition else {
                throw LZ4BlockError(offset: sequenceStart,
                                    reason: "\(literals) literals run past the block's end (\(inputEnd - inputPosition) bytes left)")
            }
            guard literals <= outputEnd - outputPosition else {
                throw LZ4BlockError(offset: sequenceStart, reason: "the block decodes to more than \(limit) bytes")
            }
            (output + outputPosition).update(from: input + inputPosition, count: literals)
            inputPosition += literals
            outputPosition += literals
            // The last sequence is literals only: the block ends with them, at least 5 after a
            // match, and at least 12 bytes after the last match's start.
            if inputPosition == inputEnd {
                guard lastMatch == 0 || literals >= 5 else {
                    throw LZ4BlockError(offset: sequenceStart, reason: "the block ends with \(literals) literals after its "
                                        + "last match, not the 5 the format requires")
                }
                guard lastMatch == 0 || literals + lastMatch >= 12 else {
                    throw LZ4BlockError(offset: sequenceStart, reason: "the last match starts \(literals + lastMatch) bytes "
                                        + "before the block's end, not the 12 the format requires")
                }
                return outputPosition - start
            }

            guard inputEnd - inputPosition >= 2 else {
                throw LZ4BlockError(offset: inputPosition, reason: "a match offset is cut short by the block's end")
            }
            let offsetPosition = inputPosition
            let distance = Int(input[inputPosition]) | Int(input[inputPosition + 1]) << 8
            inputPosition += 2
            guard distance != 0 else { throw LZ4BlockError(offset: offsetPosition, reason: "match offset 0") }
            guard distance <= outputPosition - dictionaryStart else {
                throw LZ4BlockError(offset: offsetPosition, reason: "match offset \(distance) reaches before the "
                                    + "\(outputPosition - dictionaryStart) bytes of the block and its dictionary so far")
            }
            var length = token & 15
            if length == 15 {
                length += try lengthExtension(input, at: &inputPosition, end: inputEnd, sequenceStart: sequenceStart,
                                              of: "match length")
            }
            length += 4
            guard length <= outputEnd - outputPosition else {
                throw LZ4BlockError(offset: sequenceStart, reason: "the block decodes to more than \(limit) bytes")
            }
            let destination = output + outputPosition
            let source = destination - distance
            if distance >= length {
                destination.update(from: source, count: length)
            } else {
                // The match overlaps what it writes (a repeated pattern): byte by byte, in order.
                for index in 0..<length { destination[index] = source[index] }
            }
            outputPosition += length
            lastMatch = length
            guard inputPosition < inputEnd else {
                throw LZ4BlockError(offset: sequenceStart, reason: "the block ends with a match, not with literals")
            }
        }
    }

    /// Reads the bytes that extend a length of 15: each adds its value, and a 255 means another
    /// byte follows.
    private static func lengthExtension(_ input: UnsafePointer<UInt8>, at position: inout Int, end: Int,
                                        sequenceStart: Int, of what: String) throws(LZ4BlockError) -> Int {
        var total = 0
        while true {
            guard position < end else {
                throw LZ4BlockError(offset: sequenceStart, reason: "the \(what) runs past the block's end")
            }
            let byte = Int(input[position])
            position += 1
            total += byte
            if byte != 255 { return total }
        }
    }
}
