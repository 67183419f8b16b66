import Foundation
import Journal
import Testing
import replay

@Suite("replay info, verify, cat on raw journals", .timeLimit(.minutes(3)))
struct RawJournalCommandTests {
    @Test("info summarises the journal")
    func info() throws {
        let path = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ReplayHarness.writeRawJournal(at: path)
        // Its payloads are not facts: info says so, with status 1.
        let run = ReplayHarness.run(["info", path])
        #expect(run.status == 1)
        #expect(run.error.contains("could not be decoded as facts"))
        let lines = run.out.replacingOccurrences(of: path, with: "JOURNAL").split(separator: "\n").map(String.init)
        #expect(lines.first == "journal      JOURNAL")
        #expect(lines.contains("id           5EED0000-0000-4000-8000-000000000001"))
        #expect(lines.contains("producer     replay-tests"))
        #expect(lines.contains { $0.hasPrefix("records      4") && $0.hasSuffix("snapshots)") })
        #expect(lines.contains("time span    2025-11-24T16:00:00.000000Z ... 2025-11-24T16:00:09.750000Z (9.75s)"))
        #expect(lines.contains("torn tail    none"))
        #expect(lines.contains("corruption   none"))
        #expect(lines.contains { $0.hasPrefix("undecodable  ") && $0.hasSuffix("record(s)") })

        let json = ReplayHarness.run(["info", "--json", path])
        #expect(json.status == 1)
        #expect(json.out.hasPrefix("{\"journal\":"))
        #expect(json.out.contains("\"id\":\"5EED0000-0000-4000-8000-000000000001\""))
        #expect(json.out.contains("\"corruption\":0"))
    }

    @Test("verify: exit 0 when clean, 1 with the location when corrupt, 2 when unreadable")
    func verify() throws {
        let path = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ReplayHarness.writeRawJournal(at: path, records: 300)
        let clean = ReplayHarness.run(["verify", path])
        #expect(clean.status == 0)
        #expect(clean.out.hasPrefix("ok: "))

        let first = try #require(try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".lz4") }.sorted().first)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path + "/" + first))
        bytes[bytes.count / 2] ^= 0x40   // inside a sealed segment
        try bytes.write(to: URL(fileURLWithPath: path + "/" + first))
        let corrupt = ReplayHarness.run(["verify", path])
        #expect(corrupt.status == 1)
        #expect(corrupt.out.hasPrefix("CORRUPT: 1 problem(s)"))
        #expect(corrupt.out.contains("corruption in \(first) at offset "))
        #expect(corrupt.out.contains(", sequence "))
        let json = ReplayHarness.run(["verify", "--json", path])
        #expect(json.status == 1)
        #expect(json.out.contains("\"clean\":false"))

        let missing = ReplayHarness.run(["verify", path + "/nope"])
        #expect(missing.status == 2)
        #expect(missing.error.contains(path + "/nope"))
        // An empty directory: the system's temporary directory may hold journals, which makes
        // it a folder of journals.
        let empty = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let notJournal = ReplayHarness.run(["verify", empty])
        #expect(notJournal.status == 2)
        #expect(notJournal.error.contains("no segment files"))
    }

