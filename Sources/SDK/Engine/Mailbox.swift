import Dispatch
import Locking

/// The engine's inbox: a FIFO of messages fed from any thread and drained by the engine thread.
/// Keeps the order of posts from any one thread.
///
/// Bounded for callers: ``postWaitingForRoom(_:)`` (public calls) waits while `capacity`
/// messages are already waiting, so a caller that outpaces the engine is slowed down instead of
/// growing memory without limit; nothing is ever dropped. ``post(_:)`` (effects feeding their
/// results back, timers, the engine itself) never waits, and neither does anything posted from
/// the engine thread, which would otherwise wait for itself.
final class Mailbox<Message: Sendable>: Sendable {
    private struct State {
        var messages: [Message] = []
        var waiting = false
        var closed = false
        /// Callers waiting in `postWaitingForRoom` for the taker to make room.
        var waitingForRoom = 0
        /// The thread that takes messages (the engine thread), once it has taken.
        var taker: UInt64?
        /// The most messages that ever waited at once.
        var highWater = 0

        var count: Int { messages.count }
        var isEmpty: Bool { messages.isEmpty }

        /// How many callers to wake, forgetting them (each retries, and waits again if still full).
        mutating func takeRoomWaiters() -> Int {
            defer { waitingForRoom = 0 }
            return waitingForRoom
        }
    }

    /// What an enqueue found: the message added (and whether the taker must be woken), or
    /// handed back, the mailbox being closed or full.
    private enum EnqueueOutcome {
        case added(wake: Bool)
        case closed(Message)
        case full(Message)
    }

    /// How many waiting messages make ``postWaitingForRoom(_:)`` wait.
    let capacity: Int
    private let state = Locked(State())
    private let signal = DispatchSemaphore(value: 0)
    private let room = DispatchSemaphore(value: 0)

    init(capacity: Int = 16_384) {
        self.capacity = max(1, capacity)
    }

    /// Adds a message at once, whatever the mailbox holds; false when the mailbox is closed.
    @discardableResult
    func post(_ message: consuming Message) -> Bool {
        enqueue(message, waitingForRoom: false) == nil
    }

    /// Adds a message, first waiting while `capacity` messages already wait (unless called on
    /// the taking thread); the message back, not added, when the mailbox is closed.
    func postWaitingForRoom(_ message: consuming Message) -> Message? {
        enqueue(message, waitingForRoom: true)
    }

    /// Nil once `message` is added; the message itself when the mailbox is closed. Consumed and
    /// moved into the queue, not copied (messages carry a call's arguments).
    private func enqueue(_ message: consuming Message, waitingForRoom: Bool) -> Message? {
        let capacity = capacity
        var pending = consume message
        while true {
            // Handed into the lock and moved into the queue there, or handed back: no optional
            // to take it out of, and none to destroy after.
            let outcome = state.withLock(handing: consume pending) { state, message -> EnqueueOutcome in
                guard !state.closed else { return .closed(message) }
                if waitingForRoom && state.count >= capacity && state.taker != CurrentThread.id {
                    state.waitingForRoom += 1
                    return .full(message)
                }
                state.messages.append(message)
                state.highWater = max(state.highWater, state.count)
                defer { state.waiting = false }
                return .added(wake: state.waiting)
            }
            switch consume outcome {
            case .added(let wake):
                if wake { signal.signal() }
                return nil
            case .closed(let message):
                return message
            case .full(let message):
                pending = message
                room.wait()
            }
        }
    }

    /// Takes every waiting message, blocking until there is one; nil once closed and drained.
    func takeAll() -> [Message]? {
        var buffer: [Message] = []
        return takeAll(into: &buffer) ? buffer : nil
    }

    /// Takes every waiting message into `buffer`, blocking until there is one; false once closed
    /// and drained. What `buffer` held is dropped, and its storage becomes the mailbox's own (the
    /// two arrays are swapped): a taker that hands back the array it was given last takes
    /// without allocating. Copying the messages out instead left the mailbox's buffer shared,
    /// so emptying it allocated a new one as large as the largest take, on every take. The
    /// buffer handed over has room for the most messages that ever waited (up to twice
    /// ``capacity``), made outside the lock: the mailbox need not grow it again, a doubling at a
    /// time, in the next burst. A buffer grown past twice ``capacity`` is let go rather than kept.
    func takeAll(into buffer: inout [Message]) -> Bool {
        if buffer.capacity > 2 * capacity { buffer = [] } else { buffer.removeAll(keepingCapacity: true) }
        let largest = 2 * capacity
        while true {
            let (taken, waiters, wanted) = state.withLock { state -> (Bool?, Int, Int) in
                if state.taker == nil { state.taker = CurrentThread.id }
                if !state.isEmpty {
                    let wanted = min(state.highWater, largest)
                    if buffer.capacity < wanted { return (nil, 0, wanted) }
                    swap(&state.messages, &buffer)
                    return (true, state.takeRoomWaiters(), 0)
                }
                if state.closed { return (false, state.takeRoomWaiters(), 0) }
                state.waiting = true
                return (nil, 0, 0)
            }
            for _ in 0..<waiters { room.signal() }
            if let taken { return taken }
            if wanted > 0 {
                buffer.reserveCapacity(wanted)
                continue
            }
            signal.wait()
        }
    }

    /// Whether nothing waits to be taken.
    var isEmpty: Bool { state.withLock { $0.isEmpty } }

    /// The most messages that ever waited at once (at most `capacity` plus what was posted
    /// without waiting).
    var highWaterMark: Int { state.withLock { $0.highWater } }

    /// Refuses further posts, wakes the taker and every caller waiting for room.
    func close() {
        let (wake, waiters) = state.withLock { state -> (Bool, Int) in
            state.closed = true
            defer { state.waiting = false }
            return (state.waiting, state.takeRoomWaiters())
        }
        if wake { signal.signal() }
        for _ in 0..<waiters { room.signal() }
    }
}
