import Foundation
import SDKCore

/// A project's configuration: where its data lives, how it authenticates, how delivery retries.
public struct ProjectConfig: Sendable {
    /// Where the project's data lives: its requests go to this region's endpoint.
    public var region: DataRegion
    /// Supplies JWTs when the project requires them; nil when it does not.
    public var authProvider: (any AuthProvider)?
    /// How the project's requests are retried: attempts, backoff, JWT refreshes.
    public var retryPolicy: RetryRules
    /// Sends this project's requests to this base URL instead of its region's.
    public var endpointOverride: URL?

    /// A configuration: the US region, no JWTs and the default retry rules unless told otherwise.
    public init(region: DataRegion = .us, authProvider: (any AuthProvider)? = nil, retryPolicy: RetryRules = RetryRules(),
                endpointOverride: URL? = nil) {
        self.region = region
        self.authProvider = authProvider
        self.retryPolicy = retryPolicy
        self.endpointOverride = endpointOverride
    }
}
