import Foundation

/// A project's configuration: where its data lives, how it authenticates, how delivery retries.
public struct ProjectConfig: Sendable {
    public var region: DataRegion
    /// Supplies JWTs when the project requires them; nil when it does not.
    public var authProvider: (any AuthProvider)?
    public var retryPolicy: RetryRules
    /// Sends this project's requests to this base URL instead of its region's.
    public var endpointOverride: URL?

    public init(region: DataRegion = .us, authProvider: (any AuthProvider)? = nil, retryPolicy: RetryRules = RetryRules(),
                endpointOverride: URL? = nil) {
        self.region = region
        self.authProvider = authProvider
        self.retryPolicy = retryPolicy
        self.endpointOverride = endpointOverride
    }
}
