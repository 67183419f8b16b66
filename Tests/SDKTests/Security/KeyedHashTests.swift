import Testing
import SDK

extension SecurityTests {
    @Suite("KeyedHash: the system's HMAC-SHA256 and redaction tokens", .timeLimit(.minutes(3)))
    struct KeyedHashTests {
        @Test("RFC 4231 test case 1: 20-byte key of 0x0b, \"Hi There\"")
        func rfc4231Case1() {
            let hash = KeyedHash(key: [UInt8](repeating: 0x0b, count: 20))
            #expect(SecurityTestSupport.hex(hash.digest(Array("Hi There".utf8)))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        }

        @Test("RFC 4231 test case 2: key \"Jefe\", \"what do ya want for nothing?\"")
        func rfc4231Case2() {
            let hash = KeyedHash(key: Array("Jefe".utf8))
            #expect(SecurityTestSupport.hex(hash.digest(Array("what do ya want for nothing?".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        }

        @Test("RFC 4231 test case 6: a 131-byte key, longer than the block size")
        func rfc4231Case6() {
            let hash = KeyedHash(key: [UInt8](repeating: 0xaa, count: 131))
            #expect(SecurityTestSupport.hex(hash.digest(Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        }

        @Test("an empty key and an empty message give RFC 2104's value")
        func emptyKeyAndMessage() {
            // Computed independently with Python's hmac module.
            #expect(SecurityTestSupport.hex(KeyedHash(key: []).digest([UInt8]()))
                == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
        }

        @Test("a token is the kind, a colon and 12 hex characters of HMAC(kind, 0x00, value)")
        func tokenFormat() {
            let hash = KeyedHash(key: Array("Jefe".utf8))
            // Computed independently: HMAC-SHA256("Jefe", "email\0ada@example.com"), first 6 bytes.
            #expect(hash.token("ada@example.com", kind: "email") == "email:a2f7081ac91a")
        }

        @Test("a token hasher gives the hash's tokens, one token after another on its one context")
        func tokenHasherMatchesHash() {
            let vector = KeyedHash(key: Array("Jefe".utf8)).makeTokenHasher()
            #expect(vector.token("ada@example.com", kind: "email") == "email:a2f7081ac91a")
            let values = ["", "a", "ada@example.com", "ünïcödé ✓", String(repeating: "long value ", count: 200)]
                + (0..<200).map { "value \($0)" }
            for key in [[], Array("Jefe".utf8), [UInt8](repeating: 0x0b, count: 64), [UInt8](repeating: 0x0c, count: 65), [UInt8](repeating: 0xaa, count: 131)] {
                let hash = KeyedHash(key: key)
                let hasher = hash.makeTokenHasher()
                for kind in ["data", "email", ""] {
                    for value in values {
                        #expect(hasher.token(value, kind: kind) == hash.token(value, kind: kind), "key of \(key.count) bytes, \(kind):\(value.prefix(20))")
                    }
                }
            }
        }

        @Test("equal inputs give equal tokens under one key")
        func tokensAreStable() throws {
            let hash = try KeyedHash.random()
            #expect(hash.token("ada@example.com", kind: "email") == hash.token("ada@example.com", kind: "email"))
            let sameKey = KeyedHash(key: Array("a shared export key".utf8))
            let again = KeyedHash(key: Array("a shared export key".utf8))
            #expect(sameKey.token("+15550100", kind: "phone") == again.token("+15550100", kind: "phone"))
        }

        @Test("different keys, values or kinds give different tokens")
        func tokensDiffer() throws {
            let first = try KeyedHash.random()
            let second = try KeyedHash.random()
            #expect(first.token("ada@example.com", kind: "email") != second.token("ada@example.com", kind: "email"))
            #expect(first.token("ada@example.com", kind: "email") != first.token("bob@example.com", kind: "email"))
            let asEmail = first.token("ada", kind: "email")
            let asName = first.token("ada", kind: "name")
            #expect(asEmail.dropFirst("email:".count) != asName.dropFirst("name:".count))
        }

        @Test("the zero byte separates kind from value, so shifting text between them changes the token")
        func kindAndValueAreSeparated() {
            let hash = KeyedHash(key: Array("Jefe".utf8))
            let split = hash.token("bc", kind: "a").dropFirst(2)
            let shifted = hash.token("c", kind: "ab").dropFirst(3)
            #expect(split != shifted)
        }

        @Test("a token never contains its value, and the key never appears in descriptions")
        func nothingLeaks() {
            let key = Array("super-secret-redaction-key".utf8)
            let hash = KeyedHash(key: key)
            let token = hash.token("ada@example.com", kind: "email")
            #expect(!token.contains("ada"))
            #expect(token.count == "email:".count + 12)
            for text in [String(describing: hash), String(reflecting: hash), SecurityTestSupport.dumped(hash)] {
                #expect(!text.contains("super-secret"))
                #expect(!text.contains(SecurityTestSupport.hex(key)))
            }
        }

        @Test("random keys differ from one another")
        func randomKeysDiffer() throws {
            let tokens = try (0..<8).map { _ in try KeyedHash.random().token("x", kind: "k") }
            #expect(Set(tokens).count == tokens.count)
        }
    }
}
