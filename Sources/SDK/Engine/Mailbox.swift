import Dispatch
import Locking

/// The engine's inbox: a FIFO of messages fed from any thread and drained by the engine thread.
/// Posting never blocks and keeps the order of posts from any one thread.
final class Mailbox<Message: Sendable>: Sendable {
    private struct State {
        var messages: [Message] = []
        var head = 0
        var waiting = false
        var closed = false

        var isEmpty: Bool { head == messages.count }
    }

    private let state = Locked(State())
    private let signal = DispatchSemaphore(value: 0)

    /// Adds a message; false when the mailbox is closed.
    @discardableResult
    func post(_ message: Message) -> Bool {
        let wake = state.withLock { state -> Bool? in
            guard !state.closed else { return nil }
            state.messages.append(message)
            defer { state.waiting = false }
            return state.waiting
        }
        guard let wake else { return false }
        if wake { signal.signal() }
        return true
    }

    /// Takes every waiting message, blocking until there is one; nil once closed and drained.
    func takeAll() -> [Message]? {
        while true {
            let batch = state.withLock { state -> [Message]?? in
                if !state.isEmpty {
                    let batch = Array(state.messages[state.head...])
                    state.messages.removeAll(keepingCapacity: true)
                    state.head = 0
                    return .some(batch)
                }
                if state.closed { return .some(nil) }
                state.waiting = true
                return nil
            }
            if let batch { return batch }
            signal.wait()
        }
    }

    /// Whether nothing waits to be taken.
    var isEmpty: Bool { state.withLock { $0.isEmpty } }

    /// Refuses further posts and wakes the taker.
    func close() {
        let wake = state.withLock { state -> Bool in
            state.closed = true
            defer { state.waiting = false }
            return state.waiting
        }
        if wake { signal.signal() }
    }
}
