import Testing
@testable import SDKCore

/// The parser behind body redaction: strings without escapes are taken whole (ASCII without
/// validation, anything else validated), short integers read without making text; every other
/// input takes the general path. Each case holds the value the rules give.
@Suite("JSON parser", .timeLimit(.minutes(1)))
struct JSONParserTests {
    static func parse(_ text: String) -> JSONValue? {
        JSONParser.parse(Array(text.utf8))
    }

    @Test("strings: plain, escaped, non-ASCII, surrogate pairs")
    func strings() {
        let cases: [(String, String)] = [
            (#""""#, ""), (#""plain ascii""#, "plain ascii"), (#""é ü 🙂""#, "é ü 🙂"),
            (#""a\"b\\c\/d\n\r\t\b\f""#, "a\"b\\c/d\n\r\t\u{08}\u{0C}"),
            (#""\u0041\u00e9\u20AC""#, "Aé€"), (#""\ud83d\ude42 and \uD83D\uDE42""#, "🙂 and 🙂"),
            (#""before é \n after 🙂""#, "before é \n after 🙂"),
        ]
        for (json, expected) in cases { #expect(Self.parse(json) == .string(expected), "\(json)") }
    }

    @Test("strings that are not JSON are refused: bad escapes, lone surrogates, control characters, invalid UTF-8")
    func badStrings() {
        for json in [#""\x""#, #""\u12""#, #""\ud83d""#, #""\ud83d\u0041""#, "\"tab\there\"", #""open"#] {
            #expect(Self.parse(json) == nil, "\(json)")
        }
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0x61, 0x5C, 0x6E, 0xE2, 0x82, 0x22]] {
            #expect(JSONParser.parse(bytes) == nil, "\(bytes)")
        }
    }

    @Test("numbers keep their integer-ness, whatever their length")
    func numbers() {
        let cases: [(String, JSONValue)] = [
            ("0", .integer(0)), ("-0", .integer(0)), ("007", .integer(7)), ("123456789012345678", .integer(123_456_789_012_345_678)),
            ("-123456789012345678", .integer(-123_456_789_012_345_678)), ("9223372036854775807", .integer(.max)),
            ("-9223372036854775808", .integer(.min)), ("9223372036854775808", .number(9_223_372_036_854_775_808)),
            ("1.5", .number(1.5)), ("-2e3", .number(-2000)), ("+5", .integer(5)),
        ]
        for (json, expected) in cases { #expect(Self.parse(json) == expected, "\(json)") }
        for json in ["-", "--5", "1-", "e", "1e999"] { #expect(Self.parse(json) == nil, "\(json)") }
    }

    @Test("a body's objects keep their key order; whitespace around tokens is skipped")
    func objects() {
        let parsed = Self.parse(#" { "b" : [1, "x", true, null] , "a" : {"n": -3} } "#)
        #expect(parsed == .object([("b", .array([.integer(1), .string("x"), .bool(true), .null])),
                                   ("a", .object([("n", .integer(-3))]))]))
    }
}
