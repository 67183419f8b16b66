import CLZ4
import Testing
@testable import Journal

@Suite("XXH32", .timeLimit(.minutes(3)))
struct XXHash32Tests {
    @Test("matches published reference values", arguments: [
        ("", UInt32(0x02CC_5D05), UInt32(0x36B7_8AE7)),
        ("a", 0x550D_7456, 0x9E16_33E4),
        ("abc", 0x32D1_53FF, 0xA1AE_7709),
        ("0123456789abcdef", 0xC2C4_5B69, 0x72E8_FAF9),
    ])
    func referenceValues(input: String, seedZero: UInt32, seedPrime: UInt32) {
        #expect(XXHash32.hash(Array(input.utf8)) == seedZero)
        #expect(XXHash32.hash(Array(input.utf8), seed: 0x9E37_79B1) == seedPrime)
    }

    @Test("all byte lengths around the 16-byte stripe agree with a 100-byte reference")
    func longInput() {
        #expect(XXHash32.hash((0..<100).map { UInt8($0) }) == 0x7F89_BA44)
    }

    @Test("agrees with the block checksums liblz4 writes")
    func agreesWithLiblz4() throws {
        var preferences = LZ4F_preferences_t()
        preferences.frameInfo.blockChecksumFlag = LZ4F_blockChecksumEnabled
        preferences.frameInfo.blockSizeID = LZ4F_max64KB
        for length in [1, 15, 16, 17, 100, 5000] {
            let input = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 7) }
            var frame = [UInt8](repeating: 0, count: LZ4F_compressFrameBound(length, &preferences))
            let written = frame.withUnsafeMutableBytes { out in
                input.withUnsafeBytes { LZ4F_compressFrame(out.baseAddress, out.count, $0.baseAddress, length, &preferences) }
            }
            #expect(LZ4F_isError(written) == 0)
            // Frame: magic(4) FLG BD HC, then one block: size(4) data checksum(4), then end mark.
            let blockSize = Int(UInt32(frame[7]) | UInt32(frame[8]) << 8 | UInt32(frame[9]) << 16 | UInt32(frame[10] & 0x7F) << 24)
            let data = Array(frame[11..<(11 + blockSize)])
            let stored = (0..<4).reduce(UInt32(0)) { $0 | UInt32(frame[11 + blockSize + $1]) << UInt32(8 * $1) }
            #expect(XXHash32.hash(data) == stored, "length \(length)")
            // The header checksum byte is the second byte of XXH32 over FLG and BD.
            #expect(UInt8(truncatingIfNeeded: XXHash32.hash(Array(frame[4..<6])) >> 8) == frame[6])
        }
    }
}
