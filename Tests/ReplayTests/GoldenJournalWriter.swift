import Foundation
import Testing

/// Writes the golden journals of `Tests/Fixtures/journals/v1.0` and `v1.2` (see the READMEs
/// there; those of `v1.1` were written by `replay simulate`). Disabled unless
/// `GOLDEN_JOURNALS_WRITE=1`; it never overwrites: a journal whose directory exists and is not
/// empty is left alone (and reported). `GOLDEN_JOURNALS_OUT=DIR` writes under `DIR/v1.0` and
/// `DIR/v1.2` instead (to look at what today's code would write, next to the committed journals).
///
/// The committed journals are never regenerated: they are what their format looked like when it
/// shipped, and every later version must read them as they are. Each story writes the format of
/// the code that runs it: the committed ones were written at the commits their READMEs name.
@Suite("golden journal writer (GOLDEN_JOURNALS_WRITE=1 only, .timeLimit(.minutes(3)))", .tags(.endToEnd), .serialized)
struct GoldenJournalWriter {
    static let enabled = ProcessInfo.processInfo.environment["GOLDEN_JOURNALS_WRITE"] == "1"

    /// Where the journals of format directory `version` (`v1.0`, `v1.2`) go.
    static func output(_ version: String) -> String {
        ProcessInfo.processInfo.environment["GOLDEN_JOURNALS_OUT"].map { $0 + "/" + version } ?? GoldenJournals.root + "/" + version
    }

    @Test("writes the missing golden journals", .enabled(if: enabled), .timeLimit(.minutes(1)))
    func write() async throws {
        let stories: [(String, String, (String) async throws -> Void)] = [
            ("v1.0", "demo", GoldenJournalStories.demo(into:)),
            ("v1.0", "multi-segment", GoldenJournalStories.multiSegment(into:)),
            ("v1.0", "crash-mid-switch", GoldenJournalStories.crashMidSwitch(into:)),
            ("v1.2", "demo", GoldenJournalStories.demo(into:)),
            ("v1.2", "data-fields", GoldenJournalStories.dataFields(into:)),
        ]
        for (version, name, story) in stories {
            let path = Self.output(version) + "/" + name
            let existing = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            guard existing.isEmpty else {
                Issue.record("\(path) exists and is not empty: golden journals are never overwritten")
                continue
            }
            try await story(path)
        }
    }
}
