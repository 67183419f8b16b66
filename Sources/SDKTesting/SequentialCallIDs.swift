import Foundation
import Locking
import SDK

/// Call ids 00000000-0000-4000-8000-000000000001, …02, …: the demo's journal names its calls
/// the same way on every run.
public final class SequentialCallIDs: Sendable {
    private let counter = Locked<UInt64>(0)

    /// Ids starting at …01 (pass ``next()`` as `SDKConfiguration.makeCallID`).
    public init() {}

    /// The next id; safe from any thread.
    public func next() -> UUID {
        let value = counter.withLock { value -> UInt64 in
            value += 1
            return value
        }
        return CallIDGenerator.sequentialUUID(value)
    }
}
