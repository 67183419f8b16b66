import SDKCore

/// What the SDK needs to send a project's data: its API key, region and endpoint.
///
/// Its `description` and `dump` output show the key's fingerprint, never the key, so logging an
/// entry does not leak it. The keyring file is the only place the SDK writes the key.
public struct KeyringEntry: Sendable, Hashable, Codable {
    /// The project's secret API key.
    public var apiKey: String
    /// A stable region id such as `"us"`, `"eu"` or `"custom"`.
    public var region: String
    /// The base URL of the project's backend, e.g. `"https://eu.api.example.com"`.
    public var endpoint: String

    public init(apiKey: String, region: String, endpoint: String) {
        self.apiKey = apiKey
        self.region = region
        self.endpoint = endpoint
    }

    /// The fingerprint of `apiKey`: the identifier this entry is stored under.
    public var fingerprint: ProjectFingerprint { ProjectFingerprint(apiKey: apiKey) }
}

extension KeyringEntry: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Fingerprint, region and endpoint; never the API key.
    public var description: String {
        "KeyringEntry(fingerprint: \(fingerprint), region: \(region), endpoint: \(endpoint))"
    }

    public var debugDescription: String { description }

    /// Fingerprint, region and endpoint, so `dump` and debuggers never show the API key.
    public var customMirror: Mirror {
        Mirror(self, children: ["fingerprint": fingerprint.hex, "region": region, "endpoint": endpoint])
    }
}
