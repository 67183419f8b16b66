import Locking

/// Hands each new ``SwitchStatus`` to every stream an app follows. The engine publishes after
/// each batch of inputs; a subscriber first hears the status as of subscribing.
final class StatusBroadcaster: Sendable {
    private struct Subscribers {
        var latest: SwitchStatus
        var next = 0
        var continuations: [Int: AsyncStream<SwitchStatus>.Continuation] = [:]
        var finished = false
    }

    private let subscribers: Locked<Subscribers>

    init(initial: SwitchStatus) {
        subscribers = Locked(Subscribers(latest: initial))
    }

    /// A stream of statuses, starting with the current one; it ends when the SDK shuts down.
    func stream() -> AsyncStream<SwitchStatus> {
        let (stream, continuation) = AsyncStream<SwitchStatus>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let id = subscribers.withLock { subscribers -> Int? in
            continuation.yield(subscribers.latest)
            guard !subscribers.finished else { return nil }
            let id = subscribers.next
            subscribers.next += 1
            subscribers.continuations[id] = continuation
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { _ = $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Publishes `status` if it changed.
    func publish(_ status: SwitchStatus) {
        subscribers.withLock { subscribers in
            guard subscribers.latest != status else { return }
            subscribers.latest = status
            for continuation in subscribers.continuations.values { continuation.yield(status) }
        }
    }

    var latest: SwitchStatus { subscribers.withLock { $0.latest } }

    /// Ends every stream (the SDK shut down).
    func finish() {
        let continuations = subscribers.withLock { subscribers -> [AsyncStream<SwitchStatus>.Continuation] in
            subscribers.finished = true
            defer { subscribers.continuations = [:] }
            return Array(subscribers.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}
