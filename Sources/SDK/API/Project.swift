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
    /// secret) and shown by `replay`. Whenever it is set, it is trimmed of whitespace, cut to
    /// ``maxLabelBytes`` bytes of UTF-8 (at a character boundary; a character too large for
    /// them all is left out) and dropped when nothing is left.
    public var label: String? {
        didSet { label = Self.bounded(label) }
    }
    /// The most UTF-8 bytes of a label (`CallLimits.projectLabelBytes`): bytes, not characters,
    /// since one character may be megabytes of combining marks.
    public static let maxLabelBytes = CallLimits.projectLabelBytes

    /// A project with this key, label and configuration; nil for an empty or whitespace-only key,
    /// a key longer than `CallLimits.apiKeyBytes` bytes of UTF-8, or one with a control character
    /// (it is sent as a header). The label is bounded as ``label`` says.
    public init?(apiKey: String, label: String? = nil, config: ProjectConfig = ProjectConfig()) {
        guard !apiKey.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, apiKey.utf8.count <= CallLimits.apiKeyBytes,
              !apiKey.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return nil }
        self.apiKey = apiKey
        self.config = config
        self.label = Self.bounded(label)
    }

    /// `label` trimmed, cut to ``maxLabelBytes`` at a character boundary, nil when empty.
    static func bounded(_ label: String?) -> String? {
        guard let trimmed = label?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        guard trimmed.utf8.count > maxLabelBytes else { return trimmed }
        var kept = Substring()
        var bytes = 0
        for character in trimmed {
            bytes += character.utf8.count
            if bytes > maxLabelBytes { break }
            kept.append(character)
        }
        let cut = kept.trimmingCharacters(in: .whitespacesAndNewlines)
        return cut.isEmpty ? nil : cut
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
