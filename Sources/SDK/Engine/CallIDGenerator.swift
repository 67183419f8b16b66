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
