import Testing

/// A `--project` that names none of a journal's projects is said on standard error, with the
/// projects it does name, so that a mistyped filter does not read as "no call went there". The
/// output and the exit status stay what they were.
@Suite("--project naming no project", .timeLimit(.minutes(1)))
struct ProjectFilterNoteTests {
    @Test("audit and timeline: a label, a prefix too short, a hex prefix that matches nothing",
          arguments: [["audit"], ["audit", "--json"], ["timeline"]], ["Mars", "7ea", "0000"])
    func unmatched(command: [String], filter: String) throws {
        let copy = try GoldenJournals.copy("demo")
        defer { GoldenJournals.remove(copy) }
        let run = ReplayHarness.run(command + ["--project", filter, copy])
        #expect(run.status == 0)
        #expect(run.error.contains("replay \(command[0]): \(copy): no project matches --project '\(filter)'"), "\(run.error)")
        #expect(run.error.contains("7ea1b232ba580c4e, 9e1f3d9d78320577"), "the projects it names are listed: \(run.error)")
        #expect(run.error.contains("at least 4 hex digits") == (filter == "7ea"), "\(run.error)")
    }

    @Test("a filter that matches says nothing", arguments: [["audit"], ["timeline"]], ["7ea1", "9E1F3D9D78320577"])
    func matched(command: [String], filter: String) throws {
        let copy = try GoldenJournals.copy("demo")
        defer { GoldenJournals.remove(copy) }
        let run = ReplayHarness.run(command + ["--project", filter, copy])
        #expect(run.status == 0)
        #expect(!run.error.contains("no project matches"), "\(run.error)")
        #expect(!run.out.isEmpty)
    }

    @Test("a timeline read in part says the projects of the part it read")
    func partOfTimeline() throws {
        let copy = try GoldenJournals.copy("demo")
        defer { GoldenJournals.remove(copy) }
        let run = ReplayHarness.run(["timeline", "--to", "2", "--project", "Mars", copy])
        #expect(run.error.contains("the projects in the part read") || run.error.contains("the part read names no project"), "\(run.error)")
    }
}
