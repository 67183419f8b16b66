import Foundation
import Synchronization

/// Call ids 00000000-0000-4000-8000-000000000001, …02, …: the demo's journal names its calls
/// the same way on every run.
final class SequentialCallIDs: Sendable {
    private let counter = Mutex<UInt64>(0)

    func next() -> UUID {
        let value = counter.withLock { value -> UInt64 in
            value += 1
            return value
        }
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 { bytes[15 - index] = UInt8(truncatingIfNeeded: value >> UInt64(8 * index)) }
        bytes[6] = 0x40
        bytes[8] = 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
