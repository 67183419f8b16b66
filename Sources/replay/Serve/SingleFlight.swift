import Foundation
import Locking
import ReplayKit

/// Values made once per key and kept, however many threads ask at once: one asker makes the
/// value while the others wait for it, then every one gets the same value. A failure is handed
/// to the askers waiting for it and not kept (the next asker tries again); the last failure's
/// description stays readable (``state(of:)``) until another attempt starts.
final class SingleFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// One value being made: its group is left once the result is in.
    private final class Flight: Sendable {
        let done = DispatchGroup()
        let result = Locked<Result<Value, any Error>?>(nil)

        init() { done.enter() }

        func get() throws -> Value {
            // Set before the group is left.
            try result.withLock { $0 }!.get()
        }
    }

    /// Where a key's value stands.
    enum State: Sendable {
        case made
        case making
        /// Not asked for yet, or its last attempt failed (and why).
        case notMade(failure: String?)
    }

    private struct Table {
        var made: [Key: Value] = [:]
        var flying: [Key: Flight] = [:]
        var failures: [Key: String] = [:]
        var makes = 0
    }

    /// What the caller of ``claim(_:)`` is to do.
    private enum Claim {
        case made(Value)
        case wait(Flight)
        case make(Flight)
    }

    private let table = Locked(Table())

    /// How many times a value was made (a failed attempt included).
    var makeCount: Int {
        table.withLock { $0.makes }
    }

    func state(of key: Key) -> State {
        table.withLock { table in
            if table.made[key] != nil { return .made }
            if table.flying[key] != nil { return .making }
            return .notMade(failure: table.failures[key])
        }
    }

    /// The value for `key`: kept, being made by another thread (waited for), or made now by
    /// `make` on the calling thread.
    func value(for key: Key, make: () throws -> Value) throws -> Value {
        switch claim(key) {
        case .made(let value):
            return value
        case .wait(let flight):
            flight.done.wait()
            return try flight.get()
        case .make(let flight):
            land(key, flight, Result { try make() })
            return try flight.get()
        }
    }

    /// The value for `key` if it is made within `patience`; otherwise nil, while it goes on
    /// being made on a thread of its own (started now with `make` when no one was making it).
    /// Throws the failure of an attempt that ended within `patience`.
    func value(for key: Key, waitingAtMost patience: DispatchTimeInterval,
               make: @escaping @Sendable () throws -> Value) throws -> Value? {
        let flight: Flight
        switch claim(key) {
        case .made(let value):
            return value
        case .wait(let other):
            flight = other
        case .make(let mine):
            flight = mine
            let thread = Thread { self.land(key, mine, Result { try make() }) }
            // A page's fold runs here: the main thread's stack, not a secondary thread's default.
            thread.stackSize = 8 << 20
            thread.start()
        }
        guard flight.done.wait(timeout: .now() + patience) == .success else { return nil }
        return try flight.get()
    }

    /// Waits up to `patience` for the value of `key` being made to be made (or to fail), and
    /// returns where it then stands; at once when it is not being made.
    func state(of key: Key, waitingAtMost patience: DispatchTimeInterval) -> State {
        if let flight = table.withLock({ $0.flying[key] }) { _ = flight.done.wait(timeout: .now() + patience) }
        return state(of: key)
    }

    private func claim(_ key: Key) -> Claim {
        table.withLock { table in
            if let value = table.made[key] { return .made(value) }
            if let flight = table.flying[key] { return .wait(flight) }
            let flight = Flight()
            table.flying[key] = flight
            table.failures[key] = nil
            return .make(flight)
        }
    }

    private func land(_ key: Key, _ flight: Flight, _ result: Result<Value, any Error>) {
        flight.result.withLock { $0 = result }
        table.withLock { table in
            table.flying[key] = nil
            table.makes += 1
            switch result {
            case .success(let value): table.made[key] = value
            case .failure(let error): table.failures[key] = FleetExport.describe(error)
            }
        }
        flight.done.leave()
    }
}
