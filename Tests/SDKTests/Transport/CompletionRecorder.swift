import Locking
import SDK

/// Records every result a transport delivers, so tests can await completions and check that each
/// request completed exactly once.
final class CompletionRecorder: Sendable {
    private struct Waiter {
        let count: Int
        let continuation: CheckedContinuation<[TransportResult], Never>
    }

    private struct State {
        var results: [TransportResult] = []
        var waiters: [Waiter] = []
    }

    private let state = Locked(State())

    /// Every result recorded so far, in the order the completions ran.
    var results: [TransportResult] {
        state.withLock { $0.results }
    }

    /// The completion to hand to `Transport.send`.
    func record(_ result: TransportResult) {
        let (ready, results) = state.withLock { state in
            state.results.append(result)
            let results = state.results
            let ready = state.waiters.filter { $0.count <= results.count }
            state.waiters.removeAll { $0.count <= results.count }
            return (ready, results)
        }
        for waiter in ready {
            waiter.continuation.resume(returning: results)
        }
    }

    /// Suspends until at least `count` results were recorded; returns all of them.
    ///
    /// Never waits forever for a `URLSessionTransport`, whose requests complete within their timeout.
    func waitForCount(_ count: Int) async -> [TransportResult] {
        await withCheckedContinuation { continuation in
            let results: [TransportResult]? = state.withLock { state in
                if state.results.count >= count {
                    return state.results
                }
                state.waiters.append(Waiter(count: count, continuation: continuation))
                return nil
            }
            if let results {
                continuation.resume(returning: results)
            }
        }
    }
}
