import Foundation
import Locking
import SDKCore

/// Makes call ids cheaply: a random 64-bit prefix drawn once per SDK instance, then a counter.
/// Unique across instances and restarts (the prefix), and far cheaper than a random UUID per
/// call on the caller's thread.
public final class CallIDGenerator: Sendable {
    private let prefix: UInt64
    /// One atomic add per id, on the caller's thread.
    private let counter = AtomicWord(0)

    public init() {
        let random = UUID().uuid
        prefix = [random.0, random.1, random.2, random.3, random.4, random.5, random.6, random.7]
            .reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// The next id.
    public func next() -> UUID {
        nextCallID().uuid
    }

    /// The next id, as the call id it makes.
    package func nextCallID() -> CallID {
        let count = counter.add(1)
        // The version-4 layout: version 4 in the high word's byte 6, variant 10 in the low
        // word's first byte; the two words, big-endian, are the 16 bytes.
        return CallID(high: prefix & ~0xF000 | 0x4000, low: count & ~(0xC0 << 56) | 0x80 << 56)
    }
}

extension CallIDGenerator {
    /// The id numbered `number`: 00000000-0000-4000-8000-00000000000n (the low 56 bits of the
    /// number, in a version-4 layout). For journals that must come out the same on every run:
    /// tests, fixtures, the demo. Not unique across instances: never for real calls.
    public static func sequentialUUID(_ number: UInt64) -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 { bytes[15 - index] = UInt8(truncatingIfNeeded: number >> UInt64(8 * index)) }
        bytes[6] = 0x40
        bytes[8] = 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
