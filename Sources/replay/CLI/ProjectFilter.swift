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
    /// The text as given (for messages).
    let text: String

    init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let lowered = trimmed.lowercased()
        guard !lowered.isEmpty, trimmed.utf8.count <= Project.maxLabelBytes else { return nil }
        prefix = (4...16).contains(lowered.count) && lowered.allSatisfy(\.isHexDigit) ? lowered : nil
        label = lowered
        self.text = trimmed
    }

    static let expectation = "a project fingerprint (16 hex digits, or a prefix of at least 4) or a project's label"

    /// Whether `fingerprint` is the project meant: by fingerprint, or by its label in `labels`.
    func matches(_ fingerprint: ProjectFingerprint, labels: ProjectLabels) -> Bool {
        (prefix.map { fingerprint.hex.hasPrefix($0) } ?? false) || labels.label(fingerprint)?.lowercased() == label
    }

    func matchesAny(_ fingerprints: [ProjectFingerprint], labels: ProjectLabels) -> Bool {
        fingerprints.contains { matches($0, labels: labels) }
    }

    /// Says on standard error that no project of `known` (the projects a journal was seen to
    /// name) is the one meant, and lists them, so that a mistyped filter is not read as an
    /// answer ("no call went there"). Says nothing when one matches. The output is unchanged.
    /// `partly` says that only part of the journal was read (a range).
    func noteIfUnmatched(_ known: some Sequence<ProjectFingerprint>, labels: ProjectLabels, command: String, path: String,
                         partly: Bool = false, console: Console) {
        let known = Set(known)
        guard !known.contains(where: { matches($0, labels: labels) }) else { return }
        let names = known.sorted { labels.name($0) < labels.name($1) }.map { labels.name($0) }
        let prefixHint = prefix == nil && (1...3).contains(label.count) && label.allSatisfy(\.isHexDigit)
            ? " (a fingerprint's prefix needs at least 4 hex digits)" : ""
        console.printError("replay \(command): \(path): no project matches --project '\(text)'\(prefixHint); "
                           + (names.isEmpty ? "the \(partly ? "part read" : "journal") names no project"
                              : "the projects \(partly ? "in the part read" : "it names"): " + names.joined(separator: ", ")))
    }
}
