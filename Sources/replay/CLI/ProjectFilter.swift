import SDK

/// A `--project FP` argument: a fingerprint in hex, or a prefix of one (at least 4 digits).
struct ProjectFilter: Sendable {
    let prefix: String

    init?(_ text: String) {
        let lowered = text.lowercased()
        guard (4...16).contains(lowered.count), lowered.allSatisfy(\.isHexDigit) else { return nil }
        prefix = lowered
    }

    static let expectation = "a project fingerprint (16 hex digits, or a prefix of at least 4)"

    func matches(_ fingerprint: ProjectFingerprint) -> Bool {
        fingerprint.hex.hasPrefix(prefix)
    }

    func matchesAny(_ fingerprints: [ProjectFingerprint]) -> Bool {
        fingerprints.contains(where: matches)
    }
}
