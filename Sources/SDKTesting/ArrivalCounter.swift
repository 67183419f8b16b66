import Locking

/// Counts arrivals (a request reaching a hold, a sync held, a hook starting) and lets async code wait until
/// a count is reached, without polling or sleeping.
public final class ArrivalCounter: Sendable {
    private struct State {
        var count = 0
        var waiters: [(target: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())

    /// A counter at zero.
    public init() {}

    /// Records one arrival and wakes those waiting for the new count.
    public func arrive() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count += 1
            let count = state.count
            let ready = state.waiters.filter { $0.target <= count }.map(\.continuation)
            state.waiters.removeAll { $0.target <= count }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// Arrivals so far.
    public var count: Int { state.withLock { $0.count } }

    /// Returns once at least `target` arrivals were recorded.
    public func wait(untilAtLeast target: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let reached = state.withLock { state -> Bool in
                if state.count >= target { return true }
                state.waiters.append((target, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }
}
