import Testing

/// `diagnose --switch N` for a switch the journal does not hold says which it holds.
@Suite("diagnose --switch of a switch not there", .timeLimit(.minutes(1)))
struct DiagnoseAbsentSwitchTests {
    @Test("names the switches the journal holds, split or in order", arguments: ["1", "2"])
    func absentSwitch(jobs: String) throws {
        let copy = try GoldenJournals.copy("demo")
        defer { GoldenJournals.remove(copy) }
        let all = ReplayHarness.run(["diagnose", copy])
        let count = all.out.split(separator: "\n").filter { $0.hasPrefix("switch s") }.count
        #expect(count > 1, "the golden demo holds switches: \(all.out.prefix(200))")
        let run = ReplayHarness.run(["diagnose", "--switch", "999", "--jobs", jobs, copy])
        #expect(run.status == 0)
        #expect(run.out == "no switch s999 in this journal (it holds \(count): s1 to s\(count))\n", "\(run.out)")
    }
}
