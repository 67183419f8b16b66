import Locking

/// Counts the engine's effects still running outside it (requests on the wire, auth requests,
/// flushes, awaited hooks, completions on the callback queue), so ``EngagementSDK/settle()`` can
/// wait until nothing is in flight without sleeping.
final class ActivityTracker: Sendable {
    private let outstanding = Locked(0)

    func begin() {
        outstanding.withLock { $0 += 1 }
    }

    func end() {
        outstanding.withLock { $0 -= 1 }
    }

    var isIdle: Bool { outstanding.withLock { $0 == 0 } }
}
