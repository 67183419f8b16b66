import SDKTesting
import Testing
import TestSupport
@testable import SDKCore

/// The one-pass body redaction must give exactly what parsing the body and writing it again
/// gives, for every body it takes, and must leave every other body to the parser.
@Suite("one-pass body redaction", .timeLimit(.minutes(1)))
struct CanonicalBodyRedactionTests {
    let redactor = Redactor(hash: KeyedHash(key: Array("body redaction tests".utf8)))

    static let keys = ["email", "currentEmail", "newEmail", "userId", "currentUserId", "token", "dataFields", "eventName",
                       "createdAt", "items", "x", "a b", "k/s"]

    /// A random JSON value as the SDK's writers give it (integers and doubles, printable ASCII
    /// that needs no escaping).
    static func value(_ generator: inout SplitMix64, depth: Int) -> JSONValue {
        switch Int.random(in: 0..<(depth > 4 ? 6 : 8), using: &generator) {
        case 0: return .string(String((0..<Int.random(in: 0..<12, using: &generator)).map { _ in
            // Printable ASCII but the two characters a writer escapes (those bodies take the parser).
            var byte = UInt8.random(in: 0x20...0x7E, using: &generator)
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { byte = UInt8(ascii: "q") }
            return Character(Unicode.Scalar(byte))
        }))
        case 1:
            // Integers, and doubles as the writers spell them (a point or an exponent).
            if Bool.random(using: &generator) { return .integer(Int64.random(in: -1_000_000...1_000_000, using: &generator)) }
            if Bool.random(using: &generator) { return .number([1e-7, 2.5e21, -1e300, 0.1, 1.0, -0.25].randomElement(using: &generator)!) }
            return .number(Double(Int.random(in: -1_000_000...1_000_000, using: &generator)) / 64)
        case 2: return .integer([0, 1, -1, 999_999_999_999_999_999, -999_999_999_999_999_999].randomElement(using: &generator)!)
        case 3: return .bool(Bool.random(using: &generator))
        case 4: return .null
        case 5: return .string("ada@example.com")
        case 6: return .array((0..<Int.random(in: 0..<4, using: &generator)).map { _ in value(&generator, depth: depth + 1) })
        default: return object(&generator, depth: depth + 1)
        }
    }

    static func object(_ generator: inout SplitMix64, depth: Int) -> JSONValue {
        .object((0..<Int.random(in: 0..<5, using: &generator)).map { _ in
            (keys.randomElement(using: &generator)!, value(&generator, depth: depth))
        })
    }

    @Test("bodies in the writers' form take the one pass and give the parser's bytes")
    func canonicalBodiesMatchTheParser() {
        var generator = SplitMix64(seed: 20_261_201)
        for _ in 0..<3_000 {
            let body = Array(Self.object(&generator, depth: 0).serialized().utf8)
            let onePass = CanonicalBodyRedaction.redact(body, with: redactor)
            #expect(onePass != nil, "\(String(decoding: body, as: UTF8.self))")
            #expect(onePass == redactor.redactParsing(body: body), "\(String(decoding: body, as: UTF8.self))")
        }
    }

    @Test("any other body is refused by the one pass, and redact(body:) still gives the parser's bytes")
    func otherBodiesTakeTheParser() {
        let others = [
            #"{ "email": "a@b.c" }"#, #"{"email":"a\"b"}"#, #"{"email":"é"}"#, #"{"n":007}"#, #"{"n":-0}"#,
            #"{"n":1.5.5}"#, #"{"n":00}"#, #"{"n":1e999}"#, #"{"n":1-2}"#, #"{"n":+1}"#, #"{"n":1234567890123456789}"#, #"{"a":1}x"#, #"{"a":1"#, #"{"a":tru}"#, #"{"a":nul}"#,
            #""just a string""#, "17", "not json", #"{"a":"\u0041"}"#, #"[1,2,]"#, #"{"a":1,}"#, #"{,}"#, "{\"a\":\"\t\"}",
            String(repeating: "[", count: 40) + String(repeating: "]", count: 40),
            #"{"a":[1, 2]}"#, #"{"email":"say \"hi\""}"#, #"{"k\\":"v"}"#,
        ]
        for text in others {
            let body = Array(text.utf8)
            #expect(CanonicalBodyRedaction.redact(body, with: redactor) == nil, "\(text)")
            #expect(redactor.redact(body: body) == redactor.redactParsing(body: body), "\(text)")
        }
    }

    @Test("numbers with a fraction or an exponent take the one pass and give the parser's bytes")
    func fractionsMatchTheParser() {
        let bodies = [
            #"{"n":1.5}"#, #"{"n":1e3}"#, #"{"n":1E3}"#, #"{"n":2.5e-7}"#, #"{"n":-3.25}"#, #"{"n":1.0}"#, #"{"n":1e+5}"#,
            #"{"n":123456789012.125}"#, #"{"dataFields":{"n":1.25,"s":"x","l":[0.5,-1.5e10]}}"#, #"[0.5,{"price":9.5}]"#,
            #"{"n":0.30000000000000004}"#, #"{"n":1.00}"#, #"{"n":5e-324}"#, #"{"n":-0.5}"#, #"{"n":-0.0}"#, #"{"n":01.5}"#,
        ]
        for text in bodies {
            let body = Array(text.utf8)
            let onePass = CanonicalBodyRedaction.redact(body, with: redactor)
            #expect(onePass != nil, "\(text)")
            #expect(onePass == redactor.redactParsing(body: body), "\(text)")
        }
    }

    @Test("the kinds follow the keys, and every scalar under dataFields but null becomes a data token")
    func kindsFollowKeys() {
        let body = Array(#"{"email":"a@b.c","userId":"u","token":"t","x":"s","n":3,"dataFields":{"n":3,"b":true,"z":null,"l":["v",2]}}"#.utf8)
        let redacted = String(decoding: redactor.redact(body: body), as: UTF8.self)
        let token = { (value: String, kind: String) in redactor.token(value, kind) }
        #expect(redacted == #"{"email":""# + token("a@b.c", "email") + #"","userId":""# + token("u", "user") + #"","token":""#
            + token("t", "token") + #"","x":""# + token("s", "body") + #"","n":3,"dataFields":{"n":""# + token("3", "data")
            + #"","b":""# + token("true", "data") + #"","z":null,"l":[""# + token("v", "data") + #"",""# + token("2", "data") + #""]}}"#)
    }
}
