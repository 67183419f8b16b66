import SDKCore

/// Supplies JWTs for a project whose requests must carry one. The token never enters the journal.
///
/// The SDK asks when a request needs a token and none is cached for its user, and after a 401
/// (`InvalidJwtPayload`) within the project's `RetryRules.jwtRefreshBudget`, which every instance
/// starts at zero. Every request is made for one user (its events, its profile change), and the
/// SDK asks for a token *for that user*: a request made for ada before the app signed bob in is
/// still sent with a token for ada, never with bob's, and one bulk request only carries events
/// of one user. A token is cached for its user and project instance: it is dropped at every
/// switch. While a project waits for a token, none of its requests goes out without one.
///
/// ## Implementation requirements
///
/// - ``requestToken(for:completion:)`` is called on the SDK's engine thread: return at once and
///   do the work elsewhere. Never call ``EngagementSDK/shutdown()`` or read
///   ``EngagementSDK/journalFailure`` from it: they wait for the engine thread, the one calling
///   you.
/// - Answer with a token for `user` (nil: a request made before any user was identified, e.g.
///   an in-app message fetch). Where that user is no longer signed in and no token can be had
///   for them, fail: the request is retried, and fails with `CallFailure.authentication(_:)`
///   when the refresh budget is spent, rather than carry another user's events.
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
/// - A token is only ever sent with requests made for the user it was asked for.
public protocol AuthProvider: Sendable {
    /// Starts producing a token for `user` and returns at once; calls `completion` once, on any
    /// thread, with the token or why there is none.
    func requestToken(for user: UserIdentity?, completion: @escaping @Sendable (Result<String, any Error>) -> Void)
}

/// An ``AuthProvider`` made from a closure, which must meet the protocol's requirements: return at
/// once, answer once.
public struct ClosureAuthProvider: AuthProvider {
    private let body: @Sendable (UserIdentity?, @escaping @Sendable (Result<String, any Error>) -> Void) -> Void

    /// A provider whose ``requestToken(for:completion:)`` calls `body` with the user the token is
    /// for and the completion.
    public init(forUser body: @escaping @Sendable (UserIdentity?, @escaping @Sendable (Result<String, any Error>) -> Void) -> Void) {
        self.body = body
    }

    /// A provider whose ``requestToken(for:completion:)`` calls `body` with the completion only:
    /// for an app whose tokens do not depend on the user (one token per device or app), or that
    /// answers for whoever is signed in. Such an app must not change users while requests made
    /// for the previous one are still queued (offline), or must fail for them.
    public init(_ body: @escaping @Sendable (@escaping @Sendable (Result<String, any Error>) -> Void) -> Void) {
        self.body = { _, completion in body(completion) }
    }

    /// Calls the closure (on the engine thread; see ``AuthProvider``).
    public func requestToken(for user: UserIdentity?, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
        body(user, completion)
    }
}
