import Locking

/// A value delivered by a completion handler, awaited by a test without sleeping: hand
/// ``completion`` to the call, then `await value`. Records how many times the completion ran.
public final class Eventually<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [CheckedContinuation<Value, Never>] = []
        var deliveries = 0
    }

    private let state = Locked(State())

    public init() {}

    /// The completion to hand to the SDK.
    public var completion: @Sendable (Value) -> Void {
        { [self] value in
            let waiters = state.withLock { state -> [CheckedContinuation<Value, Never>] in
                state.deliveries += 1
                state.value = value
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(returning: value) }
        }
    }

    /// The delivered value, once there is one.
    public var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Value? in
                    if let value = state.value { return value }
                    state.waiters.append(continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }

    /// The value if it arrived already.
    public var current: Value? { state.withLock { $0.value } }
    /// How many times the completion ran (exactly-once checks).
    public var deliveries: Int { state.withLock { $0.deliveries } }
}
