import Foundation
import Testing
import SDK
import SDKCore

extension SecurityTests {
    @Suite("ProjectFingerprint: the first 8 bytes of SHA-256 of the API key", .timeLimit(.minutes(3)))
    struct ProjectFingerprintTests {
        @Test("known keys give the values computed with `printf 'key' | sha256sum`")
        func knownValues() {
            // printf 'key' | sha256sum            -> 2c70e12b7a0646f9 2279f427c7b38e73...
            // printf 'sk_live_abc123' | sha256sum -> e9982364fd73c3ea 5cfbc3c0...
            #expect(ProjectFingerprint(apiKey: "key").hex == "2c70e12b7a0646f9")
            #expect(ProjectFingerprint(apiKey: "sk_live_abc123").hex == "e9982364fd73c3ea")
            #expect(ProjectFingerprint(apiKey: "key").bytes == [0x2c, 0x70, 0xe1, 0x2b, 0x7a, 0x06, 0x46, 0xf9])
            #expect(ProjectFingerprint(apiKey: "key").description == "2c70e12b7a0646f9")
        }

        @Test("the hex written into bytes, eight digits at a time, is the hex string, for every nibble in every place")
        func writtenHexIsTheHex() throws {
            var samples: [[UInt8]] = [Array(repeating: 0, count: 8), Array(repeating: 0xff, count: 8), [0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef]]
            for nibble in UInt8(0)..<16 {
                for place in 0..<8 { samples.append((0..<8).map { $0 == place ? nibble << 4 | nibble : 0x5a }) }
            }
            var generator = SystemRandomNumberGenerator()
            samples += (0..<500).map { _ in (0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) } }
            for bytes in samples {
                let fingerprint = try #require(ProjectFingerprint(bytes: bytes))
                let written = ScratchBytes.withScratch { output -> String in
                    fingerprint.writeHex(to: &output)
                    return String(decoding: output.written, as: UTF8.self)
                }
                #expect(written == fingerprint.hex)
                #expect(written == bytes.map { String(format: "%02x", $0) }.joined())
            }
        }

        @Test("hex and bytes round trip")
        func roundTrips() throws {
            let fingerprint = ProjectFingerprint(apiKey: "sk_live_abc123")
            #expect(ProjectFingerprint(hex: fingerprint.hex) == fingerprint)
            #expect(ProjectFingerprint(bytes: fingerprint.bytes) == fingerprint)
            let fromBytes = try #require(ProjectFingerprint(bytes: SecurityTestSupport.bytes(fromHex: "00ff10a0b1c2d3e4")))
            #expect(fromBytes.hex == "00ff10a0b1c2d3e4")
        }

        @Test("malformed hex and wrong byte counts are rejected", arguments: [
            "", "2c70e12b7a0646f", "2c70e12b7a0646f9a", "2c70e12b7a0646f90", "2C70E12B7A0646F9", "2c70e12b7a0646fg", "2c70e12b 7a0646f",
        ])
        func malformedHex(_ text: String) {
            #expect(ProjectFingerprint(hex: text) == nil)
        }

        @Test("only exactly 8 bytes make a fingerprint", arguments: [0, 1, 7, 9, 32])
        func wrongByteCounts(_ count: Int) {
            #expect(ProjectFingerprint(bytes: [UInt8](repeating: 1, count: count)) == nil)
        }

        @Test("different keys give different fingerprints; equal keys equal ones")
        func distinctKeys() {
            let keys = ["key", "key ", "Key", "sk_live_abc123", "sk_live_abc124", ""]
            let fingerprints = keys.map { ProjectFingerprint(apiKey: $0) }
            #expect(Set(fingerprints).count == keys.count)
            #expect(ProjectFingerprint(apiKey: "key") == ProjectFingerprint(apiKey: "key"))
        }

        @Test("ordering is byte-wise, the same as ordering the hex forms")
        func ordering() throws {
            let texts = ["ff00000000000000", "0000000000000001", "00000000000000ff", "0100000000000000", "7fffffffffffffff", "8000000000000000"]
            let fingerprints = try texts.map { try #require(ProjectFingerprint(hex: $0)) }
            #expect(fingerprints.sorted().map(\.hex) == texts.sorted())
        }

        @Test("Codable uses the hex string and rejects anything else")
        func codable() throws {
            let fingerprint = ProjectFingerprint(apiKey: "key")
            let data = try JSONEncoder().encode([fingerprint])
            #expect(String(decoding: data, as: UTF8.self) == "[\"2c70e12b7a0646f9\"]")
            #expect(try JSONDecoder().decode([ProjectFingerprint].self, from: data) == [fingerprint])
            #expect(throws: DecodingError.self) {
                try JSONDecoder().decode([ProjectFingerprint].self, from: Data("[\"not hex\"]".utf8))
            }
        }

        @Test("a fingerprint shows nothing of its key")
        func revealsNothing() {
            let key = "sk_live_0123456789abcdef"
            let fingerprint = ProjectFingerprint(apiKey: key)
            for text in [fingerprint.hex, String(describing: fingerprint), String(reflecting: fingerprint), SecurityTestSupport.dumped(fingerprint)] {
                #expect(!text.contains(key))
                #expect(!text.contains("sk_live"))
            }
        }
    }
}
