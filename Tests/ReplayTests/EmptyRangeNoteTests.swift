import Testing

/// `timeline` and `cat` asked for a range the journal does not reach say so on standard error
/// (they printed nothing, as if the journal were empty there); the exit status is unchanged. A
/// range that holds records which a filter hides says nothing.
@Suite("a range past the journal's", .timeLimit(.minutes(1)))
struct EmptyRangeNoteTests {
    @Test("past the end, before the start; a filter that hides every record is not noted", arguments: [
        (["timeline", "--from", "999999999"], "no record at or after --from sequence 999999999"),
        (["timeline", "--to", "2001-01-01T00:00:00Z"], "no record at or before --to 2001-01-01T00:00:00.000000Z"),
        (["cat", "--from", "999999999"], "no record at or after sequence 999999999"),
        (["timeline", "--from", "5", "--kind", "journalGap"], ""),
        (["cat", "--from", "5", "--limit", "0"], ""),
    ])
    func note(arguments: [String], said: String) throws {
        let copy = try GoldenJournals.copy("demo")
        defer { GoldenJournals.remove(copy) }
        let run = ReplayHarness.run(arguments + [copy])
        #expect(run.status == 0)
        #expect(run.out.isEmpty)
        if said.isEmpty {
            #expect(run.error.isEmpty, "\(run.error)")
        } else {
            #expect(run.error == "replay \(arguments[0]): \(copy): \(said) (`replay info` gives the journal's range)\n", "\(run.error)")
        }
    }
}
