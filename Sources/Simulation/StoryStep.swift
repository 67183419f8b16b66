import SDK

/// One step of a simulated story. Steps run at the current virtual time; only ``wait(milliseconds:)``
/// moves the clock (and lets everything due meanwhile happen).
package enum StoryStep: Sendable, Hashable {
    /// Logical caller `caller` (a thread of the app) makes a call. `engineKeepsUp` says whether
    /// the engine processes its mailbox before the story's next step (false: the next call is
    /// posted before this one is handled, as a fast caller's would be).
    case call(caller: Int, StoryCall, engineKeepsUp: Bool)
    /// Virtual time passes.
    case wait(milliseconds: Int64)
    /// A system notification reaches the SDK.
    case notification(String)
    /// The backend stops accepting the JWTs it issued for a project (they expire).
    case expireTokens(project: Int)
    /// Power loss: the journal keeps what it had synchronized (plus `tail`), requests already on
    /// the wire still reach the backend, everything else of the process is gone. The app
    /// relaunches `afterMilliseconds` later over the same storage and, when `relaunchOn` is set,
    /// initializes that project (the same one or another).
    case crash(tail: CrashTail, afterMilliseconds: Int64, relaunchOn: Int?)
    /// The app shuts the SDK down (`shutdown()`), the process ends, and the app relaunches
    /// `afterMilliseconds` later, initializing `relaunchOn` when set.
    case shutdown(afterMilliseconds: Int64, relaunchOn: Int?)
    /// The device loses its network: every request and tracked link the app sends fails at
    /// once with no response, until ``online``.
    case offline
    /// The network is back. The app does not tell the SDK by itself (``networkReachable``).
    case online
    /// The app tells the SDK the network is reachable again (`networkBecameReachable()`).
    case networkReachable
    /// Each request sent from now on is held on the wire up to `milliseconds` longer (drawn per
    /// request), as on a slow network; 0 ends it.
    case slowNetwork(milliseconds: Int64)
    /// While on, the answer to a message fetch is held until a switch's teardown hands a module
    /// its reset, and comes back while the module handles it (an answer that comes once the
    /// reset has begun comes at once): the worst moment for it. Off: the answers still held go.
    case fetchAnswersAtReset(Bool)
    /// The device's wall clock jumps by `milliseconds`, either way (the user sets the date, the
    /// network corrects it); the monotonic clock and the world's time do not move.
    case jumpWallClock(milliseconds: Int64)
    /// The app's auth server mints JWTs only for `signedIn` (nil: for anyone); for another
    /// user it refuses (``AuthProviderError/userSignedOut``) when `refuses`, else it fails in a
    /// way that may pass.
    case authServer(signedIn: [String]?, refuses: Bool)
    /// The backend accepts a JWT for `milliseconds` after it was issued (0: until the backend
    /// expires its project's tokens): hourly tokens.
    case tokenLifetime(milliseconds: Int64)
    /// While on, the answer to every request that reaches the backend is lost on its way back
    /// (the client times out): a request on the wire gets no response.
    case lossyNetwork(Bool)
}
