import Foundation
import SDK
import Testing

@Suite("Call ids")
struct CallIDGeneratorTests {
    @Test("ids are version-4 UUIDs: the instance's prefix, then a counter", .timeLimit(.minutes(1)))
    func layout() {
        let generator = CallIDGenerator()
        let ids = (0..<1_000).map { _ in generator.next() }
        #expect(Set(ids).count == ids.count)
        for (index, id) in ids.enumerated() {
            let bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
            #expect(bytes[6] >> 4 == 4, "version 4")
            #expect(bytes[8] >> 6 == 0b10, "RFC 4122 variant")
            // The counter, from 1, in the low 62 bits of the second half.
            let counter = bytes[8...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } & (1 << 62 - 1)
            #expect(counter == UInt64(index + 1))
            // The prefix is the instance's: the same first half on every id (version aside).
            #expect(Array(bytes[0..<6]) == withUnsafeBytes(of: ids[0].uuid) { Array($0[0..<6]) })
        }
        #expect(Array(withUnsafeBytes(of: CallIDGenerator().next().uuid) { $0[0..<8] })
                != Array(withUnsafeBytes(of: generator.next().uuid) { $0[0..<8] }))
    }
}
