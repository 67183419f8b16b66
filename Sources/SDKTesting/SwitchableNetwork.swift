import Locking
import SDK

/// A transport whose network an app's test turns off and on: while off, every request fails at
/// once with a network error, as a phone in a tunnel or in flight mode sees it (the request never
/// reaches the backend); while on, requests go through `base` (URLSession's transport, against the
/// Sandbox, say).
///
/// Thread-safe: the test turns it off and on from any thread while the SDK sends.
public final class SwitchableNetwork: Transport {
    /// What a request sent while the network is off fails with (URLSession's words for
    /// `NSURLErrorNotConnectedToInternet`).
    public static let offlineError = "The Internet connection appears to be offline."

    private let base: any Transport
    private let state = Locked((online: true, refused: 0))

    /// A network that is on, sending through `base`.
    public init(base: any Transport) {
        self.base = base
    }

    /// Every request from now on fails at once, until ``goOnline()``.
    public func goOffline() {
        state.withLock { $0.online = false }
    }

    /// Requests go through again (the SDK learns it only from the next attempt, or at once when
    /// the app calls `EngagementSDK.networkBecameReachable()`).
    public func goOnline() {
        state.withLock { $0.online = true }
    }

    /// Whether requests go through.
    public var isOnline: Bool { state.withLock { $0.online } }

    /// How many requests failed because the network was off.
    public var refusedRequests: Int { state.withLock { $0.refused } }

    public func send(_ request: TransportRequest, completion: @escaping @Sendable (TransportResult) -> Void) {
        let online = state.withLock { state -> Bool in
            if !state.online { state.refused += 1 }
            return state.online
        }
        if online {
            base.send(request, completion: completion)
        } else {
            completion(.networkError(Self.offlineError))
        }
    }
}
