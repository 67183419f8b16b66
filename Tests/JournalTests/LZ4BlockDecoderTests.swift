import FuzzHarness
import SDKTesting
import Testing
@testable import Journal

@Suite("LZ4 block decoder in Swift, held to liblz4", .timeLimit(.minutes(1)))
struct LZ4BlockDecoderTests {
    @Test("decodes every block liblz4 compresses to the input, as liblz4 does")
    func decodesWhatLiblz4Compresses() throws {
        for (name, input) in LZ4Reference.inputs {
            let block = LZ4Reference.compress(input)
            let (decoded, limit) = LZ4Reference.swiftDecode(block, dictionary: [], limit: input.count)
            #expect(try decoded.get() == input, "\(name)")
            #expect(LZ4Reference.decode(block, dictionary: [], limit: limit) == input, "\(name): liblz4")
        }
    }

    @Test("decodes linked blocks with the previous 64 KiB as their dictionary")
    func linkedBlocks() throws {
        // Over 64 KiB in all, so later blocks refer back to the window's far end.
        let parts = LZ4Reference.inputs.map(\.bytes).filter { !$0.isEmpty }
        let blocks = LZ4Reference.compressLinked(parts)
        var content: [UInt8] = []
        for (index, block) in blocks.enumerated() {
            let dictionary = Array(content.suffix(SegmentFormat.windowBytes))
            let (decoded, limit) = LZ4Reference.swiftDecode(block, dictionary: dictionary, limit: parts[index].count)
            #expect(try decoded.get() == parts[index], "block \(index) (\(LZ4Reference.inputs[index + 1].name))")
            #expect(LZ4Reference.decode(block, dictionary: dictionary, limit: limit) == parts[index])
            content += parts[index]
        }
        #expect(content.count > 2 * SegmentFormat.windowBytes)
        // Without its dictionary a block that refers back is refused, naming where.
        let records = LZ4Reference.inputs.first { $0.name == "records" }!.bytes
        let repeated = LZ4Reference.compressLinked([records, records])[1]
        let (alone, _) = LZ4Reference.swiftDecode(repeated, dictionary: [], limit: records.count)
        switch alone {
        case .success: Issue.record("a block that repeats the one before it decoded without it")
        case .failure(let error): #expect(error.reason.contains("reaches before the 0 bytes"), "\(error)")
        }
        let (withDictionary, _) = LZ4Reference.swiftDecode(repeated, dictionary: records, limit: records.count)
        #expect(try withDictionary.get() == records)
    }

    /// Blocks written by hand around the dictionary's first byte, each checked against liblz4.
    /// Each ends with five literals ("vwxyz"), as liblz4's decoder requires.
    @Test("a match may reach the dictionary's first byte and run on into the block's own output, not one byte further")
    func dictionaryBoundary() throws {
        let dictionary = Array("abcdefgh".utf8)
        let end: [UInt8] = [0x50] + Array("vwxyz".utf8)
        let cases: [(block: [UInt8], expected: [UInt8]?, offsetField: Int)] = [
            // No literals, a match of 8 at offset 8 (the whole dictionary).
            ([0x04, 0x08, 0x00] + end, Array("abcdefghvwxyz".utf8), 1),
            // A match of 10 at offset 2: starts in the dictionary, overlaps its own output.
            ([0x06, 0x02, 0x00] + end, Array("ghghghghghvwxyz".utf8), 1),
            // Two literals, then a match reaching back over them into the dictionary.
            ([0x24, 0x31, 0x32, 0x0A, 0x00] + end, Array("12abcdefghvwxyz".utf8), 3),
            // Offset 9: one byte before the dictionary.
            ([0x04, 0x09, 0x00] + end, nil, 1),
            // Offset 11 after two literals: one byte before the dictionary.
            ([0x24, 0x31, 0x32, 0x0B, 0x00] + end, nil, 3),
        ]
        for (block, expected, offsetField) in cases {
            let (decoded, limit) = LZ4Reference.swiftDecode(block, dictionary: dictionary, limit: 64)
            #expect(LZ4Reference.decode(block, dictionary: dictionary, limit: limit) == expected, "liblz4 on \(block)")
            if let expected {
                #expect(try decoded.get() == expected, "\(block)")
            } else {
                #expect(throws: LZ4BlockError.self) { try decoded.get() }
                if case .failure(let error) = decoded {
                    #expect(error.offset == offsetField, "the error names the offset field: \(error)")
                    #expect(error.reason.contains("reaches before the"), "\(error)")
                }
            }
        }
        // The farthest a block can reach: 65,535 bytes back, into a 64 KiB dictionary.
        var generator = SplitMix64(seed: 1)
        let window = (0..<SegmentFormat.windowBytes).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let farthest: [UInt8] = [0x04, 0xFF, 0xFF] + end
        let (decoded, limit) = LZ4Reference.swiftDecode(farthest, dictionary: window, limit: 64)
        #expect(try decoded.get() == Array(window[1..<9]) + Array("vwxyz".utf8))
        #expect(LZ4Reference.decode(farthest, dictionary: window, limit: limit) == Array(window[1..<9]) + Array("vwxyz".utf8))
    }

