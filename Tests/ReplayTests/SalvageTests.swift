import Foundation
import Journal
import ReplayKit
import SDKCore
import Testing
@testable import replay

/// `--salvage`: a journal damaged in its middle (a corrupt block, a segment file lost) is
/// answered past the damage, from the snapshot that begins the next segment, instead of
/// stopping there; what was skipped is said on standard error and the exit status is 1.
/// Without it the commands stop as before and say that `--salvage` goes on.
@Suite("replay --salvage", .tags(.endToEnd), .serialized, .timeLimit(.minutes(3)))
struct SalvageTests {
    /// A journal of the real SDK in segments of about 64 records, under `directory/journal`.
    static func makeJournal(_ directory: String) async throws -> String {
        try await LongSDKJournal.make(directory: directory, calls: 400, switchEvery: 150, segmentRecords: 64)
        return directory + "/journal"
    }

    /// A journal (``makeJournal(_:)``) under `directory`, its reader, and a copy of it with
    /// segment 2 broken at `offset` of its bytes (``corruptCopy(of:segment:in:name:at:)``: from
    /// its middle on by default).
    static func damagedJournal(_ directory: String, at offset: @escaping (Int) -> Int = { $0 / 2 }) async throws
        -> (journal: String, reader: JournalReader, damaged: String) {
        let journal = try await makeJournal(directory)
        return (journal, try JournalReader(directory: journal), try corruptCopy(of: journal, segment: 2, in: directory, at: offset))
    }

