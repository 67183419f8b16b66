import Locking

/// A first-in first-out hand-over of values from one producing thread to one consuming thread,
/// holding at most ``capacity`` values: the producer waits while it is full, the consumer while
/// it is empty. Either side may stop early: ``close()`` (consumer) makes every later ``send(_:)``
/// return false, ``finish()`` (producer) makes ``receive()`` return nil once drained.
final class BoundedChannel<Element: Sendable>: Sendable {
    let capacity: Int
    private let state = Locked(State())

    private struct State {
        var items: [Element?] = []
        var head = 0
        var closed = false
        var finished = false

        var count: Int { items.count - head }
    }

    init(capacity: Int) {
        precondition(capacity > 0, "a channel holds at least one value")
        self.capacity = capacity
    }

    /// Producer: hands `element` over, waiting while the channel is full. Returns false (and
    /// drops `element`) when the consumer has closed the channel.
    func send(_ element: Element) -> Bool {
        let capacity = capacity
        let sent = state.withLock(waitingUntil: { $0.closed || $0.count < capacity }) { state in
            guard !state.closed else { return false }
            if state.head > 0 && state.head == state.items.count {
                state.items.removeAll(keepingCapacity: true)
                state.head = 0
            }
            state.items.append(element)
            return true
        }
        if sent { state.notifyWaiters() }
        return sent
    }

    /// Whether no value waits to be received (the consumer has caught up with the producer).
    var isEmpty: Bool {
        state.withLock { $0.count == 0 }
    }

    /// Producer: there will be no more values.
    func finish() {
        state.withLock { $0.finished = true }
        state.notifyWaiters()
    }

    /// Consumer: the next value, waiting while the channel is empty; nil once the producer has
    /// finished and every value was received.
    func receive() -> Element? {
        let element = state.withLock(waitingUntil: { $0.count > 0 || $0.finished }) { state -> Element?? in
            guard state.head < state.items.count else { return .none }
            let element = state.items[state.head].take()
            state.head += 1
            return .some(element)
        }
        guard let element else { return nil }
        state.notifyWaiters()
        return element
    }

    /// Consumer: takes no more values; a producer waiting for room, or sending later, is told so.
    /// Returns once the producer has finished, so nothing it holds outlives the consumer's use.
    func close() {
        state.withLock { state in
            state.closed = true
            state.items.removeAll()
            state.head = 0
        }
        state.notifyWaiters()
        state.withLock(waitingUntil: { $0.finished }) { _ in }
    }
}
