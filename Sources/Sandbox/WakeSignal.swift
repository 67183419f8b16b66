import Dispatch
import Locking

/// A one-shot signal a server thread blocks on until another thread fires it.
///
/// Firing is idempotent and may happen before the wait starts; the waiter then returns at once.
final class WakeSignal: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let hasFired = Locked(false)

    /// Wakes the waiter (now or whenever it starts waiting). Later calls do nothing.
    func fire() {
        let isFirst = hasFired.withLock { hasFired in
            defer { hasFired = true }
            return !hasFired
        }
        if isFirst {
            semaphore.signal()
        }
    }

    /// Blocks the calling thread until ``fire()`` is called or `timeout` (if any) elapses.
    /// - Returns: true when the signal fired, false on timeout.
    @discardableResult
    func wait(timeout: Duration? = nil) -> Bool {
        guard let timeout else {
            semaphore.wait()
            return true
        }
        return semaphore.wait(timeout: .now() + timeout.dispatchInterval) == .success
    }
}

private extension Duration {
    /// The duration as a dispatch interval, clamped to the representable non-negative range.
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return .nanoseconds(0) }
        guard seconds < Int64(Int.max / 1_000_000_000) - 1 else { return .never }
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
