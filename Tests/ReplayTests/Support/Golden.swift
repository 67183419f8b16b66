import Foundation
import Testing

/// Compares command output with the files in `Tests/ReplayGolden` (outside the test target, so
/// SwiftPM does not take them for resources), after normalising
/// what differs between runs (paths, journal ids, thread ids, export tokens, compressed sizes).
///
/// Set `REPLAY_UPDATE_GOLDEN=1` to rewrite the files from the current output.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("ReplayGolden").path

    static func normalise(_ text: String, journal: String? = nil) -> String {
        var text = text
        if let journal { text = text.replacingOccurrences(of: journal, with: "JOURNAL") }
        let rules: [(String, String)] = [
            // The journal's random id; the demo's call ids (00000000-0000-4000-8000-…) stay.
            ("(?!00000000-0000-4000-8000-)[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}", "JOURNAL-ID"),
            ("\"caller\":[0-9]+", "\"caller\":0"),
            // A call's wire id (`callId`), derived from the journal's random id.
            ("\"[0-9a-f]{32}\"", "\"WIRE-CALL-ID\""),
            ("(email|user|token|data|body|text):[0-9a-f]{12}", "$1:TOKEN"),
            ("(on disk +)[0-9.]+ [KMG]?i?B", "$1SIZE"),
            ("(records raw +)[0-9.]+ [KMG]?i?B", "$1SIZE"),
            ("(ratio +)[0-9.]+x", "$1RATIO"),
            ("\"(file_bytes|record_bytes)\":[0-9]+", "\"$1\":0"),
            ("\"ratio\":[0-9.e+-]+", "\"ratio\":0"),
        ]
        for (pattern, template) in rules {
            text = text.replacingOccurrences(of: pattern, with: template, options: .regularExpression)
        }
        return text
    }

    /// Expects `actual` (normalised) to equal the golden file `name`.
    static func expect(_ actual: String, matches name: String, journal: String? = nil,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        let normalised = normalise(actual, journal: journal)
        let path = directory + "/" + name
        if ProcessInfo.processInfo.environment["REPLAY_UPDATE_GOLDEN"] == "1" {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try? normalised.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
            Issue.record("no golden file \(name); run with REPLAY_UPDATE_GOLDEN=1 to create it", sourceLocation: sourceLocation)
            return
        }
        if normalised != expected {
            let actualLines = normalised.split(separator: "\n", omittingEmptySubsequences: false)
            let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let index = zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(actualLines.count, expectedLines.count)
            let got = index < actualLines.count ? String(actualLines[index]) : "(end)"
            let want = index < expectedLines.count ? String(expectedLines[index]) : "(end)"
            Issue.record("\(name) differs at line \(index + 1):\n  got:  \(got)\n  want: \(want)", sourceLocation: sourceLocation)
        }
    }
}
