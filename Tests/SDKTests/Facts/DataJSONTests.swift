import Foundation
import Testing
@testable import SDKCore

/// Data objects as JSON (journal format 1.3): what the writer stores reads back exactly, what
/// it cannot store exactly it leaves to entries, and the reader takes any JSON object, refusing
/// malformed bytes with an offset.
@Suite("Data fields as JSON", .timeLimit(.minutes(1)))
struct DataJSONTests {
    private func read(_ text: String) throws(CodecError) -> [String: DataValue] {
        let bytes = Array(text.utf8)
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(CodecError) in try DataValue.members(ofJSON: raw, baseOffset: 0) }
        }
        return try result.get()
    }

    private func written(_ members: [String: DataValue]) -> (json: String, fidelity: JSONFidelity) {
        ScratchBytes.withScratch { output in
            var fidelity = JSONFidelity.exact
            DataValue.object(members).writeJSON(to: &output, depth: DataValue.maxDepth, fidelity: &fidelity)
            return (String(decoding: output.written, as: UTF8.self), fidelity)
        }
    }

    @Test("numbers: digits are integers, anything with a point or an exponent a double; whole doubles are not exact")
    func numbers() throws {
        #expect(try read(#"{"a":3,"b":-0,"c":-9223372036854775808,"d":9223372036854775807}"#)
                == ["a": .integer(3), "b": .integer(0), "c": .integer(.min), "d": .integer(.max)])
        #expect(try read(#"{"a":3.0,"b":1e+15,"c":5e-324,"d":9223372036854775808,"e":-2.5E2}"#)
                == ["a": .number(3), "b": .number(1e15), "c": .number(.leastNonzeroMagnitude), "d": .number(9.223372036854775808e18),
                    "e": .number(-250)])
        #expect(written(["x": .number(3.0)]) == (#"{"x":3}"#, .wholeNumbers))
        #expect(written(["x": .number(-0.0)]).fidelity == .wholeNumbers)
        #expect(written(["x": .number(1e15)]) == (#"{"x":1000000000000000.0}"#, .exact))
        #expect(written(["x": .number(1e300)]) == (#"{"x":1e+300}"#, .exact))
        #expect(written(["x": .number(0.1), "y": .integer(3)]) == (#"{"x":0.1,"y":3}"#, .exact))
        #expect(written(["x": .number(.infinity)]).fidelity == .unsendable)
        #expect(written(["x": .number(.nan)]).fidelity == .unsendable)
    }

    @Test("integers are written as String(value) spells them, at every number of digits")
    func decimals() {
        var values: [UInt64] = [0, .max, .max - 1, 1 << 63] + Array(0..<1_000) + (0..<1_000).map { _ in UInt64.random(in: 0 ... .max) }
        var power: UInt64 = 1
        for _ in 0..<19 {
            power *= 10
            values += [power - 1, power, power + 1]
        }
        for value in values {
            let text = ScratchBytes.withScratch { output in
                output.appendDecimal(value)
                return String(decoding: output.written, as: UTF8.self)
            }
            #expect(text == String(value))
            #expect(JSONValue.decimalDigitCount(value) == String(value).count)
        }
    }

    @Test("strings: every escape, surrogate pairs, raw UTF-8; what the writer escapes reads back")
    func strings() throws {
        #expect(try read(#"{"k":"\"\\\/\b\f\n\r\t\u00e9\ud83c\udf89 é 🎉"}"#) == ["k": .string("\"\\/\u{08}\u{0C}\n\r\té🎉 é 🎉")])
        let text = "caf\u{E9} \u{2615} \"q\" \\ / \n\t\u{01}\u{1F}\u{7F} \u{10FFFF}"
        let (json, fidelity) = written([text: .string(text)])
        #expect(fidelity == .exact)
        #expect(try read(json) == [text: .string(text)])
    }

    @Test("any JSON object: whitespace between tokens, nesting, empty containers, a repeated key (the last wins)")
    func foreignJSON() throws {
        #expect(try read(" {\n \"a\" : [ 1 , {\"b\" : null} , [ ] , { } ] ,\t\"c\":true, \"c\":false } ")
                == ["a": [1, ["b": nil], .array([]), .object([:])], "c": false])
        #expect(try read("{}") == [:])
    }

    @Test("nesting: the writer's limit (32 levels, the object the first) reads; one more does not, and is not written")
    func nesting() throws {
        func nested(_ levels: Int) -> [String: DataValue] {
            var value = DataValue.integer(1)
            for _ in 1..<levels { value = .array([value]) }
            return ["deep": value]
        }
        let deepest = written(nested(DataValue.maxDepth - 1))
        #expect(deepest.fidelity == .exact)
        #expect(try read(deepest.json) == nested(DataValue.maxDepth - 1))
        #expect(written(nested(DataValue.maxDepth)).fidelity == .unsendable)
        let tooDeep = "{\"deep\":" + String(repeating: "[", count: DataValue.maxDepth) + "1" + String(repeating: "]", count: DataValue.maxDepth) + "}"
        #expect(throws: CodecError.self) { try read(tooDeep) }
    }

    @Test("nesting through objects: a string or an integer member at the limit's last level is written, one level deeper is not", arguments: [DataValue.integer(-7), .string("x")])
    func nestingThroughObjects(leaf: DataValue) throws {
        func nested(_ levels: Int) -> [String: DataValue] {
            var members: [String: DataValue] = ["leaf": leaf]
            for _ in 1..<levels { members = ["in": .object(members)] }
            return members
        }
        let deepest = written(nested(DataValue.maxDepth - 1))
        #expect(deepest.fidelity == .exact)
        #expect(try read(deepest.json) == nested(DataValue.maxDepth - 1))
        #expect(written(nested(DataValue.maxDepth)).fidelity == .unsendable)
    }

    @Test("malformed JSON is refused with the offset of what is wrong, never a trap",
          arguments: [(#"{"a":1"#, 6), (#"{"a" 1}"#, 5), (#"{"a":01x}"#, 7), (#"{"a":"\q"}"#, 7), (#"{"a":tru}"#, 5),
                      ("{\"a\":\"\u{01}\"}", 6), (#"{"a":"\ud800"}"#, 12), (#"{"a":1} x"#, 8), (#"[1]"#, 0), (#"{"a":1e999}"#, 5),
                      (#"{"a":-}"#, 5), (#"{"a":"\u12"}"#, 10), ("", 0)])
    func malformed(text: String, offset: Int) {
        do {
            _ = try read(text)
            Issue.record("\(text) was read")
        } catch {
            #expect(error.offset == offset, "\(text): \(error)")
        }
    }

    @Test("a data object is JSON when exact, entries otherwise (nested objects entries too); both read back")
    func objectEncoding() throws {
        func encoded(_ members: [String: DataValue]) -> [UInt8] { DataObject(members).encodedMessage() }
        func decoded(_ bytes: [UInt8]) throws -> [String: DataValue] {
            try bytes.withUnsafeBytes { raw in
                var reader = FieldReader(raw)
                return try DataObject(from: &reader).members
            }
        }
        let exact: [String: DataValue] = ["a": 1, "b": ["c": 0.5]]
        let json = Array(#"{"a":1,"b":{"c":0.5}}"#.utf8)
        #expect(encoded(exact) == [0x12, UInt8(json.count)] + json, "field 2, the JSON")
        #expect(try decoded(encoded(exact)) == exact)
        let whole: [String: DataValue] = ["a": .number(2), "b": ["c": 0.5]]
        let entries = encoded(whole)
        #expect(entries.first == 0x0A, "entries, field 1")
        #expect(!entries.contains(UInt8(ascii: "{")), "no JSON inside the entries either")
        #expect(try decoded(entries) == whole)
    }
}
