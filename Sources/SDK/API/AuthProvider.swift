/// Supplies JWTs for a project whose requests must carry one. The token never enters the journal.
///
/// The SDK asks when a request needs a token and none is cached, and after a 401 for an expired
/// token (within the project's refresh budget, which every instance starts at zero). A cached
/// token belongs to the user and the project instance it was asked for: it is dropped when the
/// identity changes, at logout and at every switch, so the provider is asked again and must
/// answer for the user signed in *then*.
///
/// What implementers must guarantee: `requestToken` returns at once (it is called on the SDK's
/// engine thread; do the work elsewhere) and must not call the SDK's blocking getters. What the
/// SDK guarantees: only the first call of `completion` counts (later ones are ignored), and an
/// answer that does not come within ``EngineRules/authProviderBoundMilliseconds`` is taken as a
/// failure (journaled; the request is retried or fails), never a hang.
public protocol AuthProvider: Sendable {
    /// Starts producing a token for the signed-in user; calls `completion` once, on any thread.
    func requestToken(completion: @escaping @Sendable (Result<String, any Error>) -> Void)
}

/// An ``AuthProvider`` made from a closure.
public struct ClosureAuthProvider: AuthProvider {
    private let body: @Sendable (@escaping @Sendable (Result<String, any Error>) -> Void) -> Void

    public init(_ body: @escaping @Sendable (@escaping @Sendable (Result<String, any Error>) -> Void) -> Void) {
        self.body = body
    }

    public func requestToken(completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
        body(completion)
    }
}
