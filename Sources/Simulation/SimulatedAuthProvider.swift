import SDK

/// The auth provider a JWT project of the simulated app is configured with. The simulated
/// environment answers the engine's token requests itself (from the world's seed, for the user
/// and instance the app is on); this provider is never asked directly and fails if it is.
struct SimulatedAuthProvider: AuthProvider {
    func requestToken(for user: UserIdentity?, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
        completion(.failure(SimulatedFailure(description: "the simulated auth provider is answered by the world")))
    }
}
