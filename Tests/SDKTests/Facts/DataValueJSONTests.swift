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

/// The fast paths of JSON writing give the bytes of the plain ones.
@Suite("DataValue JSON fast paths")
struct DataValueJSONFastPathTests {
    @Test("integers are spelled as String(_:) spells them, at the edges too")
    func decimals() {
        for value: Int64 in [0, 1, -1, 9, 10, -10, 1_764_000_000, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1] {
            #expect(DataValue.integer(value).json() == String(value))
        }
    }

    @Test("small and large objects are written in key order")
    func objectOrder() {
        let small: [String: DataValue] = ["b": 1, "a": "x", "é": true, "Z": nil, "aa": [1, 2]]
        #expect(DataValue.object(small).json() == #"{"Z":null,"a":"x","aa":[1,2],"b":1,"é":true}"#)
        var large: [String: DataValue] = [:]
        for index in 0..<20 { large["k\(index)"] = .integer(Int64(index)) }
        let keys = large.keys.sorted { String.utf8Precedes($0, $1) }
        #expect(DataValue.object(large).json() == "{" + keys.map { "\"\($0)\":\(large[$0]!.json())" }.joined(separator: ",") + "}")
        #expect(DataValue.object([:]).json() == "{}")
    }

    @Test("objects at the edges of the stack-sorted size are written in key order", arguments: [1, 2, 15, 16, 17])
    func objectOrderAtEdges(count: Int) {
        var object: [String: DataValue] = [:]
        for index in 0..<count { object[index % 3 == 0 ? "é\(count - index)" : "k\(count - index)"] = .integer(Int64(index)) }
        let keys = object.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(DataValue.object(object).json() == "{" + keys.map { "\"\($0)\":\(object[$0]!.json())" }.joined(separator: ",") + "}")
    }

    @Test("keys are ordered by their UTF-8 bytes, a prefix first")
    func keyOrder() {
        let pairs: [(String, String)] = [("a", "b"), ("a", "aa"), ("", "a"), ("Z", "a"), ("z", "é"), ("é", "ê"), ("abc", "abd")]
        for (lower, higher) in pairs {
            #expect(String.utf8Precedes(lower, higher))
            #expect(!String.utf8Precedes(higher, lower))
        }
        #expect(!String.utf8Precedes("same", "same"))
    }
}
