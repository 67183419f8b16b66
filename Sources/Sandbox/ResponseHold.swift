import Locking

/// A hold that keeps back the responses of requests matched by a ``Fault/hold(_:)`` fault
/// until the test calls ``release()``.
///
/// Deterministic and sleep-free: ``waitUntilHeld(count:timeout:)`` is resumed by the server thread
/// the moment a request reaches the hold. Once released, a hold stays open: requests that reach it
/// afterwards pass straight through. Shutting the server down also frees held requests (without a
/// response). A hold may be shared by several faults and servers.
public final class ResponseHold: Sendable {
    private struct State {
        var isReleased = false
        var arrivals = 0
        var holders: [ObjectIdentifier: WakeSignal] = [:]
    }

    private let state = Locked(State())
    private let arrivalWaiters = CountWaitList()

    /// Creates a closed hold.
    public init() {}

    /// Whether ``release()`` has been called.
    public var isReleased: Bool {
        state.withLock { $0.isReleased }
    }

    /// How many requests have reached this hold so far, including any that passed through after release.
    public var heldCount: Int {
        state.withLock { $0.arrivals }
    }

    /// Opens the hold: every held request proceeds, and later ones are not held.
    public func release() {
        let holders = state.withLock { state in
            state.isReleased = true
            defer { state.holders = [:] }
            return Array(state.holders.values)
        }
        holders.forEach { $0.fire() }
    }

    /// Suspends until at least `count` requests have reached the hold (see ``heldCount``).
    /// - Returns: true once reached; false if `timeout` (a safety net) elapses first.
    @discardableResult
    public func waitUntilHeld(count: Int, timeout: Duration = .seconds(30)) async -> Bool {
        await arrivalWaiters.wait(untilAtLeast: count, timeout: timeout)
    }

    /// Registers a request that reached the hold; `signal` fires when the hold is (or already was) released.
    func hold(_ signal: WakeSignal) {
        let isReleased = state.withLock { state in
            state.arrivals += 1
            if !state.isReleased {
                state.holders[ObjectIdentifier(signal)] = signal
            }
            // Counted only after the holder is registered, so a release that follows a
            // completed `waitUntilHeld` always reaches it.
            arrivalWaiters.update(count: state.arrivals)
            return state.isReleased
        }
        if isReleased {
            signal.fire()
        }
    }

    /// Forgets a holder that stopped waiting (released or abandoned on shutdown).
    func stopHolding(_ signal: WakeSignal) {
        _ = state.withLock { $0.holders.removeValue(forKey: ObjectIdentifier(signal)) }
    }
}

extension ResponseHold: Hashable {
    /// Holds are compared by identity.
    public static func == (lhs: ResponseHold, rhs: ResponseHold) -> Bool {
        lhs === rhs
    }

    /// Hashes the hold's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

extension ResponseHold: CustomStringConvertible {
    /// Whether the hold is closed or released, and how many requests reached it.
    public var description: String {
        let (isReleased, arrivals) = state.withLock { ($0.isReleased, $0.arrivals) }
        return "ResponseHold(\(isReleased ? "released" : "closed"), reached by \(arrivals))"
    }
}
