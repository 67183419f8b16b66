import Locking

/// Async waiters that resume once an observed count reaches their threshold.
///
/// The owner reports the current count through ``update(count:)``, calling it while holding the lock
/// that guards the counted state, so updates are applied in order. Waiters are resumed by that update
/// (no polling); the timeout in ``wait(untilAtLeast:timeout:)`` only bounds how long a waiter stays.
final class CountWaitList: Sendable {
    private struct Waiter {
        let threshold: Int
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var count = 0
        var nextWaiterID = 0
        var waiters: [Int: Waiter] = [:]
    }

    private let state = Locked(State())

    /// Records the new count and resumes every waiter whose threshold it reaches.
    func update(count: Int) {
        state.withLock { state in
            state.count = count
            for (id, waiter) in state.waiters where waiter.threshold <= count {
                state.waiters[id] = nil
                waiter.continuation.resume(returning: true)
            }
        }
    }

    /// Suspends until the count is at least `threshold`.
    /// - Returns: true once reached; false when `timeout` elapses first or the task is cancelled.
    func wait(untilAtLeast threshold: Int, timeout: Duration) async -> Bool {
        if state.withLock({ $0.count >= threshold }) {
            return true
        }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.waitWithoutTimeout(untilAtLeast: threshold) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let firstResult = await group.next() ?? false
            group.cancelAll()
            return firstResult
        }
    }

    private func waitWithoutTimeout(untilAtLeast threshold: Int) async -> Bool {
        let id = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.withLock { state in
                    if state.count >= threshold {
                        continuation.resume(returning: true)
                    } else if Task.isCancelled {
                        // The cancellation handler already ran and found nothing to resume.
                        continuation.resume(returning: false)
                    } else {
                        state.waiters[id] = Waiter(threshold: threshold, continuation: continuation)
                    }
                }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.continuation.resume(returning: false)
        }
    }
}
