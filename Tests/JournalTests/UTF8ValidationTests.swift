import FuzzHarness
import Journal
import SDKTesting
import Testing

/// The package's UTF-8 validator, which stands in for `String(validating:as:)` below iOS 18 and
/// macOS 15, against the standard library's on Linux: exhaustively over short strings, at every
/// boundary of table 3-7, and on random text with damage at every alignment.
@Suite("UTF-8 validation, held to the standard library's", .timeLimit(.minutes(2)))
struct UTF8ValidationTests {
    /// The bytes around each edge of table 3-7's ranges, and the ends.
    static let edges: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0,
                                 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF3, 0xF4, 0xF5, 0xFF]

    /// Whether the validator and the standard library agree on `bytes`, and a string made is
    /// the bytes themselves.
    static func agree(_ bytes: [UInt8]) -> Bool {
        let ours = UTF8Validation.string(bytes)
        return ours == UTF8CrossCheck.standardLibrary(bytes) && (ours.map { $0.utf8.elementsEqual(bytes) } ?? true)
    }

    @Test("every string of one and two bytes")
    func oneAndTwoBytes() {
        var disagreements: [[UInt8]] = []
        for first in 0...255 {
            if !Self.agree([UInt8(first)]) { disagreements.append([UInt8(first)]) }
            for second in 0...255 where !Self.agree([UInt8(first), UInt8(second)]) {
                disagreements.append([UInt8(first), UInt8(second)])
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    }

    @Test("every lead and second byte with each edge after them; four-byte leads with edges after them")
    func threeAndFourBytes() {
        var disagreements: [[UInt8]] = []
        var accepted = 0
        for lead in UInt8(0x80)...0xFF {
            for second in UInt8(0)...0xFF {
                for third in Self.edges {
                    let three = [lead, second, third]
                    if !Self.agree(three) { disagreements.append(three) }
                    if UTF8Validation.string(three) != nil { accepted += 1 }
                }
            }
        }
        for lead in [0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF7, 0xFF] as [UInt8] {
            for second in Self.edges {
                for third in Self.edges {
                    for fourth in Self.edges where !Self.agree([lead, second, third, fourth]) {
                        disagreements.append([lead, second, third, fourth])
                    }
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
        #expect(accepted > 1000, "the edges include valid sequences too")
    }

    @Test("overlong forms, surrogates, scalars past U+10FFFF and cut sequences are refused; their neighbours are not",
          arguments: [
            ([0xC0, 0x80], false), ([0xC1, 0xBF], false), ([0xC2, 0x80], true),               // overlong U+0000, U+007F; U+0080
            ([0xE0, 0x9F, 0xBF], false), ([0xE0, 0xA0, 0x80], true),                            // overlong U+07FF; U+0800
            ([0xF0, 0x8F, 0xBF, 0xBF], false), ([0xF0, 0x90, 0x80, 0x80], true),                // overlong U+FFFF; U+10000
            ([0xED, 0x9F, 0xBF], true), ([0xED, 0xA0, 0x80], false), ([0xED, 0xBF, 0xBF], false), // U+D7FF; surrogates
            ([0xEE, 0x80, 0x80], true),                                                         // U+E000
            ([0xF4, 0x8F, 0xBF, 0xBF], true), ([0xF4, 0x90, 0x80, 0x80], false),                // U+10FFFF; past it
            ([0xF5, 0x80, 0x80, 0x80], false), ([0xFF], false),
            ([0xE2, 0x82], false), ([0xF0, 0x9F, 0x98], false), ([0xC3], false),                // cut short
            ([0xE2, 0x28, 0xA1], false), ([0xF0, 0x9F, 0x41, 0x80], false), ([0x80], false),    // broken; a lone continuation
            ([0xE2, 0x82, 0xAC], true), ([0xF0, 0x9F, 0x98, 0x80], true), ([0x00], true),       // €, 😀, NUL
          ] as [([UInt8], Bool)])
    func tableEdges(bytes: [UInt8], valid: Bool) {
        // Alone, and after ASCII that puts the sequence at each place of the eight-byte stride,
        // with more ASCII after it.
        for padding in 0..<9 {
            let placed = [UInt8](repeating: 0x61, count: padding) + bytes + Array("tail text".utf8)
            #expect((UTF8Validation.string(placed) != nil) == valid, "\(placed)")
            #expect(Self.agree(placed), "\(placed)")
        }
        #expect((UTF8Validation.string(bytes) != nil) == valid)
        #expect(Self.agree(bytes))
    }

    @Test("random text of every width, damaged or not, through every entry point")
    func randomText() throws {
        var generator = SplitMix64(seed: 47)
        func below(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }
        var refused = 0
        var accepted = 0
        for round in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<below(40) {
                let scalar: UInt32
                switch below(4) {
                case 0: scalar = UInt32(below(0x80))
                case 1: scalar = 0x80 + UInt32(below(0x800 - 0x80))
                case 2: scalar = 0x800 + UInt32(below(0xD800 - 0x800))
                default: scalar = 0x10000 + UInt32(below(0x110000 - 0x10000))
                }
                bytes += Array(String(Character(try #require(Unicode.Scalar(scalar)))).utf8)
            }
            if round % 2 == 1, !bytes.isEmpty {
                switch below(3) {
                case 0: bytes[below(bytes.count)] = UInt8(truncatingIfNeeded: generator.next())
                case 1: bytes.removeLast(1 + below(min(3, bytes.count)))
                default: bytes.insert(UInt8(0x80 + below(0x80)), at: below(bytes.count + 1))
                }
            }
            #expect(Self.agree(bytes), "round \(round): \(bytes)")
            // The same bytes as a slice, a raw buffer and a typed buffer.
            let expected = UTF8Validation.string(bytes)
            #expect(UTF8Validation.string(([0x20] + bytes)[1...]) == expected)
            #expect(bytes.withUnsafeBytes { UTF8Validation.string($0) } == expected)
            #expect(bytes.withUnsafeBufferPointer { UTF8Validation.string($0) } == expected)
            if expected == nil { refused += 1 } else { accepted += 1 }
        }
        #expect(refused > 3_000 && accepted > 10_000, "refused \(refused), accepted \(accepted)")
    }

    @Test("the fuzzer's UTF-8 check passes on text and on damage")
    func fuzzCheck() {
        #expect(UTF8CrossCheck.run(Array("plain ASCII, then é, 😀 and 中文".utf8)) == [])
        #expect(UTF8CrossCheck.run([0x61, 0xED, 0xA0, 0x80, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67]) == [])
        #expect(UTF8CrossCheck.run([]) == [])
    }
}
