import Foundation
import Synchronization

/// Makes call ids cheaply: a random 64-bit prefix drawn once per SDK instance, then a counter.
/// Unique across instances and restarts (the prefix), and far cheaper than a random UUID per
/// call on the caller's thread.
public final class CallIDGenerator: Sendable {
    private let prefix: UInt64
    private let counter = Atomic<UInt64>(0)

    public init() {
        let random = UUID().uuid
        prefix = [random.0, random.1, random.2, random.3, random.4, random.5, random.6, random.7]
            .reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// The next id.
    public func next() -> UUID {
        let count = counter.wrappingAdd(1, ordering: .relaxed).newValue
        let high = prefix
        return UUID(uuid: (
            UInt8(truncatingIfNeeded: high >> 56), UInt8(truncatingIfNeeded: high >> 48),
            UInt8(truncatingIfNeeded: high >> 40), UInt8(truncatingIfNeeded: high >> 32),
            UInt8(truncatingIfNeeded: high >> 24), UInt8(truncatingIfNeeded: high >> 16),
            0x40 | UInt8(truncatingIfNeeded: high >> 8) & 0x0F, UInt8(truncatingIfNeeded: high),
            0x80 | UInt8(truncatingIfNeeded: count >> 56) & 0x3F, UInt8(truncatingIfNeeded: count >> 48),
            UInt8(truncatingIfNeeded: count >> 40), UInt8(truncatingIfNeeded: count >> 32),
            UInt8(truncatingIfNeeded: count >> 24), UInt8(truncatingIfNeeded: count >> 16),
            UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)))
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
