import CLZ4
import Journal

/// This package's LZ4 in Swift (what iOS reads and writes journals with) held to
/// liblz4 on hostile bytes: `fuzz-journal` hands every input to the reader's two decoding paths
/// as one block after a dictionary, and to the compressor as content after the same dictionary.
///
/// What must hold: the reader's liblz4 path (liblz4, then ``LZ4BlockRules``) and its Swift
/// path (``LZ4BlockDecoder``) decode every block alike, to the same bytes, or both refuse it with
/// the same error, which names a byte of the block; liblz4 refuses nothing the two decode; and
/// liblz4 decodes what the Swift compressor writes back to its input.
package enum LZ4BlockCrossCheck {
    /// Decodes `input` (after its first byte) through both paths; returns the invariants broken.
    /// The first byte chooses the dictionary's length in 256-byte steps, up to the 64 KiB window.
    package static func run(_ input: [UInt8]) -> [String] {
        guard let first = input.first else { return [] }
        let dictionaryBytes = min(Int(first) << 8, SegmentFormat.windowBytes)
        let dictionary = (0..<dictionaryBytes).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        let block = Array(input.dropFirst())
        let limit = 4 * block.count + 64
        var checker = InvariantChecker()
        let throughLiblz4 = readerDecode(block, dictionary: dictionary, limit: limit, decoding: .liblz4)
        let throughSwift = readerDecode(block, dictionary: dictionary, limit: limit, decoding: .swift)
        switch (throughLiblz4, throughSwift) {
        case (.success(let viaLiblz4), .success(let viaSwift)):
            checker.expect(viaLiblz4 == viaSwift, "liblz4 and the Swift decoder decode a block of \(block.count) bytes differently")
            checker.expect(liblz4(block, dictionary: dictionary, limit: limit) == viaLiblz4,
                           "the reader's liblz4 path decodes a block of \(block.count) bytes liblz4 does not")
        case (.failure(let viaLiblz4), .failure(let viaSwift)):
            checker.expect(viaLiblz4 == viaSwift, "liblz4 refuses a block of \(block.count) bytes with \"\(viaLiblz4)\", "
                           + "the Swift decoder with \"\(viaSwift)\"")
            checker.expect((0...block.count).contains(viaSwift.offset), "the Swift decoder names byte \(viaSwift.offset) of a \(block.count)-byte block")
        case (.success, .failure(let error)):
            checker.expect(false, "liblz4 decodes a block of \(block.count) bytes the Swift decoder refuses: \(error)")
        case (.failure(let error), .success):
            checker.expect(false, "the Swift decoder decodes a block of \(block.count) bytes liblz4 refuses: \(error)")
        }
        checkCompressor(input, after: dictionary, &checker)
        return checker.violations
    }

    /// What the journal reader decodes `block` to through `decoding`, in a frame of linked blocks
    /// whose content so far is `dictionary`, producing at most `limit` bytes.
    package static func readerDecode(_ block: [UInt8], dictionary: [UInt8], limit: Int,
                                     decoding: LZ4Implementation) -> Result<[UInt8], LZ4BlockError> {
        let window = DecodeWindow(maxBlockBytes: max(limit, SegmentFormat.windowBytes), decoding: decoding)
        window.beginFrame()
        // The dictionary as the frame's earlier content: a stored (uncompressed) block.
        let stored = dictionary.withUnsafeBytes { bytes in
            Result { () throws(LZ4BlockError) in try window.decode(block: bytes, compressed: false, linked: true, maxOutput: bytes.count) }
        }
        if case .failure(let error) = stored { return .failure(error) }
        return block.withUnsafeBytes { bytes in
            Result { () throws(LZ4BlockError) in
                Array(window.bytes(try window.decode(block: bytes, compressed: true, linked: true, maxOutput: limit)))
            }
        }
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
}
