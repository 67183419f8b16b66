import Testing
@testable import SDKCore

/// The JSON string escaper skips eight plain bytes at a time; whatever the position of a byte
/// that needs escaping, the bytes must be those of escaping one byte at a time.
@Suite("JSON string escaping", .timeLimit(.minutes(1)))
struct JSONStringEscapingTests {
    /// The rules, one byte at a time: what the escaper must agree with.
    static func reference(_ text: String) -> [UInt8] {
        var output: [UInt8] = [UInt8(ascii: "\"")]
        let hex = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += Array(#"\""#.utf8)
            case UInt8(ascii: "\\"): output += Array(#"\\"#.utf8)
            case UInt8(ascii: "\n"): output += Array(#"\n"#.utf8)
            case UInt8(ascii: "\r"): output += Array(#"\r"#.utf8)
            case UInt8(ascii: "\t"): output += Array(#"\t"#.utf8)
            case ..<0x20: output += Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
        return output
    }

    static func escaped(_ text: String) -> [UInt8] {
        ScratchBytes.withScratch { output in
            JSONValue.writeString(text, to: &output)
            return output.array
        }
    }

    @Test("every ASCII byte, at every offset of strings of every length up to three words, is escaped as the rules say")
    func everyByteAtEveryOffsetOfEveryLength() {
        for length in 1...24 {
            for byte in UInt8(0)..<0x80 {
                for offset in 0..<length {
                    var bytes = Array(repeating: UInt8(ascii: "a"), count: length)
                    bytes[offset] = byte
                    let text = String(decoding: bytes, as: UTF8.self)
                    #expect(Self.escaped(text) == Self.reference(text), "byte \(byte) at offset \(offset) of \(length)")
                }
            }
        }
    }

    @Test("strings that are all six-byte escapes, of every length, fit the room the writer keeps")
    func allEscapesOfEveryLength() {
        for length in 0...24 {
            let text = String(decoding: Array(repeating: UInt8(0x01), count: length), as: UTF8.self)
            // A scratch of one byte: the writer's room is grown to exactly what it asks for.
            let written = ScratchBytes.withScratch(capacity: 1) { output in
                JSONValue.writeString(text, to: &output)
                return output.array
            }
            #expect(written == Self.reference(text), "\(length) escapes")
            let tail = text + "abcdefg"
            #expect(Self.escaped(tail) == Self.reference(tail), "\(length) escapes then plain bytes")
        }
    }

    @Test("request bodies, non-ASCII text and runs of escapes come out as the rules say")
    func mixedText() {
        let texts = [
            "", "a", "\"", "plain ascii that is longer than sixteen bytes",
            #"{"email":"someone@example.com","dataFields":{"n":1,"s":"x\"y"}}"#,
            "é ü 🙂 ñ — 漢字 and \u{7F} delete", "\u{1}\u{2}\u{1F}\n\r\t\\\\\"\"", "tab\tin the middle of a long line of text",
        ]
        for text in texts { #expect(Self.escaped(text) == Self.reference(text), "\(text)") }
    }

    @Test("a word is flagged whenever one of its bytes needs escaping, and not when all are plain")
    func wordCheck() {
        let plain: [UInt8] = [0x20, 0x21, 0x23, 0x41, 0x5B, 0x5D, 0x7E, 0x7F, 0x80, 0xC3, 0xFF]
        for filler in plain {
            #expect(!JSONValue.mayNeedEscaping(UInt64(filler) &* 0x0101_0101_0101_0101))
            for byte in UInt8(0)...0xFF {
                let needs = byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
                for lane in 0..<8 {
                    let word = (UInt64(filler) &* 0x0101_0101_0101_0101) & ~(0xFF << (8 * UInt64(lane))) | UInt64(byte) << (8 * UInt64(lane))
                    if needs { #expect(JSONValue.mayNeedEscaping(word), "byte \(byte) in lane \(lane)") }
                    else { #expect(!JSONValue.mayNeedEscaping(word), "byte \(byte) in lane \(lane) over \(filler)") }
                }
            }
        }
    }
}
