import Foundation
import ReplayKit
import SDK

/// A `--project FP|LABEL` argument: a fingerprint in hex or a prefix of one (at least 4
/// digits), or the label the app gave the project (`EU`; any case).
struct ProjectFilter: Sendable {
    /// The hex prefix, when the text is one.
    let prefix: String?
    /// The text as a label, lowercased.
    let label: String

    init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let lowered = trimmed.lowercased()
        guard !lowered.isEmpty, trimmed.utf8.count <= Project.maxLabelBytes else { return nil }
        prefix = (4...16).contains(lowered.count) && lowered.allSatisfy(\.isHexDigit) ? lowered : nil
        label = lowered
    }

    static let expectation = "a project fingerprint (16 hex digits, or a prefix of at least 4) or a project's label"

    /// Whether `fingerprint` is the project meant: by fingerprint, or by its label in `labels`.
    func matches(_ fingerprint: ProjectFingerprint, labels: ProjectLabels) -> Bool {
        (prefix.map { fingerprint.hex.hasPrefix($0) } ?? false) || labels.label(fingerprint)?.lowercased() == label
    }

    func matchesAny(_ fingerprints: [ProjectFingerprint], labels: ProjectLabels) -> Bool {
        fingerprints.contains { matches($0, labels: labels) }
    }
}
