import Foundation
import Testing
@testable import SDK
@testable import SDKCore

/// The JSON request bodies are built from ``DataValue``s by hand: strings escaped exactly when
/// JSON requires it, and the byte count computed ahead matches what is written.
@Suite("DataValue as JSON", .timeLimit(.minutes(3)))
struct DataValueJSONTests {
    @Test("strings: plain ones copied as they are, quotes, backslashes and control characters escaped", arguments: [
        ("plain", #""plain""#),
        ("", #""""#),
        ("café ☕️ 東京", "\"café ☕️ 東京\""),
        ("say \"hi\"", #""say \"hi\"""#),
        ("back\\slash", #""back\\slash""#),
        ("line\nbreak\ttab\rreturn", #""line\nbreak\ttab\rreturn""#),
        ("bell\u{07}nul\u{0}", #""bell\u0007nul\u0000""#),
    ])
    func strings(text: String, expected: String) throws {
        let value = DataValue.string(text)
        let bytes = value.jsonBytes()
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        #expect(value.jsonByteCount == bytes.count)
        // Foundation reads it back as the same string.
        let parsed = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) as? String
        #expect(parsed == text)
    }

    @Test("nested objects and arrays count their bytes exactly")
    func nested() {
        let value = DataValue.object(["a\"b": .array([.string("x\ny"), .integer(-3), .bool(true), .null]), "plain": .number(2.5)])
        #expect(value.jsonByteCount == value.jsonBytes().count)
    }
}
