import Foundation
import Testing

/// Every subcommand's output on the demo's journal, compared with golden files. The journal is
/// the same on every run (the demo fixes the order of everything), so the outputs are too.
@Suite("golden outputs on the demo journal", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct DemoGoldenTests {
    /// Runs `replay arguments… <journal>` and compares with the golden file `name`.
    private func expect(_ arguments: [String], status: Int32 = 0, matches name: String, input: [String] = [],
                        sourceLocation: SourceLocation = #_sourceLocation) async {
        let journal = await DemoFixture.shared.journal().journal
        let run = ReplayHarness.run(arguments + [journal], input: input)
        #expect(run.status == status, "\(arguments): \(run.error)", sourceLocation: sourceLocation)
        Golden.expect(run.out, matches: name, journal: journal, sourceLocation: sourceLocation)
    }

    @Test("demo prints the journal's place, each switch's diagnosis and what to try next")
    func demo() async {
        let made = await DemoFixture.shared.journal()
        #expect(made.run.status == 0, "\(made.run.error)")
        #expect(made.run.error.isEmpty)
        Golden.expect(made.run.out, matches: "demo.txt", journal: made.journal)
    }

    @Test("info and cat name the facts")
    func infoAndCat() async {
        await expect(["info"], matches: "info.txt")
        await expect(["info", "--json"], matches: "info.json")
        await expect(["cat", "--limit", "24"], matches: "cat.txt")
        await expect(["cat", "--from", "46", "--limit", "3", "--json"], matches: "cat.ndjson")
    }

    @Test("timeline: whole, a window by sequence and time, filtered by kind and project, as NDJSON")
    func timeline() async {
        await expect(["timeline"], matches: "timeline.txt")
        await expect(["timeline", "--from", "2025-11-24T16:00:54.6Z", "--to", "150"], matches: "timeline-window.txt")
        await expect(["timeline", "--kind", "switchRouted", "--kind", "switchLanded", "--kind", "callbacksDelivered"],
                     matches: "timeline-kinds.txt")
        await expect(["timeline", "--project", "7ea1", "--kind", "taskQueued", "--kind", "callResolved"], matches: "timeline-eu.txt")
        await expect(["timeline", "--project", "EU", "--kind", "taskQueued", "--kind", "callResolved"], matches: "timeline-eu.txt")
        // A call held by a switch and replayed on the project it landed on: its whole story.
        await expect(["timeline", "--call", "0000000a"], matches: "timeline-call.txt")
        await expect(["timeline", "--json", "--from", "88", "--to", "100"], matches: "timeline.ndjson")
    }

    @Test("state at a sequence number and at a time; diff between two moments")
    func stateAndDiff() async {
        await expect(["state", "--at", "94"], matches: "state-94.txt")
        await expect(["state", "--at", "2025-11-24T16:00:55.5Z", "--json"], matches: "state-s3.json")
        await expect(["diff", "--from", "2025-11-24T16:00:18Z", "--to", "2025-11-24T16:00:20Z"], status: 1, matches: "diff.txt")
        await expect(["diff", "--from", "140", "--to", "180", "--json"], status: 1, matches: "diff.json")
        await expect(["diff", "--from", "5", "--to", "5"], matches: "diff-same.txt")
    }

    @Test("the state of the journal's first snapshot, which no fact has advanced, has no time (not 1970)")
    func firstSnapshotHasNoTime() async {
        let journal = await DemoFixture.shared.journal().journal
        let text = ReplayHarness.run(["state", "--at", "1", journal]).out
        #expect(text.split(separator: "\n").contains { $0.hasPrefix("time ") && $0.hasSuffix(" -") }, "\(text)")
        #expect(!text.contains("1970"))
        let json = ReplayHarness.run(["state", "--at", "1", "--json", journal]).out
        #expect(json.contains("\"state\":{\"time\":null"), "\(json)")
        #expect(ReplayHarness.run(["state", "--at", "2", journal]).out.contains("time              2025-11-24T16:00:00.000000Z"))
    }

    @Test("audit: every call, filtered by name and project, as NDJSON")
    func audit() async {
        await expect(["audit"], matches: "audit.txt")
        await expect(["audit", "--call", "track", "--call", "setEmail"], matches: "audit-calls.txt")
        await expect(["audit", "--project", "7ea1b232"], matches: "audit-eu.txt")
        await expect(["audit", "--project", "eu"], matches: "audit-eu.txt")
        await expect(["audit", "--json"], matches: "audit.ndjson")
    }

    @Test("audit --call: one call by the 8 hex digits its row shows, its UUID or its wire id; an id no row has is said")
    func auditOneCall() async throws {
        let journal = await DemoFixture.shared.journal().journal
        func rows(_ selector: String) -> (rows: [Substring], error: String) {
            let run = ReplayHarness.run(["audit", "--call", selector, journal])
            #expect(run.status == 0, "\(selector): \(run.error)")
            return (run.out.split(separator: "\n").filter { $0.contains("2025-11-24T") }, run.error)
        }
        let byShortID = rows("0000000c").rows
        #expect(byShortID.count == 1 && byShortID[0].contains(" 0000000c  trackPushOpen "), "\(byShortID)")
        #expect(rows("00000000-0000-4000-8000-00000000000C").rows == byShortID)
        // The wire id a project's receipt log gives the call (the demo's logs are in its journal's folder).
        let receipts = try String(contentsOfFile: journal + "/received.ndjson", encoding: .utf8)
        let receipt = try #require(receipts.split(separator: "\n").first { $0.contains("-call-00000000-0000-4000-8000-000000000004\"") })
        let wire = try #require(receipt.firstRange(of: "\"call_id\":\"").map { String(receipt[$0.upperBound...].prefix(32)) })
        let byWire = rows(wire).rows
        #expect(byWire.count == 1 && byWire[0].contains(" 00000004  track "), "\(wire): \(byWire)")
        let missing = rows("deadbeef")
        #expect(missing.rows.isEmpty && missing.error.contains("no call matches --call deadbeef"), "\(missing.error)")
        #expect(ReplayHarness.run(["audit", "--call", "0000000g", journal]).status == 2)
    }

    @Test("diagnose every switch, and one as JSON")
    func diagnose() async {
        await expect(["diagnose"], matches: "diagnose.txt")
        await expect(["diagnose", "--switch", "s3", "--json"], matches: "diagnose-s3.json")
    }

    @Test("check finds no violation; recheck finds no difference")
    func checkAndRecheck() async {
        await expect(["check"], matches: "check.txt")
        await expect(["check", "--json"], matches: "check.json")
        await expect(["recheck"], matches: "recheck.txt")
    }

    @Test("step follows a script from standard input")
    func step() async {
        await expect(["step"], matches: "step.txt", input: [
            "next 2", "switch 1", "where", "find queued", "next", "diff", "goto 2025-11-24T16:00:19.45Z", "state",
            "prev 3", "find switchLanded", "find no-such-thing", "bogus", "next 0", "quit", "next",
        ])
    }

    @Test("export as NDJSON: the demo's personal data is gone, its shape stays")
    func exportNDJSON() async throws {
        let journal = await DemoFixture.shared.journal().journal
        let output = ReplayHarness.temporaryDirectory() + "/demo.ndjson"
        defer { try? FileManager.default.removeItem(atPath: (output as NSString).deletingLastPathComponent) }
        let run = ReplayHarness.run(["export", "--redact", "--format", "ndjson", "-o", output, journal])
        #expect(run.status == 0, "\(run.error)")
        let text = try String(contentsOfFile: output, encoding: .utf8)
        Golden.expect(text, matches: "export.ndjson", journal: journal)
    }
}