    @Test("cat prints one line per record from a sequence, with a limit")
    func cat() throws {
        let path = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ReplayHarness.writeRawJournal(at: path)
        // The raw journal's payloads are not facts: kinds show by name, marked unreadable, and
        // the command says so on standard error (exit 1).
        let run = ReplayHarness.run(["cat", "--from", "5", "--limit", "3", path])
        #expect(run.status == 1)
        #expect(run.out == """
            5  2025-11-24T16:00:00.750000Z  engineStarted (unreadable)  18 B
            6  2025-11-24T16:00:01.000000Z  callReceived (unreadable)  21 B
            7  2025-11-24T16:00:01.250000Z  transportCompleted (unreadable)  24 B

            """)
        #expect(run.error.contains("record 5 skipped"))
        let json = ReplayHarness.run(["cat", "--limit=1", "--json", path])
        #expect(json.out == "{\"seq\":1,\"time\":\"2025-11-24T16:00:00.000000Z\",\"kind\":0,\"name\":\"snapshot\",\"bytes\":7}\n")
    }

    @Test("export --format ndjson: an unreadable record keeps its row, saying so and not why")
    func exportUnreadable() throws {
        let path = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ReplayHarness.writeRawJournal(at: path)
        let output = path + "-export.ndjson"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let run = ReplayHarness.run(["export", "--redact", "--format", "ndjson", "-o", output, path])
        // The copy is incomplete, and the command says so (exit 1).
        #expect(run.status == 1)
        #expect(run.error.contains("could not be read and were kept empty"), "\(run.error)")
        let rows = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        let row = try #require(rows.first { $0.hasPrefix("{\"seq\":5,") })
        #expect(row.contains("\"kind\":\"engineStarted\""))
        #expect(row.hasSuffix(",\"unreadable\":\"not readable by this build; left out of the export\"}"), "\(row)")
    }

    @Test("usage errors exit 2 and name the problem; --help exits 0", arguments: [
        (["cat"], "missing journal directory"),
        (["cat", "--from"], "--from needs a value"),
        (["cat", "--from", "x", "/j"], "--from expects a sequence number, not 'x'"),
        (["cat", "--bogus", "/j"], "unknown option --bogus"),
        (["cat", "/a", "/b"], "unexpected argument '/b'"),
        (["info", "-", "/b"], "`-` (standard input) is one journal: give it alone"),
        (["check", "--jobs", "0", "/a", "/b"], "--jobs expects a positive count, not '0'"),
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["state", "/j"], "--at SEQ|TIME is required"),
        (["state", "--at", "yesterday", "/j"], "--at expects a sequence number or an ISO-8601 time"),
        (["diff", "--from", "1", "/j"], "--to SEQ|TIME is required"),
        (["timeline", "--kind", "callMade", "/j"], "--kind expects a fact kind"),
        (["timeline", "--project", "", "/j"], "--project expects a project fingerprint"),
        (["timeline", "--from", "60", "--to", "50", "/j"], "--from sequence 60 is after --to sequence 50"),
        (["timeline", "--from", "2026-01-02T00:00:00Z", "--to", "2026-01-01T00:00:00Z", "/j"], "is after --to 2026-01-01T00:00:00"),
        (["audit", "--call", "buy", "/j"], "--call expects a public call"),
        (["diagnose", "--switch", "x", "/j"], "--switch expects a switch number"),
        (["recheck", "--limit", "-1", "/j"], "--limit expects a count"),
        (["export", "--redact", "/j"], "-o OUT is required"),
        (["export", "--redact", "--format", "csv", "-o", "x", "/j"], "--format expects journal, ndjson or trace"),
        (["demo", "extra"], "unexpected argument 'extra'"),
        // A list option takes every argument up to the next option: a journal after it is taken.
        (["reconcile", "--received", "log.ndjson", "/j"],
         "missing journal directory: --received took every argument after it up to the next option (log.ndjson /j); put the journal directory before --received, or write --received=FILE"),
        (["report", "-o", "r.html", "--received", "log.ndjson", "/j"], "--received took every argument after it up to the next option (log.ndjson /j)"),
    ])
    func usageErrors(arguments: [String], message: String) {
        let run = ReplayHarness.run(arguments)
        #expect(run.status == 2)
        #expect(run.error.contains(message), "\(run.error)")
    }

    @Test("every command has its own --help", arguments: ReplayCommandLine.commandNames)
    func help(command: String) {
        let run = ReplayHarness.run([command, "--help"])
        #expect(run.status == 0)
        #expect(run.out.hasPrefix("usage: replay \(command)"))
        #expect(ReplayHarness.run(["help", command]).out == run.out)
    }
}
