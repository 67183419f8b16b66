import Locking

/// A value delivered once by a completion handler and awaited by the demo.
final class OneShot<Value: Sendable>: Sendable {
    private let state = Locked<(value: Value?, waiters: [CheckedContinuation<Value, Never>])>((nil, []))

    /// Delivers the value (later deliveries are ignored).
    func fulfil(_ value: Value) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, Never>] in
            guard state.value == nil else { return [] }
            state.value = value
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }

    var value: Value {
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
}
