import Foundation
import Journal
import Locking

/// Folds a journal's segments side by side, each from the snapshot that begins it, and hands
/// their answers to the calling thread in segment order, so that a command can join them into
/// the answer one walk over the whole journal gives.
///
/// `fold` runs on up to `jobs` threads of its own, one segment at a time; `join` runs on the
/// calling thread, segment 0 first. Memory stays bounded by the segments in flight: a thread
/// starts a segment only while fewer than ``window(jobs:)`` segments are folded or waiting to
/// be joined. When `join` throws, no segment is started any more; the call returns once the
/// threads have finished the ones they were folding.
package enum SegmentFolds {
    /// Whether `reader`'s segments can be folded each on its own: more than one, each header
    /// readable and of this journal, base sequences increasing. Otherwise a command walks the
    /// journal in order (which reports whatever is wrong where it is met).
    package static func canSplit(_ reader: JournalReader) -> Bool {
        let segments = reader.segments
        guard segments.count > 1 else { return false }
        for index in segments.indices {
            guard (try? reader.header(ofSegment: index)) != nil else { return false }
            if index > 0 && segments[index].baseSequence <= segments[index - 1].baseSequence { return false }
        }
        return true
    }

    /// The segments folded or waiting to be joined at most.
    static func window(jobs: Int) -> Int {
        2 * jobs
    }

    private struct Progress<Part: Sendable>: Sendable {
        var next = 0
        var joined = 0
        var parts: [Int: Part] = [:]
        var stopped = false
        var running = 0
    }

    /// Folds segments `0..<count` with `fold` on `jobs` threads and hands each result to `join`
    /// in order, on the calling thread.
    package static func run<Part: Sendable>(segments count: Int, jobs: Int, fold: @escaping @Sendable (Int) -> Part,
                                            join: (Int, Part) throws -> Void) rethrows {
        let window = window(jobs: jobs)
        let workers = max(1, min(jobs, count))
        let progress = Locked(Progress<Part>())
        progress.withLock { $0.running = workers }
        for _ in 0..<workers {
            let thread = Thread {
                while true {
                    let index = progress.withLock(waitingUntil: { $0.stopped || $0.next >= count || $0.next < $0.joined + window }) { state -> Int? in
                        guard !state.stopped, state.next < count else { return nil }
                        defer { state.next += 1 }
                        return state.next
                    }
                    guard let index else { break }
                    let part = fold(index)
                    progress.withLock { $0.parts[index] = part }
                    progress.notifyWaiters()
                }
                progress.withLock { $0.running -= 1 }
                progress.notifyWaiters()
            }
            // A fold's stack is that of the main thread's commands, not a helper thread's 512 KiB.
            thread.stackSize = 8 << 20
            thread.name = "replay segment fold"
            thread.start()
        }
        defer {
            progress.withLock { $0.stopped = true }
            progress.notifyWaiters()
            progress.withLock(waitingUntil: { $0.running == 0 }) { $0.parts = [:] }
        }
        for index in 0..<count {
            let part = progress.withLock(waitingUntil: { $0.parts[index] != nil }) { state in
                state.joined = index
                return state.parts.removeValue(forKey: index)!
            }
            progress.notifyWaiters()
            try join(index, part)
        }
    }
}
