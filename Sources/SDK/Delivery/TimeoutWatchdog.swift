import Locking

/// A one-shot timer that runs an action when a request has taken too long, unless disarmed first.
///
/// Disarming cancels the timer at once, so a finished request leaves nothing waiting for its
/// deadline. Arming after disarming does nothing: the request finished before the timer was set.
final class TimeoutWatchdog: Sendable {
    private enum State {
        case idle
        case armed(Task<Void, Never>)
        case disarmed
    }

    private let state = Locked(State.idle)

    init() {}

    /// Runs `action` once `timeout` has elapsed, unless ``disarm()`` is called first (or was
    /// already called). `timeout` must be small enough to add to the current time.
    func arm(after timeout: Duration, action: @escaping @Sendable () -> Void) {
        state.withLock { state in
            guard case .idle = state else { return }
            state = .armed(Task {
                do {
                    try await Task.sleep(for: timeout)
                } catch {
                    return  // Disarmed.
                }
                action()
            })
        }
    }

    /// Cancels the timer so its action never runs (unless it is already running). Idempotent.
    func disarm() {
        let timer: Task<Void, Never>? = state.withLock { state in
            defer { state = .disarmed }
            if case .armed(let timer) = state {
                return timer
            }
            return nil
        }
        timer?.cancel()
    }
}