    @Test("refuses malformed blocks with the byte and the reason")
    func malformed() {
        let cases: [(block: [UInt8], limit: Int, offset: Int, reason: String)] = [
            ([], 64, 0, "the block is empty"),
            ([0xF0], 64, 0, "the literal length runs past the block's end"),
            ([0xF0, 0xFF, 0xFF], 64, 0, "the literal length runs past the block's end"),
            ([0x30, 0x61, 0x62], 64, 0, "3 literals run past the block's end (2 bytes left)"),
            ([0x10, 0x61, 0x01], 64, 2, "a match offset is cut short by the block's end"),
            ([0x10, 0x61, 0x00, 0x00, 0x10, 0x7A], 64, 2, "match offset 0"),
            ([0x10, 0x61, 0x02, 0x00, 0x10, 0x7A], 64, 2, "match offset 2 reaches before the 1 bytes of the block and its dictionary so far"),
            ([0x1F, 0x61, 0x01, 0x00], 64, 0, "the match length runs past the block's end"),
            ([0x10, 0x61, 0x01, 0x00], 64, 0, "the block ends with a match, not with literals"),
            ([0x40, 0x61, 0x62, 0x63, 0x64], 3, 0, "the block decodes to more than 3 bytes"),
            ([0x1F, 0x61, 0x01, 0x00, 0x00, 0x10, 0x7A], 18, 0, "the block decodes to more than 18 bytes"),
        ]
        for (block, limit, offset, reason) in cases {
            let (decoded, _) = LZ4Reference.swiftDecode(block, dictionary: [], limit: limit, exactly: true)
            switch decoded {
            case .success(let bytes):
                Issue.record("\(block) decoded to \(bytes)")
            case .failure(let error):
                #expect(error == LZ4BlockError(offset: offset, reason: reason), "\(block)")
            }
        }
    }

    /// Blocks liblz4 1.9.4 (Debian's, which CI links) decodes that break the format's rules: the
    /// reader refuses each through liblz4 as through the Swift decoder, with the same words.
    @Test("a match at offset 0, or a block ending too soon after its last match, is refused on both paths alike",
          arguments: [
            // Four literals, then a match of 8 at offset 0 (fuzz-journal's find 11), then five.
            ([0x44] + Array("abcd".utf8) + [0x00, 0x00, 0x50] + Array("vwxyz".utf8), 5, "match offset 0"),
            // Fourteen literals and a match of 8, then only three literals.
            ([0xE4] + Array("abcdefghijklmn".utf8) + [0x08, 0x00, 0x30] + Array("xyz".utf8), 17,
             "the block ends with 3 literals after its last match, not the 5 the format requires"),
            // ... and none.
            ([0xE4] + Array("abcdefghijklmn".utf8) + [0x08, 0x00, 0x00], 17,
             "the block ends with 0 literals after its last match, not the 5 the format requires"),
            // Fourteen literals and a match of 4, then five literals: the match starts 9 bytes
            // before the end.
            ([0xE0] + Array("abcdefghijklmn".utf8) + [0x08, 0x00, 0x50] + Array("vwxyz".utf8), 17,
             "the last match starts 9 bytes before the block's end, not the 12 the format requires"),
          ] as [([UInt8], Int, String)])
    func rulesLiblz4DoesNotHold(block: [UInt8], offset: Int, reason: String) {
        let limit = 1 << 16
        #expect(LZ4BlockCrossCheck.liblz4(block, dictionary: [], limit: limit) != nil, "liblz4 itself decodes it")
        let expected = LZ4BlockError(offset: offset, reason: reason)
        for decoding in [LZ4Implementation.liblz4, .swift] {
            let decoded = LZ4BlockCrossCheck.readerDecode(block, dictionary: [], limit: limit, decoding: decoding)
            #expect(throws: expected, "\(decoding)") { try decoded.get() }
        }
        #expect(LZ4BlockCrossCheck.run([0] + block) == [])
    }

