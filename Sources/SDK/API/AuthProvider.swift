/// Supplies JWTs for a project whose requests must carry one. Called when a request needs a
/// token and none is cached, and after a 401 for an expired token (within the project's refresh
/// budget, which every instance starts at zero). The token never enters the journal.
public protocol AuthProvider: Sendable {
    /// Produces a token; calls `completion` exactly once, on any thread.
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
