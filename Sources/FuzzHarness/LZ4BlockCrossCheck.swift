import CLZ4
import Journal

/// This package's LZ4 in Swift (what iOS reads and writes journals with) held to
/// liblz4 on hostile bytes: `fuzz-journal` hands every input to the decoder as one block after a
/// dictionary, and to the compressor as content after the same dictionary.
///
/// What must hold: whenever liblz4 decodes a block, the Swift decoder decodes it to the same
/// bytes, except a block with a match at offset 0, which liblz4 1.9.4 accepts by copying bytes
/// of its output buffer not yet written (the Swift decoder refuses it); and when the Swift
/// decoder refuses a block, the byte it names is in the block. (It may decode blocks liblz4
/// refuses: it does not hold blocks to the format's end-of-block rules.) And liblz4 decodes
/// what the Swift compressor writes back to its input.
package enum LZ4BlockCrossCheck {
    /// Decodes `input` (after its first byte) with both decoders; returns the invariants broken.
    /// The first byte chooses the dictionary's length in 256-byte steps, up to the 64 KiB window.
    package static func run(_ input: [UInt8]) -> [String] {
        guard let first = input.first else { return [] }
        let dictionaryBytes = min(Int(first) << 8, SegmentFormat.windowBytes)
        let dictionary = (0..<dictionaryBytes).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        let block = Array(input.dropFirst())
        let limit = 4 * block.count + 64
        var checker = InvariantChecker()
        let reference = liblz4(block, dictionary: dictionary, limit: limit)
        var buffer = dictionary + [UInt8](repeating: 0, count: limit)
        let decoded: Result<[UInt8], LZ4BlockError> = buffer.withUnsafeMutableBytes { output in
            block.withUnsafeBytes { source in
                do throws(LZ4BlockError) {
                    let produced = try LZ4BlockDecoder.decode(source, into: output.baseAddress!, at: dictionary.count,
                                                              dictionaryStart: 0, limit: limit)
                    return .success(Array(output[dictionary.count..<(dictionary.count + produced)]))
                } catch {
                    return .failure(error)
                }
            }
        }
        switch decoded {
        case .success(let bytes):
            if let reference {
                checker.expect(bytes == reference, "the Swift decoder and liblz4 decode a block of \(block.count) bytes differently")
            }
        case .failure(let error):
            checker.expect(reference == nil || hasMatchAtOffsetZero(block),
                           "liblz4 decodes a block of \(block.count) bytes the Swift decoder refuses: \(error)")
            checker.expect((0...block.count).contains(error.offset), "the Swift decoder names byte \(error.offset) of a \(block.count)-byte block")
        }
        checkCompressor(input, after: dictionary, &checker)
        return checker.violations
    }

    /// The Swift compressor (iOS's writer) on `input` as a linked block after
    /// `dictionary`: liblz4, given exactly the input's size as room (which holds a block to the
    /// format's end-of-block rules), decodes it back to `input`.
    private static func checkCompressor(_ input: [UInt8], after dictionary: [UInt8], _ checker: inout InvariantChecker) {
        guard !input.isEmpty else { return }
        let content = dictionary + input
        let compressor = SwiftLZ4Compressor(linksBlocks: true)
        compressor.beginFrame()
        var block = [UInt8](repeating: 0, count: content.count + content.count / 255 + 16)
        let written = content.withUnsafeBytes { source in
            block.withUnsafeMutableBytes { output in
                if !dictionary.isEmpty {
                    _ = compressor.compress(source.baseAddress!, count: dictionary.count, into: output.baseAddress!, capacity: output.count)
                }
                return compressor.compress(source.baseAddress! + dictionary.count, count: input.count, into: output.baseAddress!,
                                           capacity: output.count)
            }
        }
        checker.expect(written > 0, "the Swift compressor found no room for \(input.count) bytes in \(block.count)")
        let decoded = liblz4(Array(block.prefix(written)), dictionary: dictionary, limit: input.count)
        checker.expect(decoded == input, "liblz4 does not decode the Swift compressor's block of \(input.count) bytes back to them")
    }

    /// An input for ``run(_:)``: a 4 KiB dictionary, then records like a journal's compressed
    /// by liblz4 after it, so its matches reach into the dictionary.
    package static func seed() -> [UInt8] {
        let dictionaryBytes = 16 << 8
        let dictionary = (0..<dictionaryBytes).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        let records = (0..<40).flatMap { Array(#"{"call":"track","event":"screen_view","index":\#($0)}"#.utf8) }
        let content = dictionary + records + dictionary.prefix(300)
        guard let stream = LZ4_createStream() else { return [16] }
        defer { LZ4_freeStream(stream) }
        var block = [UInt8](repeating: 0, count: Int(LZ4_compressBound(Int32(content.count))))
        let written = content.withUnsafeBytes { source in
            block.withUnsafeMutableBytes { output in
                let base = source.baseAddress!.assumingMemoryBound(to: CChar.self)
                let out = output.baseAddress!.assumingMemoryBound(to: CChar.self)
                // The dictionary first, as an earlier block: its output is not kept.
                _ = LZ4_compress_fast_continue(stream, base, out, Int32(dictionaryBytes), Int32(output.count), 1)
                return LZ4_compress_fast_continue(stream, base + dictionaryBytes, out, Int32(content.count - dictionaryBytes),
                                                  Int32(output.count), 1)
            }
        }
        return [16] + block.prefix(Int(max(written, 0)))
    }

    /// What liblz4 decodes `block` to after `dictionary`, or nil when it refuses it.
    package static func liblz4(_ block: [UInt8], dictionary: [UInt8], limit: Int) -> [UInt8]? {
        var buffer = dictionary + [UInt8](repeating: 0, count: limit)
        let produced = buffer.withUnsafeMutableBytes { output in
            block.withUnsafeBytes { source in
                let base = output.baseAddress!.assumingMemoryBound(to: CChar.self)
                return LZ4_decompress_safe_usingDict(source.baseAddress?.assumingMemoryBound(to: CChar.self), base + dictionary.count,
                                                     Int32(block.count), Int32(limit), base, Int32(dictionary.count))
            }
        }
        return produced < 0 ? nil : Array(buffer[dictionary.count..<(dictionary.count + Int(produced))])
    }

    /// Whether `block`, walked as liblz4 walks it, has a match at offset 0 before it ends.
    package static func hasMatchAtOffsetZero(_ block: [UInt8]) -> Bool {
        var position = 0
        /// The length `base` extended by the bytes that follow (each adds, 255 means more).
        func extended(_ base: Int) -> Int {
            var length = base
            while position < block.count {
                length += Int(block[position])
                position += 1
                if block[position - 1] != 255 { break }
            }
            return length
        }
        while position < block.count {
            let token = Int(block[position])
            position += 1
            position += token >> 4 == 15 ? extended(15) : token >> 4
            guard position + 2 <= block.count else { return false }
            if block[position] == 0 && block[position + 1] == 0 { return true }
            position += 2
            if token & 15 == 15 { _ = extended(15) }
        }
        return false
    }
}
