import Locking

/// Hands each new ``SwitchStatus`` to every stream an app follows. The engine publishes after
/// each take of inputs from the mailbox; a subscriber first hears the status it subscribed with, then each
/// status published that differs from the last one it heard.
final class StatusBroadcaster: Sendable {
    private struct Subscriber {
        let continuation: AsyncStream<SwitchStatus>.Continuation
        /// The status this subscriber heard last: it never hears the same one twice in a row.
        var heard: SwitchStatus
    }

    private struct Subscribers {
        var latest: SwitchStatus
        var next = 0
        var streams: [Int: Subscriber] = [:]
        var finished = false
    }

    private let subscribers: Locked<Subscribers>

    init(initial: SwitchStatus) {
        subscribers = Locked(Subscribers(latest: initial))
    }

    /// A stream of statuses, starting with `first`; it ends when the SDK shuts down. Called on
    /// the engine thread, the one that publishes, with the engine's status now, so that no
    /// status published later is heard before it (or after shutdown, with the last one).
    func stream(startingWith first: SwitchStatus) -> AsyncStream<SwitchStatus> {
        let (stream, continuation) = AsyncStream<SwitchStatus>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let id = subscribers.withLock { subscribers -> Int? in
            continuation.yield(first)
            guard !subscribers.finished else { return nil }
            let id = subscribers.next
            subscribers.next += 1
            subscribers.streams[id] = Subscriber(continuation: continuation, heard: first)
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { _ = $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Publishes `status` if it changed.
    func publish(_ status: SwitchStatus) {
        subscribers.withLock { subscribers in
            guard subscribers.latest != status else { return }
            subscribers.latest = status
            var index = subscribers.streams.startIndex
            while index != subscribers.streams.endIndex {
                if subscribers.streams.values[index].heard != status {
                    subscribers.streams.values[index].heard = status
                    subscribers.streams.values[index].continuation.yield(status)
                }
                index = subscribers.streams.index(after: index)
            }
        }
    }

    /// Ends every stream (the SDK shut down).
    func finish() {
        let continuations = subscribers.withLock { subscribers -> [AsyncStream<SwitchStatus>.Continuation] in
            subscribers.finished = true
            defer { subscribers.streams = [:] }
            return subscribers.streams.values.map(\.continuation)
        }
        for continuation in continuations { continuation.finish() }
    }
}
