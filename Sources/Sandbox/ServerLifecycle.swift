import Locking

/// Whether the Sandbox's server is shutting down, and the waits shutdown has to interrupt:
/// delayed and held responses, each blocked on a ``WakeSignal`` in a worker of the server.
final class ServerLifecycle: Sendable {
    private struct State {
        var isShuttingDown = false
        var blockedWaits: [ObjectIdentifier: WakeSignal] = [:]
    }

    private let state = Locked(State())

    /// Whether ``beginShutdown()`` has been called.
    var isShuttingDown: Bool {
        state.withLock { $0.isShuttingDown }
    }

    /// Blocks the calling server thread until `signal` fires or `timeout` (if any) elapses.
    /// Shutdown fires the signal early.
    /// - Returns: false when the server is shutting down and the caller should abandon its request.
    func block(on signal: WakeSignal, timeout: Duration? = nil) -> Bool {
        let key = ObjectIdentifier(signal)
        let isRegistered = state.withLock { state in
            guard !state.isShuttingDown else { return false }
            state.blockedWaits[key] = signal
            return true
        }
        guard isRegistered else { return false }
        signal.wait(timeout: timeout)
        return state.withLock { state in
            state.blockedWaits[key] = nil
            return !state.isShuttingDown
        }
    }

    /// Stops admitting work and wakes every blocked wait. Idempotent. Does not wait.
    func beginShutdown() {
        let blockedWaits = state.withLock { state in
            state.isShuttingDown = true
            return Array(state.blockedWaits.values)
        }
        blockedWaits.forEach { $0.fire() }
    }
}