    /// A copy of `journal` (named `name` in `directory`) with four bytes of segment `index`
    /// broken: from its middle on by default, or at `offset` of its bytes' count (`{ _ in 64 }`:
    /// just past its header, so the whole segment is lost).
    static func corruptCopy(of journal: String, segment index: Int, in directory: String, name: String = "corrupt",
                            at offset: (Int) -> Int = { $0 / 2 }) throws -> String {
        let copy = directory + "/" + name
        try FileManager.default.copyItem(atPath: journal, toPath: copy)
        let file = try ParallelFoldTests.segmentFiles(copy)[index]
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: copy + "/" + file)))
        let start = offset(bytes.count)
        for position in start..<start + 4 { bytes[position] ^= 0xFF }
        try Data(bytes).write(to: URL(fileURLWithPath: copy + "/" + file))
        return copy
    }

    /// The lines of `output` that are JSON objects, as objects (the others left out).
    static func objects(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap { line in try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] }
    }

    /// The audit's rows by their first column, the sequence: the lines whose second column is a
    /// time (not the header, nor a summary such as `410 call(s): …`, whose counts differ where
    /// calls are lost).
    static func rows(_ output: String) -> [(sequence: UInt64, line: Substring)] {
        output.split(separator: "\n").compactMap { line in
            let columns = line.split(separator: " ", maxSplits: 2)
            guard columns.count > 1, let sequence = UInt64(columns[0]), columns[1].contains("T"), columns[1].hasSuffix("Z") else { return nil }
            return (sequence, line)
        }
    }

    @Test("a corrupt block: without --salvage the answer stops there; with it, every row of the later segments is the intact journal's")
    func corruptBlock() async throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (journal, reader, damaged) = try await Self.damagedJournal(directory)
        #expect(reader.segments.count >= 6, "segments: \(reader.segments.count)")
        let nextBase = reader.segments[3].baseSequence

        for command in ["audit", "diagnose", "timeline", "check", "recheck"] {
            let stopped = ReplayHarness.run([command, damaged])
            #expect(stopped.status == 1, "\(command)")
            #expect(stopped.error.contains("stopped at corruption in \(reader.segments[2].name)"), "\(command): \(stopped.error)")
            #expect(stopped.error.contains("`--salvage` goes on past it"), "\(command): \(stopped.error)")
            let salvaged = ReplayHarness.run([command, "--salvage", damaged])
            #expect(salvaged.status == 1, "\(command)")
            #expect(salvaged.error.contains("went on past damage: skipped bytes"), "\(command): \(salvaged.error)")
            #expect(salvaged.error.contains("the answer goes on from sequence \(nextBase), where the next segment begins"),
                    "\(command): \(salvaged.error)")
            #expect(salvaged.out.count > stopped.out.count, "\(command): the answer went on")
        }

        // The rules begin again at the snapshot: neither the loss nor an input it cut is a finding.
        #expect(ReplayHarness.run(["check", "--salvage", damaged]).out.hasSuffix("no violation\n"))
        let recheck = ReplayHarness.run(["recheck", "--salvage", damaged]).out
        #expect(recheck.hasSuffix("every one decides as recorded\n"), "\(recheck)")
        let intact = Self.rows(ReplayHarness.run(["audit", journal]).out)
        let salvaged = ReplayHarness.run(["audit", "--salvage", damaged])
        #expect(salvaged.error.contains("a call made before a skip whose end lay in the lost records shows as lost"))
        let rows = Self.rows(salvaged.out)
        // A call made after the damage is audited exactly as in the intact journal.
        let after = rows.filter { $0.sequence >= nextBase }.map(\.line)
        #expect(!after.isEmpty)
        #expect(after == intact.filter { $0.sequence >= nextBase }.map(\.line))
        // A call made before it is too, unless its end lay in the lost records (then it is
        // lost) or it was pending across them (then it says so): lostCallsEnd.
        let before = Dictionary(uniqueKeysWithValues: intact.filter { $0.sequence < nextBase }.map { ($0.sequence, $0.line) })
        for row in rows where row.sequence < nextBase {
            #expect(row.line == before[row.sequence] || row.line.contains("lost: its end lay in records lost to damage")
                    || row.line.contains("; part of its history lay in records lost to damage (resumed at \(nextBase))"), "\(row.line)")
        }
        // --jobs asked for: the walk is in order, and the note says why.
        let jobs = ReplayHarness.run(["audit", "--salvage", "--jobs", "2", damaged])
        #expect(jobs.out == salvaged.out)
        #expect(jobs.error.contains("--jobs 2: walked in order (--salvage goes on past damage where the walk in order meets it)"))
        // The report's page names the loss at its top (its findings), and says so on standard error.
        let page = directory + "/report.html"
        let report = ReplayHarness.run(["report", "--salvage", "-o", page, damaged])
        #expect(report.status == 1 && report.error.contains("replay report: went on past damage"), "\(report.error)")
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains("\"lost_to_damage\":[\"went on past damage: skipped bytes"))
        #expect(ReplayHarness.run(["report", "-o", page, damaged]).error.contains("`--salvage` goes on past it"))
        // serve: without it, the page's pass says what goes on past the damage; with it, the page is made.
        for salvaging in [false, true] {
            var arguments = Arguments((salvaging ? ["--salvage"] : []) + ["--page-wait", "600", damaged])
            let (journals, server) = try ServeCommand(arguments: &arguments).listen(console: Console(out: { _ in }, error: { _ in }))
            server.stop()
            let served = String(decoding: journals.answer(HTTPRequestHead(method: "GET", path: "/j/0/")).body, as: UTF8.self)
            let progress = String(decoding: journals.answer(HTTPRequestHead(method: "GET", path: "/j/0/progress")).body, as: UTF8.self)
            if salvaging {
                #expect(served.contains("\"lost_to_damage\":[\"went on past damage"), "\(progress)")
            } else {
                #expect(progress.contains("`replay serve --salvage` goes on past it"), "\(progress)")
            }
        }
        // cat folds nothing: it goes on too, and says what it skipped.
        let cat = ReplayHarness.run(["cat", "--salvage", damaged])
        #expect(cat.status == 1 && cat.error.contains("replay cat: went on past damage"), "\(cat.error)")
        #expect(cat.out.contains("\n\(nextBase)  "))
    }

    @Test("records lost in any segment: a call whose end lay there is lost, one pending across them says so, every other row is the intact journal's")
    func lostCallsEnd() async throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try await Self.makeJournal(directory)
        let reader = try JournalReader(directory: journal)
        // The intact journal's rows: where each call was received and resolved.
        let intact = Self.objects(ReplayHarness.run(["audit", "--json", journal]).out).filter { $0["call"] != nil }
        func sequence(_ row: [String: Any], _ key: String) -> UInt64? { (row[key] as? NSNumber)?.uint64Value }
        let bases = reader.segments.map(\.baseSequence)
        // Every segment in the middle lost in turn (where calls end depends on the run's timing).
        var lostSeen = 0, crossedSeen = 0, receivedInLossSeen = 0
        for index in 1..<bases.count - 1 {
            let lostRange = bases[index]..<bases[index + 1]
            let damaged = try Self.corruptCopy(of: journal, segment: index, in: directory, name: "corrupt-\(index)", at: { _ in 64 })
            defer { try? FileManager.default.removeItem(atPath: damaged) }
            let salvaged = ReplayHarness.run(["audit", "--json", "--salvage", damaged])
            #expect(salvaged.status == 1)
            let rows = Self.objects(salvaged.out)
            let byCall = Dictionary(rows.filter { $0["call"] != nil }.map { ($0["call"] as! String, $0) }, uniquingKeysWith: { first, _ in first })
            // Lost: made before the segment, ended in it. Crossed: made before, ended after it
            // (or not at all): the row says so, and its gate steps are the intact row's but those
            // in the lost records. Every other call made before it, or after it, is the intact
            // journal's row.
            var expectedLost = 0
            for row in intact {
                let made = try #require(sequence(row, "seq"))
                let resolved = sequence(row, "resolved_seq")
                let call = row["call"] as! String
                if lostRange.contains(made) {
                    // Received in the lost records: shown only when still pending after them,
                    // from the snapshot (where it was received is not known).
                    if let resolved, resolved < lostRange.upperBound {
                        #expect(byCall[call] == nil, "\(call)")
                    } else {
                        receivedInLossSeen += 1
                        let got = try #require(byCall[call], "\(call)")
                        #expect(got["seq"] is NSNull && sequence(got, "history_lost_before") == lostRange.upperBound, "\(got)")
                        for key in ["status", "outcome", "resolved_seq", "delivered_to", "name", "time"] {
                            #expect((got[key] as? NSObject) == (row[key] as? NSObject), "\(key): \(got) against \(row)")
                        }
                    }
                    continue
                }
                let got = try #require(byCall[call], "\(call)")
                if made < lostRange.lowerBound, let resolved, lostRange.contains(resolved) {
                    expectedLost += 1
                    #expect(got["status"] as? String == "lost" && got["outcome"] is NSNull && got["resolved_seq"] is NSNull, "\(got)")
                } else if made < lostRange.lowerBound, resolved.map({ $0 >= lostRange.upperBound }) ?? true {
                    crossedSeen += 1
                    #expect(sequence(got, "history_lost_before") == lostRange.upperBound, "\(got)")
                    var expected = row, rest = got
                    expected["history_lost_before"] = NSNumber(value: lostRange.upperBound)
                    let gate = got["gate"] as? [String] ?? [], intactGate = row["gate"] as? [String] ?? []
                    var intactSteps = intactGate[...]
                    #expect(gate.allSatisfy { step in
                        guard let found = intactSteps.firstIndex(of: step) else { return false }
                        intactSteps = intactSteps[(found + 1)...]
                        return true
                    }, "\(gate) against \(intactGate)")
                    for key in ["gate", "gate_detail"] { expected[key] = nil; rest[key] = nil }
                    #expect(NSDictionary(dictionary: rest).isEqual(to: expected), "\(got) against \(row)")
                } else {
                    #expect(NSDictionary(dictionary: got).isEqual(to: row), "\(got) against \(row)")
                }
            }
            let summary = try #require(rows.last?["summary"] as? [String: Any])
            #expect((summary["shown"] as? [String: Int])?["lost"] == (expectedLost > 0 ? expectedLost : nil), "\(summary)")
            guard expectedLost > 0 else { continue }
            lostSeen += 1
            #expect(salvaged.error.contains("shows as lost"), "\(salvaged.error)")
            // The text rows say where the walk resumed; the summary counts them.
            let text = ReplayHarness.run(["audit", "--salvage", damaged]).out
            #expect(text.components(separatedBy: "lost: its end lay in records lost to damage (resumed at \(lostRange.upperBound))").count - 1
                    == expectedLost)
            #expect(text.contains(", 0 pending, \(expectedLost) lost\n"), "\(text.suffix(200))")
        }
        #expect(lostSeen > 0 && crossedSeen > 0 && receivedInLossSeen > 0,
                "\(lostSeen) losses ended calls, \(crossedSeen) calls crossed one, \(receivedInLossSeen) received in one went on")
        // An intact journal's summary names no loss.
        #expect(!ReplayHarness.run(["audit", journal]).out.contains(" lost"))
        #expect(!ReplayHarness.run(["audit", "--json", journal]).out.contains("\"lost\""))
        #expect(!ReplayHarness.run(["audit", "--json", journal]).out.contains("history_lost_before"))
    }

    @Test("export --salvage: the copy carries the loss as the SDK carries its own (numbers jump, a segment at the snapshot, a journalGap), and checks clean")
    func exportCarriesTheLoss() async throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (journal, reader, damaged) = try await Self.damagedJournal(directory)
        let nextBase = reader.segments[3].baseSequence

        // Without it: stopped at the damage, and told that --salvage goes on.
        let stopped = ReplayHarness.run(["export", "--redact", "-o", directory + "/stopped", damaged])
        #expect(stopped.status == 1 && stopped.error.contains("`--salvage` goes on past it"), "\(stopped.error)")
        // Only a journal copy has a place for the loss.
        let ndjson = ReplayHarness.run(["export", "--redact", "--salvage", "--format", "ndjson", "-o", directory + "/rows", damaged])
        #expect(ndjson.status == 2 && ndjson.error.contains("--salvage writes a journal copy (--format journal)"), "\(ndjson.error)")
        // Nor does a folder of journals take it (each is exported as it is, side by side).
        let folder = directory + "/folder"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: damaged, toPath: folder + "/one")
        let many = ReplayHarness.run(["export", "--redact", "--salvage", "-o", directory + "/many", folder])
        #expect(many.status == 2 && many.error.contains("--salvage exports one journal at a time"), "\(many.error)")

        let copy = directory + "/copy"
        let run = ReplayHarness.run(["export", "--redact", "--salvage", "--jobs", "2", "-o", copy, damaged])
        #expect(run.status == 1)
        #expect(run.error.contains("replay export: went on past damage: skipped bytes"), "\(run.error)")
        #expect(run.error.contains("the copy says so in a journalGap"), "\(run.error)")
        #expect(run.error.contains("--jobs 2: walked in order (--salvage goes on past damage where the walk in order meets it)"), "\(run.error)")
        let json = ReplayHarness.run(["export", "--redact", "--salvage", "--json", "-o", directory + "/copy-json", damaged])
        #expect(json.out.contains("\"lost_to_damage\":[\"went on past damage: skipped bytes"), "\(json.out)")
        #expect(!ReplayHarness.run(["export", "--redact", "--json", "-o", directory + "/copy-intact", journal]).out.contains("lost_to_damage"))
        // The copy numbers its records as the original did (it began at 1): the lost numbers are
        // in no segment, the snapshot the original resumed at opens a segment, a gap follows it.
        let rows = ReplayHarness.run(["cat", "--json", copy]).out.split(separator: "\n").compactMap { line in
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
        let gaps = rows.filter { $0["name"] as? String == "journalGap" }
        #expect(gaps.count == 1)
        let gap = try #require(gaps.first)
        #expect((gap["seq"] as? NSNumber)?.uint64Value == nextBase + 1, "\(gap)")
        let copied = try JournalReader(directory: copy)
        let record = try #require(try copied.records(from: nextBase + 1).next())
        guard case .journalGap(let said)? = try? FactCodec.decode(kind: record.kind, payload: record.payload) else {
            Issue.record("not a journalGap at \(nextBase + 1)")
            return
        }
        #expect(said.reason.hasPrefix("the original journal was damaged (") && said.reason.contains(", in \(reader.segments[2].name) at byte "),
                "\(said.reason)")
        #expect(said.reason.hasSuffix("could not be read, and `replay export --salvage` went on at the next segment's snapshot"))
        #expect(said.lostFacts > 0 && said.firstLostSequence == nextBase - said.lostFacts, "\(said)")
        #expect(copied.segments.contains { $0.baseSequence == nextBase }, "\(copied.segments.map(\.baseSequence))")
        // Read back: every command goes on from there without a finding of the loss's making.
        #expect(ReplayHarness.run(["check", copy]).out.hasSuffix("no violation\n"))
        #expect(ReplayHarness.run(["verify", copy]).status == 0)
        let original = Self.rows(ReplayHarness.run(["audit", journal]).out).filter { $0.sequence >= nextBase }
        let again = Self.rows(ReplayHarness.run(["audit", copy]).out).filter { $0.sequence >= nextBase }
        #expect(!again.isEmpty && again.count == original.count)
    }

    @Test("step meets damage: it says where and where reading goes on, stays before it, and goes on after a goto past it")
    func stepStaysAtDamage() async throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Segment 2 broken at its start (its header or first block, however the writer laid out
        // its blocks): the damage is at its first sequence.
        let (_, reader, damaged) = try await Self.damagedJournal(directory, at: { _ in 64 })
        let (base, nextBase) = (reader.segments[2].baseSequence, reader.segments[3].baseSequence)
        let run = ReplayHarness.run(["step", damaged], input: [
            "goto \(base - 2)", "next 1000", "next", "find callReceived", "goto \(base + 1)", "goto \(base - 1)", "next",
            "goto \(nextBase)", "next", "quit",
        ])
        #expect(run.status == 0, "\(run.error)")
        let lines = run.out.split(separator: "\n").map(String.init)
        let said = lines.filter { $0.hasPrefix("! stopped at corruption in \(reader.segments[2].name)") }
        // next, next again, find, the goto into the lost records, and next after a goto to the last
        // record before them (which lands there): each says it, none ends the session.
        #expect(said.count == 5, "\(run.out.suffix(3000))")
        #expect(lines.filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("\(base - 1) ") }.count >= 3, "\(run.out.suffix(3000))")
        #expect(said.allSatisfy { $0.hasSuffix("the next segment begins at seq \(nextBase); `goto` it or later to go on") })
        #expect(!run.out.contains("(end of the journal)"))
        // After a goto past it, the walk reads on from the next segment's snapshot.
        // Before it, the walk stayed at the last record read: the one before the damage.
        #expect(lines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("\(base - 1) ") })
        let last = try #require(lines.last)
        #expect(last.trimmingCharacters(in: .whitespaces).hasPrefix("\(nextBase + 1) "), "\(last)")
        // The state at the last record before the damage is whole; that the next one is damaged
        // is said, exit 1. One record into the damage is refused.
        let state = ReplayHarness.run(["state", "--at", "\(base - 1)", damaged])
        #expect(state.status == 1 && state.out.hasPrefix("state after seq \(base - 1) "), "\(state.out.prefix(200))")
        #expect(state.error.contains("replay state: the record after it is damaged: corruption in \(reader.segments[2].name)"), "\(state.error)")
        let into = ReplayHarness.run(["state", "--at", "\(base)", damaged])
        #expect(into.status == 1 && into.out.isEmpty && into.error.contains("stopped at corruption"), "\(into.error)")
    }

    @Test("--salvage with receipt logs: reconcile, audit --received and report --received read past the damage")
    func receiptsPastDamage() async throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (journal, reader, damaged) = try await Self.damagedJournal(directory)
        let nextBase = reader.segments[3].baseSequence
        let log = directory + "/received.ndjson"
        try Data().write(to: URL(fileURLWithPath: log))
        for whole in [false, true] {
            let stopped = ReplayHarness.run(["reconcile", damaged] + (whole ? ["--whole"] : []) + ["--received", log])
            #expect(stopped.error.contains("stopped at corruption") && stopped.error.contains("`--salvage` goes on past it"), "\(stopped.error)")
            let run = ReplayHarness.run(["reconcile", "--salvage", damaged] + (whole ? ["--whole"] : []) + ["--received", log])
            #expect(run.status == 1)
            #expect(run.error.contains("replay reconcile: \(damaged): went on past damage: skipped bytes"), "\(run.error)")
            // Every call the walk read is judged (no receipt: each delivered one is lost), those
            // after the damage among them: at most the intact journal's (a call the lost records
            // queued and the next snapshot still holds is read from the snapshot).
            let intact = ReplayHarness.run(["reconcile", journal] + (whole ? ["--whole"] : []) + ["--received", log])
            func calls(_ out: String) -> Int? {
                out.split(separator: "\n").first { $0.contains(" call(s) in 1 journal(s)") }
                    .flatMap { Int($0.split(separator: " ")[0].replacingOccurrences(of: ",", with: "")) }
            }
            let (read, all) = (try #require(calls(run.out)), try #require(calls(intact.out)))
            #expect(read > 0 && read <= all, "\(read) of \(all)")
            // Every call made after the damage that went on the wire is judged.
            let after = Set(Self.objects(ReplayHarness.run(["audit", "--json", "--salvage", damaged]).out).filter { row in
                ((row["seq"] as? NSNumber)?.uint64Value ?? 0) >= nextBase && !((row["tasks"] as? [Any])?.isEmpty ?? true)
            }.compactMap { $0["call"] as? String })
            let judged = Set(Self.objects(ReplayHarness.run(["reconcile", "--json", "--salvage", damaged] + (whole ? ["--whole"] : [])
                                                       + ["--received", log]).out).compactMap { $0["call"] as? String })
            #expect(!after.isEmpty && after.isSubset(of: judged), "\(after.subtracting(judged).count) of \(after.count) not judged")
        }
        let audit = ReplayHarness.run(["audit", "--salvage", damaged, "--received", log])
        #expect(!audit.error.contains("stopped at corruption"), "\(audit.error)")
        #expect(Self.rows(audit.out).contains { $0.sequence >= nextBase }, "rows past the damage")
        let page = directory + "/report.html"
        let report = ReplayHarness.run(["report", "--salvage", "-o", page, damaged, "--received", log])
        #expect(!report.error.contains("stopped at corruption") && FileManager.default.fileExists(atPath: page), "\(report.error)")
    }

    @Test("serve's moments around damage: the last record before it and every record after the loss answer; one inside is refused")
    func momentsAroundDamage() async throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (_, reader, damaged) = try await Self.damagedJournal(directory)
        let nextBase = reader.segments[3].baseSequence
        let skipped = ReplayHarness.run(["audit", "--salvage", damaged]).error
        let lostFrom = try #require(skipped.firstMatch(of: /sequences (\d+)\.\.\./).flatMap { UInt64($0.1) })
        var arguments = Arguments(["--page-wait", "600", damaged])
        let (journals, server) = try ServeCommand(arguments: &arguments).listen(console: Console(out: { _ in }, error: { _ in }))
        server.stop()
        func moment(_ sequence: UInt64) -> (status: Int, json: [String: Any]?, text: String) {
            let reply = journals.answer(HTTPRequestHead(method: "GET", path: "/j/0/moment", query: ["at": "\(sequence)"]))
            let text = String(decoding: reply.body, as: UTF8.self)
            return (reply.status, try? JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any], text)
        }
        // The last record before the damage: its state, its diff; what follows it is not read.
        let before = moment(lostFrom - 1)
        #expect(before.status == 200 && (before.json?["seq"] as? NSNumber)?.uint64Value == lostFrom - 1, "\(before.text.prefix(300))")
        #expect((before.json?["state_text"] as? String)?.hasPrefix("state after seq \(lostFrom - 1) ") == true)
        // Inside the damage: refused, naming it.
        let inside = moment(lostFrom)
        #expect(inside.status == 404 && inside.text.contains("seq \(lostFrom) cannot be read: stopped at corruption in \(reader.segments[2].name)"),
                "\(inside.text)")
        // The next segment's snapshot: its state, and that the state before it is not known.
        let resumed = moment(nextBase)
        #expect(resumed.status == 200 && resumed.json?["kind"] as? String == "snapshot", "\(resumed.text.prefix(300))")
        #expect(resumed.json?["diff"] as? [String] == ["(the state before it is not known: the records before it were lost to damage)"])
        let after = moment(nextBase + 1)
        #expect(after.status == 200 && (after.json?["seq"] as? NSNumber)?.uint64Value == nextBase + 1, "\(after.text.prefix(300))")
    }

    @Test("a switch open where the records were lost: check begins again at the snapshot (no violation), diagnose says the loss, not a landing never made")
    func switchOpenAtTheLoss() async throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await LongSDKJournal.make(directory: directory, calls: 400, switchEvery: 150, segmentRecords: 16)
        let journal = directory + "/journal"
        let bases = try JournalReader(directory: journal).segments.map(\.baseSequence)
        // A switch requested before a whole segment and landed after it.
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(ReplayHarness.run(["diagnose", "--json", journal]).out.utf8)) as? [[String: Any]])
        let spans = reports.compactMap { report -> (number: Int, segment: Int)? in
            guard let requested = (report["requested"] as? [String: Any])?["seq"] as? Int,
                  let landed = (report["landed"] as? [String: Any])?["seq"] as? Int,
                  let segment = bases.indices.dropLast().first(where: { Int(bases[$0]) > requested && Int(bases[$0 + 1]) <= landed })
            else { return nil }
            return ((report["switch"] as? Int) ?? 0, segment)
        }
        let span = try #require(spans.first, "no switch spans a segment: \(reports.count) switches")
        let copy = directory + "/lost"
        try FileManager.default.copyItem(atPath: journal, toPath: copy)
        let name = try ParallelFoldTests.segmentFiles(copy)[span.segment]
        try FileManager.default.removeItem(atPath: copy + "/" + name)

        let check = ReplayHarness.run(["check", "--salvage", copy])
        #expect(check.out.hasSuffix("no violation\n"), "\(check.out)")
        #expect(check.status == 1 && check.error.contains("went on past a gap"), "\(check.error)")
        let stopped = ReplayHarness.run(["check", copy])
        #expect(stopped.error.contains("`--salvage` goes on past it"), "\(stopped.error)")

        let diagnose = ReplayHarness.run(["diagnose", "--salvage", copy])
        let lost = "the journal lost sequences \(bases[span.segment])...\(bases[span.segment + 1] - 1) to damage"
        #expect(diagnose.out.contains("switch s\(span.number):"), "\(diagnose.out)")
        #expect(diagnose.out.contains(lost), "\(diagnose.out)")
        #expect(!diagnose.out.contains("never landed"), "\(diagnose.out)")
    }

    @Test("a segment file lost in the middle: --salvage goes on past the gap at the next segment's snapshot")
    func lostSegment() async throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try await Self.makeJournal(directory)
        let copy = directory + "/gap"
        try FileManager.default.copyItem(atPath: journal, toPath: copy)
        let segments = try JournalReader(directory: journal).segments
        let lost = segments[2].name
        try FileManager.default.removeItem(atPath: copy + "/" + lost)
        try? FileManager.default.removeItem(atPath: copy + "/" + lost.replacingOccurrences(of: ".lz4", with: ".idx"))

        let stopped = ReplayHarness.run(["audit", copy])
        #expect(stopped.status == 1 && stopped.error.contains("are missing before this segment"), "\(stopped.error)")
        let salvaged = ReplayHarness.run(["audit", "--salvage", copy])
        #expect(salvaged.status == 1)
        let first = segments[2].baseSequence, last = segments[3].baseSequence - 1
        #expect(salvaged.error.contains("went on past a gap: sequences \(first)...\(last) are missing before this segment; "
                                        + "the answer goes on from sequence \(last + 1), where \(segments[3].name) begins"), "\(salvaged.error)")
        let intact = Self.rows(ReplayHarness.run(["audit", journal]).out).filter { $0.sequence > last }.map(\.line)
        let rows = Self.rows(salvaged.out).filter { $0.sequence > last }.map(\.line)
        // The rows that differ, not both lists (hundreds of rows each).
        #expect(rows == intact, "only salvaged: \(rows.filter { !intact.contains($0) }); only intact: \(intact.filter { !rows.contains($0) }); \(rows.count) against \(intact.count) rows")
    }

    @Test("a small journal (one segment, read on the calling thread): the skip to its end is said, exit 1")
    func smallJournal() throws {
        let copy = try GoldenJournals.copy("demo")
        defer { GoldenJournals.remove(copy) }
        let name = try ParallelFoldTests.segmentFiles(copy)[0]
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: copy + "/" + name)))
        for offset in bytes.count / 2..<bytes.count / 2 + 4 { bytes[offset] ^= 0xFF }
        try Data(bytes).write(to: URL(fileURLWithPath: copy + "/" + name))
        for command in ["audit", "check", "diagnose", "timeline", "cat"] {
            let run = ReplayHarness.run([command, "--salvage", copy])
            #expect(run.status == 1, "\(command): \(run.error)")
            #expect(run.error.contains("replay \(command): went on past damage: skipped bytes"), "\(command): \(run.error)")
            #expect(run.error.contains("nothing readable follows it"), "\(command): \(run.error)")
        }
    }

    @Test("an intact journal: --salvage changes nothing")
    func intact() async throws {
        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try await Self.makeJournal(directory)
        for command in [["audit"], ["audit", "--json"], ["diagnose"], ["timeline"], ["cat"], ["check"], ["recheck"]] {
            let plain = ReplayHarness.run(command + [journal])
            let salvaging = ReplayHarness.run(command + ["--salvage", journal])
            #expect(salvaging.out == plain.out && salvaging.error == plain.error && salvaging.status == plain.status, "\(command)")
            #expect(plain.status == 0, "\(command): \(plain.error)")
        }
    }
}
