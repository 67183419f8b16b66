import Testing
import SDK

extension SecurityTests {
    @Suite("SHA256: the system's SHA-256 against published vectors", .timeLimit(.minutes(3)))
    struct SHA256Tests {
        @Test("FIPS 180-2 vectors: the empty string and \"abc\"")
        func publishedVectors() {
            #expect(SecurityTestSupport.hex(SHA256.digest([UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
            #expect(SecurityTestSupport.hex(SHA256.digest(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        }

        @Test("any byte collection gives the same digest as its array")
        func nonContiguousCollections() {
            let bytes = Array("abc".utf8)
            let expected = SHA256.digest(bytes)
            #expect(SHA256.digest("abc".utf8) == expected)
            #expect(SHA256.digest(bytes[...]) == expected)
            #expect(SHA256.digest(bytes.reversed().reversed()) == expected)
        }

        @Test("a digest is 32 bytes for inputs of many lengths")
        func digestLength() {
            for length in [1, 55, 56, 63, 64, 65, 1000] {
                #expect(SHA256.digest([UInt8](repeating: 0x61, count: length)).count == SHA256.digestLength)
            }
            // NIST's one-million-"a" vector exercises many blocks.
            let million = SHA256.digest([UInt8](repeating: 0x61, count: 1_000_000))
            #expect(SecurityTestSupport.hex(million) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        }
    }
}