    @Test("the end of block conditions hold exactly at their bounds, on both paths")
    func endConditionsAtTheirBounds() throws {
        // Five literals after a match of 7: the match starts 12 bytes before the end.
        let block: [UInt8] = [0xE3] + Array("abcdefghijklmn".utf8) + [0x08, 0x00, 0x50] + Array("vwxyz".utf8)
        let expected = Array("abcdefghijklmn".utf8) + Array("ghijklm".utf8) + Array("vwxyz".utf8)
        for decoding in [LZ4Implementation.liblz4, .swift] {
            #expect(try LZ4BlockCrossCheck.readerDecode(block, dictionary: [], limit: 1 << 16, decoding: decoding).get() == expected)
        }
        // Literals only, however few: no match, so no end conditions.
        for literals in 0..<5 {
            let short = [UInt8(literals << 4)] + Array("abcd".utf8.prefix(literals))
            for decoding in [LZ4Implementation.liblz4, .swift] {
                #expect(try LZ4BlockCrossCheck.readerDecode(short, dictionary: [], limit: 64, decoding: decoding).get()
                        == Array("abcd".utf8.prefix(literals)))
            }
        }
    }

    /// Every valid block of the inputs, cut short, with bytes changed, inserted and removed:
    /// the Swift decoder never reads or writes outside its ranges (guard pages), decodes exactly
    /// what the reader's liblz4 path decodes, to the same bytes, refuses the rest with the same
    /// error, and names a byte of the block when it refuses one.
    @Test("damaged blocks: never outside the block or the output, and decoded or refused as the reader's liblz4 path does")
    func damagedBlocks() throws {
        var generator = SplitMix64(seed: 360)
        func below(_ bound: Int) -> Int { Int(generator.next() % UInt64(max(bound, 1))) }
        let dictionary = Array(LZ4Reference.inputs.first { $0.name == "records" }!.bytes.prefix(4_000))
        var refusedByBoth = 0
        var decodedByBoth = 0
        for (name, input) in LZ4Reference.inputs where !input.isEmpty {
            let valid = LZ4Reference.compressLinked([dictionary, input])[1]
            for round in 0..<150 {
                var block = valid
                switch round % 4 {
                case 0: block = Array(block.prefix(below(block.count)))
                case 1: for _ in 0...below(3) { block[below(block.count)] = UInt8(truncatingIfNeeded: generator.next()) }
                case 2: block.insert(UInt8(truncatingIfNeeded: generator.next()), at: below(block.count + 1))
                default: if block.count > 1 { block.remove(at: below(block.count)) }
                }
                let (decoded, limit) = LZ4Reference.swiftDecode(block, dictionary: dictionary, limit: input.count,
                                                                exactly: round % 3 == 0)
                let reference = LZ4BlockCrossCheck.readerDecode(block, dictionary: dictionary, limit: limit, decoding: .liblz4)
                switch (decoded, reference) {
                case (.success(let bytes), .success(let expected)):
                    #expect(bytes == expected, "\(name), round \(round)")
                    decodedByBoth += 1
                case (.failure(let error), .failure(let expected)):
                    #expect(error == expected, "\(name), round \(round): the Swift decoder says \(error), liblz4's path \(expected)")
                    #expect((0...block.count).contains(error.offset), "\(name), round \(round): \(error)")
                    refusedByBoth += 1
                default:
                    Issue.record("\(name), round \(round): the Swift decoder \(decoded), liblz4's path \(reference)")
                }
            }
        }
        // Both kinds of outcome were exercised, so the comparison above compared something.
        #expect(refusedByBoth > 500 && decodedByBoth > 100, "refused by both: \(refusedByBoth), decoded by both: \(decodedByBoth)")
    }

    @Test("the fuzzer's block seed copies from its dictionary, and both decoders agree on it")
    func fuzzSeed() {
        let seed = LZ4BlockCrossCheck.seed()
        let dictionary = (0..<(Int(seed[0]) << 8)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        let block = Array(seed.dropFirst())
        #expect(LZ4BlockCrossCheck.liblz4(block, dictionary: dictionary, limit: 1 << 16) != nil)
        #expect(LZ4BlockCrossCheck.liblz4(block, dictionary: [], limit: 1 << 16) == nil, "it refers to its dictionary")
        #expect(LZ4BlockCrossCheck.run(seed) == [])
    }

    @Test("a decode window reads a long linked frame alike through both decoders, sliding its dictionary",
          arguments: [LZ4Implementation.liblz4, .swift])
    func windowSlides(decoding: LZ4Implementation) throws {
        let parts = (0..<30).flatMap { _ in LZ4Reference.inputs.map(\.bytes).filter { !$0.isEmpty && $0.count <= 20_000 } }
        let blocks = LZ4Reference.compressLinked(parts)
        // Room for one 64 KiB block and 256 KiB more: the window slides several times.
        let window = DecodeWindow(maxBlockBytes: 64 << 10, decoding: decoding)
        window.beginFrame()
        var decoded: [UInt8] = []
        for block in blocks {
            let range = try block.withUnsafeBytes { stored in
                try window.decode(block: stored, compressed: true, linked: true, maxOutput: 64 << 10)
            }
            decoded += Array(window.bytes(range))
        }
        #expect(decoded == Array(parts.joined()))
        #expect(decoded.count > 4 * window.capacity)
    }
}
