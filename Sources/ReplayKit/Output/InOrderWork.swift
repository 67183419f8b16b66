import Foundation
import Locking

/// Work over many items (a folder's journals, a journal's segments) on `jobs` threads, handed
/// back in the items' order: item `i`'s result reaches the calling thread only after every item
/// before it, so what a command prints is the same bytes whatever `jobs` is. Memory is bounded:
/// a worker takes an item only while fewer than `window` results wait to be handed back (an item
/// that takes long holds the others back rather than letting their results pile up).
///
/// With `jobs` 1 (or one item) each item is worked on the calling thread, in turn, no thread
/// started. `work` runs on a worker thread (any of them) and must not touch the calling
/// thread's state; `deliver` runs on the calling thread. When `deliver` throws, no item is
/// taken any more, and the call rethrows once the workers have finished the items they held.
package enum InOrderWork {
    /// Results waiting to be handed back at most, per worker thread, unless `window` says.
    package static let windowPerJob = 4

    /// Runs `work` for `0..<count` on `jobs` threads and calls `deliver` with each index and its
    /// result in index order, on the calling thread; returns when every result was delivered.
    package static func run<Result: Sendable>(count: Int, jobs: Int, window: Int? = nil,
                                              work: @escaping @Sendable (Int) -> Result,
                                              deliver: (Int, Result) throws -> Void) rethrows {
        let workers = max(1, min(jobs, count))
        guard workers > 1 else {
            for index in 0..<count { try deliver(index, work(index)) }
            return
        }
        let state = Shared<Result>(count: count, window: max(workers, window ?? workers * windowPerJob), workers: workers)
        for _ in 0..<workers {
            let thread = Thread {
                while let index = state.take() { state.fill(index, work(index)) }
                state.workerFinished()
            }
            // A journal's fold runs on these threads: the main thread's stack, not a helper's 512 KiB.
            thread.stackSize = 8 << 20
            thread.start()
        }
        defer { state.stopAndWaitForWorkers() }
        for index in 0..<count { try deliver(index, state.wait(index)) }
    }

    /// What the workers and the calling thread share: the next item to take, the results not
    /// yet handed back, how far the hand-back has come, and the workers still running.
    private final class Shared<Result: Sendable>: Sendable {
        private struct Progress {
            var next = 0
            var delivered = 0
            var results: [Int: Result] = [:]
            var stopped = false
            var running: Int
        }

        private let progress: Locked<Progress>
        private let count: Int
        private let window: Int

        init(count: Int, window: Int, workers: Int) {
            self.count = count
            self.window = window
            progress = Locked(Progress(running: workers))
        }

        /// The next item, once fewer than `window` results are waiting; nil when all are taken
        /// or the hand-back stopped.
        func take() -> Int? {
            progress.withLock(waitingUntil: { $0.stopped || $0.next >= count || $0.next < $0.delivered + window }) { progress in
                guard !progress.stopped, progress.next < count else { return nil }
                progress.next += 1
                return progress.next - 1
            }
        }

        func fill(_ index: Int, _ result: Result) {
            progress.withLock { $0.results[index] = result }
            progress.notifyWaiters()
        }

        func workerFinished() {
            progress.withLock { $0.running -= 1 }
            progress.notifyWaiters()
        }

        /// Waits for item `index`'s result and takes it out (the next item may then be taken).
        func wait(_ index: Int) -> Result {
            let result = progress.withLock(waitingUntil: { $0.results[index] != nil }) { progress in
                progress.delivered = index + 1
                return progress.results.removeValue(forKey: index)!
            }
            progress.notifyWaiters()
            return result
        }

        /// No item is taken any more; returns once every worker has finished, the results not
        /// handed back dropped.
        func stopAndWaitForWorkers() {
            progress.withLock { $0.stopped = true }
            progress.notifyWaiters()
            progress.withLock(waitingUntil: { $0.running == 0 }) { $0.results = [:] }
        }
    }
}
