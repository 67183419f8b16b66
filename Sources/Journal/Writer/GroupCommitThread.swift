import Dispatch
import Foundation
import Synchronization

/// The background thread that cuts commit groups when their time bound passes and makes them
/// durable, so appenders never wait for `fdatasync`.
///
/// It holds its writer weakly and only for the length of one round, so dropping the writer
/// ends it; stopping never waits for it (a round after close finds the writer closed).
final class GroupCommitThread: Sendable {
    private let wakeup = DispatchSemaphore(value: 0)
    private let running = Atomic<Bool>(false)

    func start(writer: JournalWriter) {
        running.store(true, ordering: .sequentiallyConsistent)
        let thread = Thread { [weak writer, self] in
            while self.running.load(ordering: .sequentiallyConsistent) {
                // nil: the writer is gone; .some(nil): wait until woken; .some(d): wait at most d.
                let round: Duration?? = {
                    guard let writer else { return nil }
                    return .some(writer.groupCommitRound())
                }()
                guard let wait = round else { return }
                if let wait {
                    if wait > .zero {
                        _ = self.wakeup.wait(timeout: .now() + .nanoseconds(Int(clamping: wait.nanoseconds)))
                    }
                } else {
                    self.wakeup.wait()
                }
                // Drain extra wake-ups that raced with the round just done: it saw their work.
                while self.wakeup.wait(timeout: .now()) == .success {}
            }
        }
        thread.name = "journal-group-commit"
        thread.start()
    }

    func wake() {
        wakeup.signal()
    }

    /// Ends the loop after its current round.
    func stop() {
        running.store(false, ordering: .sequentiallyConsistent)
        wakeup.signal()
    }
}
