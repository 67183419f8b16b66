import SDKCore

/// Supplies JWTs for a project whose requests must carry one. The token never enters the journal.
///
/// The SDK asks when a request needs a token and none is cached, and after a 401
/// (`InvalidJwtPayload`) within the project's `RetryRules.jwtRefreshBudget`, which every instance
/// starts at zero. A cached token belongs to the user and the project instance it was asked for: it
/// is dropped when the identity changes, at logout and at every switch, so the provider is asked
/// again and must answer for the user signed in *then*. While a project waits for its token, none
/// of its requests goes out without it.
///
/// ## Implementation requirements
///
/// - ``requestToken(completion:)`` is called on the SDK's engine thread: return at once and do the
///   work elsewhere. Never call ``EngagementSDK/shutdown()`` or read
///   ``EngagementSDK/journalFailure`` from it: they wait for the engine thread, the one calling
///   you.
/// - Call `completion` once, on any thread, with a token or an error; it may be called before
///   `requestToken` returns.
/// - Be safe to call from any thread (`Sendable`): one provider may serve several instances.
///
/// ## What the SDK guarantees
///
/// - Only the first call of `completion` counts; later ones are ignored.
/// - An answer that does not come within `EngineRules.authProviderBoundMilliseconds` (10 s by
///   default) is taken as a failure, journaled, and the request is retried or fails with
///   `CallFailure.authentication(_:)`: never a hang. A late answer is ignored.
/// - A token asked for before the identity changed is never cached for the new user.
public protocol AuthProvider: Sendable {
    /// Starts producing a token for the signed-in user and returns at once; calls `completion`
    /// once, on any thread, with the token or why there is none.
    func requestToken(completion: @escaping @Sendable (Result<String, any Error>) -> Void)
}

/// An ``AuthProvider`` made from a closure, which must meet the protocol's requirements: return at
/// once, answer once.
public struct ClosureAuthProvider: AuthProvider {
    private let body: @Sendable (@escaping @Sendable (Result<String, any Error>) -> Void) -> Void

    /// A provider whose ``requestToken(completion:)`` calls `body` with the completion.
    public init(_ body: @escaping @Sendable (@escaping @Sendable (Result<String, any Error>) -> Void) -> Void) {
        self.body = body
    }

    /// Calls the closure with `completion` (on the engine thread; see ``AuthProvider``).
    public func requestToken(completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
        body(completion)
    }
}
