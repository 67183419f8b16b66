import Foundation
import Locking
import SDK

/// A transport that really sends each request (to the sandbox, over loopback HTTP) but hands
/// the answer back to the SDK only when the demo says so, oldest first.
///
/// The SDK processes inputs in the order they reach its mailbox; answers arriving on network
/// threads would interleave with the demo's own calls differently on every run. Delivering
/// them from the demo's thread, in the order the requests were sent, makes the journal the
/// same every time, while every request still travels to the sandbox and back.
public final class LockstepTransport: Transport {
    /// One request sent and its answer, once it came.
    public final class Exchange: Sendable {
        public let path: String
        private let state = Locked<(result: TransportResult?, waiters: [CheckedContinuation<TransportResult, Never>])>((nil, []))
        private let completion: @Sendable (TransportResult) -> Void

        public init(path: String, completion: @escaping @Sendable (TransportResult) -> Void) {
            self.path = path
            self.completion = completion
        }

        public func answered(_ result: TransportResult) {
            let waiters = state.withLock { state -> [CheckedContinuation<TransportResult, Never>] in
                state.result = result
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(returning: result) }
        }

        /// Waits for the sandbox's answer, then hands it to the SDK (from the caller's thread).
        public func deliver() async {
            let result = await withCheckedContinuation { (continuation: CheckedContinuation<TransportResult, Never>) in
                let ready = state.withLock { state -> TransportResult? in
                    if let result = state.result { return result }
                    state.waiters.append(continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
            completion(result)
        }
    }

    /// The host the demo's projects name: requests to it go to the sandbox instead, so the
    /// journal never records the sandbox's ephemeral port.
    public static let demoHost = "sandbox.demo"

    private let network = URLSessionTransport()
    private let pending = Locked<[Exchange]>([])
    private let sandboxRoot: URL

    /// A transport sending requests for ``demoHost`` to `sandboxRoot` (scheme, host and port).
    public init(sandboxRoot: URL) {
        self.sandboxRoot = sandboxRoot
    }

    public func send(_ request: TransportRequest, completion: @escaping @Sendable (TransportResult) -> Void) {
        let exchange = Exchange(path: request.url.path, completion: completion)
        pending.withLock { $0.append(exchange) }
        var routed = request
        if request.url.host == Self.demoHost, var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) {
            components.scheme = sandboxRoot.scheme
            components.host = sandboxRoot.host
            components.port = sandboxRoot.port
            if let url = components.url { routed.url = url }
        }
        network.send(routed) { exchange.answered($0) }
    }

    /// Takes the oldest exchange whose path does not end with one of `held`.
    public func takeNext(holding held: Set<String>) -> Exchange? {
        pending.withLock { exchanges in
            guard let index = exchanges.firstIndex(where: { exchange in !held.contains { exchange.path.hasSuffix($0) } }) else {
                return nil
            }
            return exchanges.remove(at: index)
        }
    }

    /// How many exchanges wait to be delivered.
    public var waiting: Int { pending.withLock { $0.count } }

    public func invalidate() {
        network.invalidate()
    }
}
