import Locking

/// Counts the engine's effects still running outside it (requests on the wire, auth requests,
/// flushes, awaited hooks, completions on the callback queue), so ``EngagementSDK/settle()`` can
/// wait until nothing is in flight without sleeping.
final class ActivityTracker: Sendable {
    private let outstanding = Locked(0)

    func begin() {
        outstanding.withLock { $0 += 1 }
    }

    /// Ends one effect; true when it was the last one running.
    @discardableResult
    func end() -> Bool {
        outstanding.withLock { $0 -= 1; return $0 == 0 }
    }

    var isIdle: Bool { outstanding.withLock { $0 == 0 } }
}
