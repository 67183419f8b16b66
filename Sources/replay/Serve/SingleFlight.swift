import Foundation

/// Values made once per key and kept, however many threads ask at once: the first asker makes
/// the value on its own thread while the others wait for it, then every one gets the same value.
/// A failure is handed to the askers waiting for it and not kept (the next asker tries again).
final class SingleFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// One value being made, and what came of it.
    private final class Flight {
        var result: Result<Value, any Error>?
    }

    private let condition = NSCondition()
    // Guarded by `condition`: the values made, the ones being made and how many were made.
    nonisolated(unsafe) private var made: [Key: Value] = [:]
    nonisolated(unsafe) private var flying: [Key: Flight] = [:]
    nonisolated(unsafe) private var makes = 0

    /// How many times a value was made (a failed attempt included).
    var makeCount: Int {
        condition.withLock { makes }
    }

    /// The value for `key`: kept, being made by another thread (waited for), or made now by `make`.
    func value(for key: Key, make: () throws -> Value) throws -> Value {
        condition.lock()
        if let value = made[key] {
            condition.unlock()
            return value
        }
        if let flight = flying[key] {
            while flight.result == nil { condition.wait() }
            let result = flight.result
            condition.unlock()
            // Set before the wait ends.
            return try result!.get()
        }
        let flight = Flight()
        flying[key] = flight
        condition.unlock()
        let result = Result { try make() }
        condition.withLock {
            flight.result = result
            flying[key] = nil
            makes += 1
            if case .success(let value) = result { made[key] = value }
            condition.broadcast()
        }
        return try result.get()
    }
}
