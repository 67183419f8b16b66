import Testing
@testable import SDKCore

extension SecurityTests {
    /// The platform crypto seam (`SHA256State`, `HMACContext`, `SystemRandom`: OpenSSL here,
    /// CommonCrypto and Security on Apple platforms) held to the published answers, so that
    /// either side must give the same bytes. On Linux these run the OpenSSL side; an Apple build
    /// runs the same tests against CommonCrypto.
    @Suite("Crypto seam: the platform's SHA-256, HMAC-SHA256 and random bytes against FIPS 180-4 and RFC 4231", .timeLimit(.minutes(1)))
    struct CryptoSeamTests {
        /// RFC 4231 section 4: every test case (case 5 compares its 128-bit truncation).
        static let rfc4231: [(name: String, key: [UInt8], data: [UInt8], mac: String)] = [
            ("case 1", [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
             "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
            ("case 2", Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
             "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
            ("case 3", [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
             "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
            ("case 4", Array(1...25), [UInt8](repeating: 0xcd, count: 50),
             "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
            ("case 5", [UInt8](repeating: 0x0c, count: 20), Array("Test With Truncation".utf8),
             "a3b6167473100ee06e0c796c2955552b"),
            ("case 6", [UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
             "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
            ("case 7", [UInt8](repeating: 0xaa, count: 131),
             Array("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.".utf8),
             "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
        ]

        /// FIPS 180-4's examples (NIST's SHA-256 example values).
        static let fips: [(message: [UInt8], digest: String)] = [
            ([], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            (Array("abc".utf8), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
             "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
            (Array("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu".utf8),
             "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
            ([UInt8](repeating: 0x61, count: 1_000_000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
        ]

        static func finished(_ state: SHA256State) -> [UInt8] {
            var state = state
            return [UInt8](unsafeUninitializedCapacity: SHA256.digestLength) { output, count in
                state.finish(into: output)
                count = SHA256.digestLength
            }
        }

        @Test("SHA256State gives FIPS 180-4's digests, whole or fed in uneven pieces")
        func sha256StateVectors() {
            for (message, digest) in Self.fips {
                var whole = SHA256State()
                message.withUnsafeBytes { whole.update($0) }
                #expect(SecurityTestSupport.hex(Self.finished(whole)) == digest, "\(message.count) bytes whole")
                var pieces = SHA256State()
                var start = 0
                var size = 1
                while start < message.count {
                    let end = min(message.count, start + size)
                    message[start..<end].withUnsafeBytes { pieces.update($0) }
                    start = end
                    size = size * 3 + 1
                }
                pieces.update(UnsafeRawBufferPointer(start: nil, count: 0))
                #expect(SecurityTestSupport.hex(Self.finished(pieces)) == digest, "\(message.count) bytes in pieces")
            }
        }

        @Test("a copied SHA256State continues on its own: the prefix is hashed once for both")
        func sha256StateCopies() {
            var prefix = SHA256State()
            Array("abcdbcdecdefdefgefghfghighijhijk".utf8).withUnsafeBytes { prefix.update($0) }
            var first = prefix
            var second = prefix
            Array("ijkljklmklmnlmnomnopnopq".utf8).withUnsafeBytes { first.update($0) }
            Array("xyz".utf8).withUnsafeBytes { second.update($0) }
            #expect(SecurityTestSupport.hex(Self.finished(first)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
            #expect(Self.finished(second) == SHA256.digest(Array("abcdbcdecdefdefgefghfghighijhijkxyz".utf8)))
            #expect(Self.finished(second) != Self.finished(first))
        }

        @Test("HMACContext (the platform's HMAC) gives RFC 4231's answers, every case, twice from one key")
        func hmacContextVectors() {
            for vector in Self.rfc4231 {
                let context = HMACContext(key: vector.key)
                for round in 1...2 {
                    let mac = Self.mac(of: vector.data, with: context.digest)
                    #expect(SecurityTestSupport.hex(mac).hasPrefix(vector.mac), "\(vector.name), digest \(round)")
                }
            }
        }

        @Test("HMACPads (RFC 2104 over SHA256State) gives RFC 4231's answers, every case")
        func hmacPadsVectors() {
            for vector in Self.rfc4231 {
                // The pads take a key of one block at most: longer keys are hashed first, as
                // RFC 2104 says and KeyedHash does.
                let key = vector.key.count > 64 ? SHA256.digest(vector.key) : vector.key
                let pads = HMACPads(key: key)
                let mac = Self.mac(of: vector.data, with: pads.digest)
                #expect(SecurityTestSupport.hex(mac).hasPrefix(vector.mac), "\(vector.name)")
            }
        }

        @Test("SystemRandom fills buffers of any size, with bytes that differ between calls")
        func systemRandomFills() {
            var first = [UInt8](repeating: 0, count: 64)
            var second = [UInt8](repeating: 0, count: 64)
            var empty: [UInt8] = []
            let filledFirst = first.withUnsafeMutableBytes(SystemRandom.fill)
            let filledSecond = second.withUnsafeMutableBytes(SystemRandom.fill)
            let filledEmpty = empty.withUnsafeMutableBytes(SystemRandom.fill)
            #expect(filledFirst && filledSecond && filledEmpty)
            #expect(first != second)
            #expect(first != [UInt8](repeating: 0, count: 64))
        }

        static func mac(of data: [UInt8],
                        with digest: (UnsafeRawBufferPointer, UnsafeMutableBufferPointer<UInt8>) -> Void) -> [UInt8] {
            [UInt8](unsafeUninitializedCapacity: SHA256.digestLength) { output, count in
                data.withUnsafeBytes { digest($0, output) }
                count = SHA256.digestLength
            }
        }
    }
}
