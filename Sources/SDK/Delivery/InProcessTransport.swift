import Locking

/// A ``Transport`` that answers at once from a handler, without any networking; for tests and
/// benchmarks.
///
/// ``send(_:completion:)`` calls the handler and then `completion`, both synchronously on the
/// calling thread, before it returns. It is safe to send from many threads at once; the handler
/// must be too.
public final class InProcessTransport: Transport {
    private let handler: @Sendable (TransportRequest) -> TransportResult
    private let sentCount = Locked(0)

    /// A transport that answers each request with what `handler` returns for it.
    public init(handler: @escaping @Sendable (TransportRequest) -> TransportResult) {
        self.handler = handler
    }

    /// How many requests have been sent so far, counted before their handler runs.
    public var requestCount: Int {
        sentCount.withLock { $0 }
    }

    /// Counts `request`, then calls `completion` with the handler's answer before returning.
    public func send(_ request: TransportRequest, completion: @escaping @Sendable (TransportResult) -> Void) {
        sentCount.withLock { $0 += 1 }
        completion(handler(request))
    }
}
