import Locking
@testable import SDK

/// Lets a test wait, without sleeping, until the engine's state satisfies a condition: install
/// ``observer`` as the configuration's state observer, then `await until { ... }`.
final class StateWatcher: Sendable {
    private struct Waiter {
        let condition: @Sendable (SDKState) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    private let state = Locked<(latest: SDKState?, waiters: [Waiter])>((nil, []))

    var observer: @Sendable (SDKState, UInt64) -> Void {
        { [self] latest, _ in
            let ready = state.withLock { state -> [Waiter] in
                state.latest = latest
                let ready = state.waiters.filter { $0.condition(latest) }
                state.waiters.removeAll { $0.condition(latest) }
                return ready
            }
            for waiter in ready { waiter.continuation.resume() }
        }
    }

    /// Returns once the engine published a state satisfying `condition`.
    func until(_ condition: @escaping @Sendable (SDKState) -> Bool) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if let latest = state.latest, condition(latest) { return true }
                state.waiters.append(Waiter(condition: condition, continuation: continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }
}
