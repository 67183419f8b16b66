import Foundation
import SDKCore

/// A project: an API key and its configuration. The key is only ever sent in requests and kept in
/// the device keyring; the journal knows the project by its ``fingerprint``.
public struct Project: Sendable {
    /// The API key, sent in every request's `Api-Key` header. Never journaled, logged or exported.
    public let apiKey: String
    /// The project's region, auth and retry rules: part of its identity (the same key with another
    /// configuration is another project for ``EngagementSDK/switchProject(to:completion:)``).
    public var config: ProjectConfig
    /// A name for people ("US", "EU brand B"): journaled beside the fingerprint (it is not a
    /// secret) and shown by `replay`. Empty or whitespace-only labels are dropped.
    public var label: String?
    /// Labels longer than this many characters are cut.
    public static let maxLabelLength = 128

    /// A project with this key, label and configuration; nil for an empty or whitespace-only key.
    /// The label is trimmed and cut to ``maxLabelLength`` characters.
    public init?(apiKey: String, label: String? = nil, config: ProjectConfig = ProjectConfig()) {
        guard !apiKey.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        self.apiKey = apiKey
        self.config = config
        let trimmed = label?.trimmingCharacters(in: .whitespacesAndNewlines)
        self.label = trimmed?.isEmpty == false ? trimmed.map { String($0.prefix(Self.maxLabelLength)) } : nil
    }

    /// A truncated SHA-256 of the key: what journals and exports carry instead of the key.
    public var fingerprint: ProjectFingerprint { ProjectFingerprint(apiKey: apiKey) }

    /// The project as the journal records it, resolved against `endpoints`.
    func reference(endpoints: RegionEndpoints) -> ProjectRef {
        let base = config.endpointOverride ?? endpoints.url(for: config.region)
        return ProjectRef(fingerprint: fingerprint, region: config.region.identifier, endpoint: base.absoluteString,
                          usesJWT: config.authProvider != nil, retry: config.retryPolicy, label: label)
    }
}

extension Project: CustomStringConvertible {
    /// The label, fingerprint and region: never the key.
    public var description: String {
        "Project(\(label.map { "\($0), " } ?? "")\(fingerprint), \(config.region.identifier))"
    }
}
