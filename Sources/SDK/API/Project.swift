import Foundation

/// A project: an API key and its configuration. The key is only ever sent in requests and kept
/// in the device keyring; the journal knows the project by its ``fingerprint``.
public struct Project: Sendable {
    public let apiKey: String
    public var config: ProjectConfig

    /// Fails for an empty or whitespace-only key.
    public init?(apiKey: String, config: ProjectConfig = ProjectConfig()) {
        guard !apiKey.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        self.apiKey = apiKey
        self.config = config
    }

    /// A truncated SHA-256 of the key: what journals and exports carry instead of the key.
    public var fingerprint: ProjectFingerprint { ProjectFingerprint(apiKey: apiKey) }

    /// The project as the journal records it, resolved against `endpoints`.
    func reference(endpoints: RegionEndpoints) -> ProjectRef {
        let base = config.endpointOverride ?? endpoints.url(for: config.region)
        return ProjectRef(fingerprint: fingerprint, region: config.region.identifier, endpoint: base.absoluteString,
                          usesJWT: config.authProvider != nil, retry: config.retryPolicy)
    }
}

extension Project: CustomStringConvertible {
    /// The fingerprint and region: never the key.
    public var description: String { "Project(\(fingerprint), \(config.region.identifier))" }
}
