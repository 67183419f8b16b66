import Foundation
import Testing

/// Writes the golden journals of `Tests/Fixtures/journals/v1.0` (see the README there). Disabled
/// unless `GOLDEN_JOURNALS_WRITE=1`; it never overwrites: a journal whose directory exists and
/// is not empty is left alone (and reported). `GOLDEN_JOURNALS_OUT=DIR` writes under DIR instead
/// (to look at what today's code would write, next to the committed journals).
///
/// The committed journals are never regenerated: they are what format 1.0 looked like when it
/// shipped, and every later version must read them as they are.
@Suite("golden journal writer (GOLDEN_JOURNALS_WRITE=1 only, .timeLimit(.minutes(3)))", .serialized)
struct GoldenJournalWriter {
    static let enabled = ProcessInfo.processInfo.environment["GOLDEN_JOURNALS_WRITE"] == "1"

    static var output: String {
        ProcessInfo.processInfo.environment["GOLDEN_JOURNALS_OUT"] ?? GoldenJournals.directory
    }

    @Test("writes the missing golden journals", .enabled(if: enabled), .timeLimit(.minutes(1)))
    func write() async throws {
        let stories: [(String, (String) async throws -> Void)] = [
            ("demo", GoldenJournalStories.demo(into:)),
            ("multi-segment", GoldenJournalStories.multiSegment(into:)),
            ("crash-mid-switch", GoldenJournalStories.crashMidSwitch(into:)),
        ]
        for (name, story) in stories {
            let path = Self.output + "/" + name
            let existing = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            guard existing.isEmpty else {
                Issue.record("\(path) exists and is not empty: golden journals are never overwritten")
                continue
            }
            try await story(path)
        }
    }
}
