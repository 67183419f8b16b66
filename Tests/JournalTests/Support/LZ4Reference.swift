import CLZ4
import SDKTesting
@testable import Journal

/// liblz4 as the reference the Swift decoder is held to, and the inputs both are given.
enum LZ4Reference {
    /// `input` compressed alone as one LZ4 block by liblz4.
    static func compress(_ input: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(LZ4_compressBound(Int32(input.count))))
        let written = output.withUnsafeMutableBytes { out in
            input.withUnsafeBytes { LZ4_compress_default($0.baseAddress, out.baseAddress, Int32(input.count), Int32(out.count)) }
        }
        precondition(written > 0 || input.isEmpty)
        return Array(output.prefix(Int(written)))
    }

    /// `parts` compressed as linked blocks by liblz4's streaming API, from one contiguous buffer
    /// as the journal's frames are: each block may copy from the 64 KiB before it.
    static func compressLinked(_ parts: [[UInt8]]) -> [[UInt8]] {
        let content = Array(parts.joined())
        let stream = LZ4_createStream()!
        defer { LZ4_freeStream(stream) }
        var blocks: [[UInt8]] = []
        content.withUnsafeBytes { source in
            var offset = 0
            for part in parts {
                var output = [UInt8](repeating: 0, count: Int(LZ4_compressBound(Int32(part.count))))
                let written = output.withUnsafeMutableBytes { out in
                    LZ4_compress_fast_continue(stream, (source.baseAddress! + offset).assumingMemoryBound(to: CChar.self),
                                               out.baseAddress!.assumingMemoryBound(to: CChar.self),
                                               Int32(part.count), Int32(out.count), 1)
                }
                precondition(written > 0)
                blocks.append(Array(output.prefix(Int(written))))
                offset += part.count
            }
        }
        return blocks
    }

    /// What liblz4 decodes `block` to, producing at most `limit` bytes after `dictionary`; nil
    /// when it refuses the block.
    static func decode(_ block: [UInt8], dictionary: [UInt8], limit: Int) -> [UInt8]? {
        var buffer = dictionary + [UInt8](repeating: 0, count: limit)
        let produced = buffer.withUnsafeMutableBytes { out in
            block.withUnsafeBytes { source in
                let base = out.baseAddress!.assumingMemoryBound(to: CChar.self)
                return LZ4_decompress_safe_usingDict(source.baseAddress?.assumingMemoryBound(to: CChar.self), base + dictionary.count,
                                                     Int32(block.count), Int32(limit), base, Int32(dictionary.count))
            }
        }
        return produced < 0 ? nil : Array(buffer[dictionary.count..<(dictionary.count + Int(produced))])
    }

    /// What the Swift decoder decodes `block` to, after `dictionary`, producing at most `limit`
    /// bytes (when `exactly` is false, up to the end of whole pages, at least `limit`): the block
    /// ends where a page no one may read begins, and the dictionary and the output lie between
    /// two such pages. Returns the limit used.
    static func swiftDecode(_ block: [UInt8], dictionary: [UInt8], limit: Int,
                            exactly: Bool = false) -> (Result<[UInt8], LZ4BlockError>, limit: Int) {
        let input = GuardedRegion(minimumCount: block.count)
        let placed = input.placeAtEnd(block)
        let output = GuardedRegion(minimumCount: dictionary.count + max(limit, 1))
        let used = exactly ? limit : output.count - dictionary.count
        dictionary.withUnsafeBytes { if let source = $0.baseAddress { output.start.copyMemory(from: source, byteCount: dictionary.count) } }
        do {
            let produced = try LZ4BlockDecoder.decode(placed, into: output.start, at: dictionary.count, dictionaryStart: 0, limit: used)
            return (.success(Array(UnsafeRawBufferPointer(start: output.start + dictionary.count, count: produced))), used)
        } catch {
            return (.failure(error), used)
        }
    }

    /// Inputs shaped like the ones that stress a decoder: literal runs around the length
    /// extension thresholds, long runs of one byte (matches at offset 1 overlapping what they
    /// write), short periods (offsets 2 to 7), records like a journal's, incompressible bytes.
    static let inputs: [(name: String, bytes: [UInt8])] = {
        var generator = SplitMix64(seed: 36)
        func random(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) } }
        var inputs: [(String, [UInt8])] = [("empty", []), ("one byte", [42])]
        for count in [14, 15, 16, 19, 270, 271, 526, 5_000] { inputs.append(("\(count) random bytes", random(count))) }
        inputs.append(("a run of 20,000 sevens", Array(repeating: 7, count: 20_000)))
        for period in 2...7 {
            let pattern = random(period)
            inputs.append(("period \(period)", (0..<(3_000 + period)).map { pattern[$0 % period] }))
        }
        let text = Array(#"{"kind":"callReceived","call":"track","event":"screen_view","index":"#.utf8)
        inputs.append(("records", (0..<2_000).flatMap { text + Array(String($0 * 7).utf8) }))
        inputs.append(("records with random runs", (0..<300).flatMap { _ in text + random(Int(generator.next() % 40)) }))
        let head = random(300)
        inputs.append(("a match 65,535 back", head + random(65_235) + head))
        return inputs
    }()
}
