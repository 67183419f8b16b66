import Locking

/// The thread-safe record of every request a server parsed, with async waiting on its size.
final class RequestLog: Sendable {
    private struct State {
        var nextArrivalIndex = 0
        var entries: [ReceivedRequest] = []
    }

    private let state = Locked(State())
    private let sizeWaiters = CountWaitList()

    /// Hands out the next arrival index; called as soon as a request has been parsed.
    func reserveArrivalIndex() -> Int {
        state.withLock { state in
            defer { state.nextArrivalIndex += 1 }
            return state.nextArrivalIndex
        }
    }

    /// Adds a finished request and wakes waiters whose count is now reached.
    func record(_ request: ReceivedRequest) {
        state.withLock { state in
            state.entries.append(request)
            sizeWaiters.update(count: state.entries.count)
        }
    }

    /// Every recorded request in arrival order.
    var entries: [ReceivedRequest] {
        state.withLock { $0.entries }.sorted { $0.arrivalIndex < $1.arrivalIndex }
    }

    /// Empties the log; arrival indices keep counting.
    func clear() {
        state.withLock { state in
            state.entries.removeAll()
            sizeWaiters.update(count: 0)
        }
    }

    /// Suspends until the log holds at least `count` requests; false if `timeout` elapses first.
    func waitForCount(_ count: Int, timeout: Duration) async -> Bool {
        await sizeWaiters.wait(untilAtLeast: count, timeout: timeout)
    }
}
