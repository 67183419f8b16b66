import Foundation
import Journal
import SDK
import Testing
@testable import ReplayKit

/// The fast paths the whole-journal commands take (decoding in place, writing JSON, times and
/// ids as bytes, memoized tokens) give exactly what the slow ones gave.
@Suite("fast paths give the same output", .timeLimit(.minutes(1)))
struct DecodingSpeedTests {
    @Test("JSON strings: escapes by name, other control characters as \\u00xx, non-ASCII as it is")
    func jsonStrings() {
        let text = "a\"b\\c\nd\re\tf\u{01}g\u{1F}h é ✓ 🎉"
        #expect(JSONValue.string(text).serialized() == #""a\"b\\c\nd\re\tf\u0001g\u001fh é ✓ 🎉""#)
        #expect(JSONValue.object([("k", .integer(Int64.min)), ("u", .unsigned(UInt64.max)), ("z", .integer(0)),
                                  ("n", .number(1.5)), ("i", .number(.infinity)), ("a", .array([.bool(true), .null]))]).serialized()
                == #"{"k":-9223372036854775808,"u":18446744073709551615,"z":0,"n":1.5,"i":null,"a":[true,null]}"#)
    }

    @Test("times: every year prints as before, four-digit ones digit by digit")
    func times() {
        #expect(JournalTime(microsecondsSince1970: 0).description == "1970-01-01T00:00:00.000000Z")
        #expect(JournalTime(microsecondsSince1970: 1_764_598_835_948_816).description == "2025-12-01T14:20:35.948816Z")
        #expect(JournalTime(microsecondsSince1970: -1).description == "1969-12-31T23:59:59.999999Z")
        #expect(JournalTime(microsecondsSince1970: 253_402_300_799_999_999).description == "9999-12-31T23:59:59.999999Z")
        #expect(JournalTime(microsecondsSince1970: -62_135_596_800_000_001).description == "0000-12-31T23:59:59.999999Z")
        // Outside 0...9999 the year is padded as text, as it always was.
        #expect(JournalTime(microsecondsSince1970: 253_402_300_800_000_000).description == "10000-01-01T00:00:00.000000Z")
        #expect(JournalTime(microsecondsSince1970: -62_200_000_000_000_000).description == "00-2-12-17T14:13:20.000000Z")
    }

    @Test("call ids: lowercase text and the short form as Foundation spells them")
    func callIDs() throws {
        let uuid = try #require(UUID(uuidString: "ED0ACDFD-FE70-4D76-8000-00000000ABCD"))
        #expect(uuid.lowercasedText == uuid.uuidString.lowercased())
        #expect(CallID(uuid).description == "0000abcd")
    }

    @Test("a memoized tokenizer gives the hash's tokens, also past its capacity")
    func memoizedTokens() {
        let hash = KeyedHash(key: Array("a test key, not random".utf8))
        let memo = TokenMemo(hash)
        for round in 0..<2 {
            for value in ["ada@example.com", "", "é", "grace"] {
                #expect(memo.token(value, kind: "email") == hash.token(value, kind: "email"), "round \(round)")
                #expect(memo.token(value, kind: "data") == hash.token(value, kind: "data"))
            }
        }
        for index in 0..<(TokenMemo.capacity + 10) where index % 4096 == 0 || index > TokenMemo.capacity {
            _ = memo.token(String(index), kind: "data")
        }
        #expect(memo.token("ada@example.com", kind: "email") == hash.token("ada@example.com", kind: "email"))
        // Values given as bytes (a request body's) find the tokens given for strings, and the
        // other way round, and are written as the tokens' JSON strings.
        for value in ["ada@example.com", "", "é", "grace", "only as bytes", String(repeating: "long ", count: 40)] {
            for kind in ["email", "body", "data"] {
                let written = ScratchBytes.withScratch { output in
                    var bytes = Array(value.utf8)
                    bytes.withUnsafeMutableBufferPointer { memo.writeToken(utf8: UnsafeBufferPointer($0), kind: kind, to: &output) }
                    return output.array
                }
                let expected = ScratchBytes.withScratch { output in
                    JSONValue.writeString(hash.token(value, kind: kind), to: &output)
                    return output.array
                }
                #expect(written == expected, "\(kind):\(value.prefix(12))")
                #expect(memo.token(value, kind: kind) == hash.token(value, kind: kind))
            }
        }
        let fact = Fact.identityChanged(email: "ada@example.com", userID: "u1")
        #expect(Redactor(tokens: memo).redact(fact) == Redactor(hash: hash).redact(fact))
    }

    @Test("the nesting probe skips only payloads too short to nest past the limit")
    func nestingShortcut() {
        // 97 levels of `field 1, length-delimited` around one varint field: 2 bytes a level.
        func nested(_ levels: Int) -> [UInt8] {
            var bytes: [UInt8] = [0x08, 0x01]
            for _ in 0..<levels {
                var wrapped: [UInt8] = [0x0A]
                Varint.append(UInt64(bytes.count), to: &wrapped)
                bytes = wrapped + bytes
            }
            return bytes
        }
        for levels in [0, 1, 50, 94, 95, 96, 97, 120] {
            let payload = nested(levels)
            payload.withUnsafeBytes { raw in
                #expect(NestingProbe.exceeds(raw, limit: 96) == (NestingProbe.depth(of: raw, limit: 96) > 96), "levels \(levels)")
            }
        }
    }
}
