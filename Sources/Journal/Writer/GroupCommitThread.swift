import Dispatch
import Foundation
import Locking

/// The background thread that cuts commit groups when their time bound passes and makes them
/// durable, so appenders never wait for `fdatasync`.
///
/// It holds the writer's core (``WriterCore``), not the writer: the writer's deinit closes it,
/// and closing stops the thread after its current round (a round after close finds the core
/// closed); stopping never waits for it.
final class GroupCommitThread: Sendable {
    private let wakeup = DispatchSemaphore(value: 0)
    private let running = Locked(false)

    func start(core: WriterCore) {
        running.withLock { $0 = true }
        let thread = Thread { [core, self] in
            while self.running.withLock({ $0 }) {
                // nil: wait until woken; d: wait at most d.
                if let wait = core.groupCommitRound() {
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
        running.withLock { $0 = false }
        wakeup.signal()
    }
}
