import Foundation
import FuzzHarness
import Journal
import ReplayKit
import Simulation
import Testing
@testable import SDK

/// `replay reconcile` on the threadless engine: each verdict made by a backend that behaves so
/// (drops, duplicates, answers late, receives from another install or another project), and bad
/// input named where it is while the good part's verdicts stand.
@Suite("replay reconcile", .timeLimit(.minutes(2)))
struct ReconcileTests {
    /// A journal of calls delivered to A (a bulk among them), the simulated backend's receipt
    /// log of it, and where both are written.
    struct Scene {
        let store: EngineStore
        let directory: String
        let journal: String
        let stream: UUID
        let lines: [ReceiptLine]

        /// `seed` makes the install: another seed, another journal stream. `before` runs
        /// before the first call (to script answers), `extra` after the calls settled.
        init(seed: UInt64 = 1, extra: (EngineStore) -> Void = { _ in }, before: (EngineStore) -> Void = { _ in }) throws {
            let store = EngineStore(seed: seed)
            before(store)
            store.initialize(.A)
            store.call(.setEmail("ada@example.com"))
            store.call(.registerToken("token-1"))
            for index in 0..<4 { store.call(.track(event: "e\(index)", dataFields: nil)) }
            store.settle()
            extra(store)
            self.store = store
            directory = ReplayHarness.temporaryDirectory()
            journal = directory + "/journal"
            try store.writeJournal(to: journal)
            stream = try #require(try JournalReader(directory: journal).journalID)
            lines = store.receiptLog
        }

        /// Writes `lines` (JSON objects or raw text) as a receipt log named `name`.
        func write(_ lines: [String], name: String = "received.ndjson") throws -> String {
            let path = directory + "/" + name
            try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
            return path
        }

        func write(_ lines: [ReceiptLine], name: String = "received.ndjson") throws -> String {
            try write(lines.map(\.json), name: name)
        }

        func reconcile(_ logs: [String], json: Bool = false) -> ReplayRun {
            ReplayHarness.run(["reconcile"] + (json ? ["--json"] : []) + [journal, "--received"] + logs)
        }

        /// The verdicts of a `--json` run, by verdict.
        func verdicts(_ logs: [String]) -> [String: Int] {
            let run = reconcile(logs, json: true)
            var counts: [String: Int] = [:]
            for line in run.out.split(separator: "\n") where line.hasPrefix(#"{"verdict":""#) {
                let verdict = line.dropFirst(12).prefix { $0 != "\"" }
                counts[String(verdict), default: 0] += 1
            }
            return counts
        }
    }

    @Test("a backend that received every call once, where the journal says: all agreed, exit 0")
    func agreed() throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(atPath: scene.directory) }
        #expect(scene.lines.count == 5, "registerToken and four events: \(scene.lines.map(\.endpoint))")
        let log = try scene.write(scene.lines)
        let run = scene.reconcile([log])
        #expect(run.status == 0, "\(run.out)\(run.error)")
        #expect(run.out.contains("0 elsewhere, 0 lost, 0 duplicate, 0 unconfirmed, 0 late, 0 unjournaled, \(scene.lines.count) agreed"), "\(run.out)")
        #expect(scene.verdicts([log]) == ["agreed": scene.lines.count])
        let json = scene.reconcile([log], json: true)
        #expect(json.out.contains(#""not_judged":0,"holes":[]"#), "a whole journal has no hole: \(json.out)")
    }

    @Test("a backend that drops a call the journal says it delivered: lost, exit 1")
    func lost() throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(atPath: scene.directory) }
        let dropped = scene.lines[2]
        let log = try scene.write(scene.lines.filter { $0 != dropped })
        let run = scene.reconcile([log])
        #expect(run.status == 1)
        #expect(run.out.contains("lost        \(dropped.callID.hex.prefix(12))"), "\(run.out)")
        #expect(run.out.contains("| received: none"))
        #expect(scene.verdicts([log]) == ["lost": 1, "agreed": scene.lines.count - 1])
    }

    @Test("a backend that stores a re-send again: duplicate, with each answer; a re-send it dedupes is agreed")
    func duplicate() throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(atPath: scene.directory) }
        var again = scene.lines[1]
        again.receivedAt = again.receivedAt.advanced(by: .milliseconds(-1))
        var deduped = scene.lines[3]
        deduped.duplicate = true
        let log = try scene.write(scene.lines + [again, deduped])
        let run = scene.reconcile([log])
        #expect(run.status == 1)
        #expect(run.out.hasPrefix("duplicate   \(again.callID.hex.prefix(12))"), "\(run.out)")
        #expect(run.out.contains("(re-send)") == false, "the deduped re-send is not listed: it agrees")
        #expect(scene.verdicts([log]) == ["duplicate": 1, "agreed": scene.lines.count - 1])
    }

    @Test("a backend whose receipt is later than the journal's outcome: late; --clock-skew forgives a skew")
    func late() throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(atPath: scene.directory) }
        var lines = scene.lines
        lines[0].receivedAt = lines[0].receivedAt.advanced(by: .seconds(5))
        let log = try scene.write(lines)
        #expect(scene.verdicts([log]) == ["late": 1, "agreed": lines.count - 1])
        let forgiven = ReplayHarness.run(["reconcile", "--clock-skew", "6000", scene.journal, "--received", log])
        #expect(forgiven.status == 0, "\(forgiven.out)")
    }

    @Test("a call received by another project than the journal names: elsewhere, listed first")
    func elsewhere() throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(atPath: scene.directory) }
        var lines = scene.lines
        lines[3].project = scene.store.fingerprint(.B)
        let dropped = lines.remove(at: 4)
        let log = try scene.write(lines)
        let run = scene.reconcile([log])
        #expect(run.status == 1)
        let rows = run.out.split(separator: "\n")
        #expect(rows.first?.hasPrefix("elsewhere   \(lines[3].callID.hex.prefix(12))") == true, "\(run.out)")
        #expect(rows.dropFirst().first?.hasPrefix("lost        \(dropped.callID.hex.prefix(12))") == true)
        #expect(run.error.contains("project \(scene.store.fingerprint(.B).hex) is no project the journals sent to"), "\(run.error)")
    }

    @Test("the journal says failed, and the project has it anyway (an answer lost on the way back): unconfirmed")
    func unconfirmed() throws {
        let scene = try Scene { store in
            store.answer("events/track", status: 400, body: #"{"code":"InvalidJsonBody"}"#)
            store.call(.track(event: "refused", dataFields: nil))
            store.settle()
        }
        defer { try? FileManager.default.removeItem(atPath: scene.directory) }
        // The scripted 400 never reached the backend: the backend that did take it says so.
        let request = try #require(scene.store.requests.last { $0.body.contains(#""eventName":"refused""#) })
        let id = try #require(request.callIDs.first)
        var taken = scene.lines[0]
        taken.callID = id
        taken.endpoint = "events/track"
        let log = try scene.write(scene.lines + [taken])
        #expect(scene.verdicts([log]) == ["unconfirmed": 1, "agreed": scene.lines.count])
    }

    @Test("a bulk's event the answer refused (400 in the log) agrees with the journal, which fails that call alone")
    func refusedBulkEventAgrees() throws {
        // The scene's four events leave in one bulk, e1 refused.
        let scene = try Scene(before: { store in
            store.answer(DeliveryTask.bulkTrackPath, status: 200,
                         body: #"{"code":"Success","successCount":3,"failCount":1,"disallowedEventNames":["e1"],"invalidEmails":[],"invalidUserIds":[]}"#)
        })
        defer { try? FileManager.default.removeItem(atPath: scene.directory) }
        // The scripted answer never reached the backend: its log is written as the backend
        // would have, the refused event's line answered 400.
        let request = try #require(scene.store.requests.first { $0.path == DeliveryTask.bulkTrackPath })
        try #require(request.callIDs.count == 4)
        #expect(!scene.lines.contains { $0.endpoint == DeliveryTask.bulkTrackPath })
        var bulk = request.callIDs.map { id in
            var line = scene.lines[0]
            line.callID = id
            line.endpoint = DeliveryTask.bulkTrackPath
            return line
        }
        bulk[1].status = 400
        #expect(scene.verdicts([try scene.write(scene.lines + bulk)]) == ["agreed": scene.lines.count + 4])
        // Had the project stored it anyway (answered 200), the journal's failure disagrees.
        bulk[1].status = 200
        #expect(scene.verdicts([try scene.write(scene.lines + bulk)]) == ["unconfirmed": 1, "agreed": scene.lines.count + 3])
    }

    @Test("the one pass in time order and --whole give the same rows, whatever order the log is in and however late a receipt")
    func streamedAgreesWithWhole() throws {
        let scene = try Scene { store in
            // Calls hours apart, so the pass lets the first ones go before the last are read.
            for hour in 1...3 {
                store.advance(byMilliseconds: Int64(hour) * 3_600_000)
                store.call(.track(event: "hour-\(hour)", dataFields: nil))
                store.settle()
            }
        }
        defer { try? FileManager.default.removeItem(atPath: scene.directory) }
        var late = scene.lines[0]
        late.receivedAt = JournalTime(microsecondsSince1970: late.receivedAt.microsecondsSince1970 + 86_400_000_000)
        late.duplicate = true
        var resent = scene.lines[1]
        resent.duplicate = false
        var other = scene.lines[2]
        other.project = scene.store.fingerprint(.B)
        // In order; backwards; with a receipt a day late, one stored twice, one elsewhere.
        let logs = [scene.lines, scene.lines.reversed(), scene.lines + [late, resent, other]]
        for (number, lines) in logs.enumerated() {
            let log = try scene.write(Array(lines), name: "log-\(number).ndjson")
            let streamed = scene.reconcile([log], json: true)
            let whole = ReplayHarness.run(["reconcile", "--json", "--whole", scene.journal, "--received", log])
            #expect(streamed.status == whole.status)
            #expect(streamed.out.split(separator: "\n").sorted() == whole.out.split(separator: "\n").sorted(),
                    "log \(number):\n\(streamed.out)\n---\n\(whole.out)")
            #expect(streamed.error == whole.error)
        }
        #expect(scene.verdicts([try scene.write(scene.lines + [late, resent, other])]) == ["elsewhere": 1, "duplicate": 1, "late": 1, "agreed": scene.lines.count - 3])
    }

    @Test("another install's receipts are not judged; a log of nothing but them is named as another device's")
    func anotherInstall() throws {
        let scene = try Scene()
        let other = try Scene(seed: 2)
        defer {
            try? FileManager.default.removeItem(atPath: scene.directory)
            try? FileManager.default.removeItem(atPath: other.directory)
        }
        let mixed = try scene.write(scene.lines + other.lines)
        let run = scene.reconcile([mixed])
        #expect(run.status == 0, "\(run.out)\(run.error)")
        #expect(run.out.contains("\(other.lines.count) receipt(s) of other installs, not judged"), "\(run.out)")
        let foreign = try scene.write(other.lines, name: "other-device.ndjson")
        let alone = scene.reconcile([foreign])
        #expect(alone.status == 1)
        #expect(alone.error.contains("other-device.ndjson: none of its \(other.lines.count) receipt(s) is of the journals given"), "\(alone.error)")
        #expect(alone.error.contains(other.stream.uuidString.lowercased()) && alone.error.contains("another device's log?"))
        // A receipt of this install's stream that no call of its journal explains.
        var stray = scene.lines[0]
        stray.callID = WireCallID(high: 1, low: 2)
        let tampered = try scene.write(scene.lines + [stray], name: "stray.ndjson")
        #expect(scene.verdicts([tampered]) == ["unjournaled": 1, "agreed": scene.lines.count])
    }

    @Test("many journals and many logs in one run: each receipt finds its install's call")
    func fleet() throws {
        let first = try Scene()
        let second = try Scene(seed: 2)
        defer {
            try? FileManager.default.removeItem(atPath: first.directory)
            try? FileManager.default.removeItem(atPath: second.directory)
        }
        let logs = [try first.write(Array(first.lines.prefix(3)), name: "a.ndjson"),
                    try first.write(Array(first.lines.dropFirst(3)) + second.lines, name: "b.ndjson")]
        let run = ReplayHarness.run(["reconcile", "--json", first.journal, second.journal, "--received"] + logs)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.out.contains(#""verdicts":{"elsewhere":0,"lost":0,"duplicate":0,"unconfirmed":0,"late":0,"unjournaled":0,"agreed":\#(first.lines.count + second.lines.count)}"#), "\(run.out)")
    }

    @Test("malformed lines are named by file and line and skipped; the good lines' verdicts stand")
    func malformedLines() throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(atPath: scene.directory) }
        var lines = scene.lines.map(\.json)
        lines.insert("not json", at: 1)
        lines.insert(#"{"project":"00112233445566ff","region":"us","endpoint":"events/track","received_at":"2025-11-24T16:00:00Z","status":200}"#, at: 3)
        lines.insert(scene.lines[0].json.replacingOccurrences(of: #""received_at":""#, with: #""received_at":"yesterday"#), at: 4)
        lines.insert("", at: 5)
        lines.append(String(repeating: "x", count: ReceiptLine.maxLineBytes + 10))
        let log = try scene.write(lines)
        let run = scene.reconcile([log])
        #expect(run.status == 1)
        #expect(run.error.contains("received.ndjson:2: not a JSON object; line skipped"), "\(run.error)")
        #expect(run.error.contains("received.ndjson:4: no \"call_id\"; line skipped"))
        #expect(run.error.contains("received.ndjson:5: \"received_at\" is not an ISO 8601 time"))
        #expect(run.error.contains("received.ndjson:\(lines.count): the line is \(ReceiptLine.maxLineBytes + 10) bytes, more than \(ReceiptLine.maxLineBytes)"))
        #expect(!run.error.contains("received.ndjson:6:"), "a blank line is no problem")
        #expect(scene.verdicts([log]) == ["agreed": scene.lines.count], "the good lines are judged as if alone")
    }

    @Test("audit --received shows each call's verdict in a column, the totals in its summary, and exits 1 on a loss")
    func auditColumn() throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(atPath: scene.directory) }
        let log = try scene.write(Array(scene.lines.dropLast()))
        let run = ReplayHarness.run(["audit", "--call", "track", scene.journal, "--received", log])
        #expect(run.status == 1, "\(run.error)")
        let rows = run.out.split(separator: "\n")
        #expect(rows.first?.hasSuffix("status  received") == true, "\(run.out)")
        #expect(rows.filter { $0.contains(" track ") && $0.hasSuffix("  agreed") }.count == 3, "\(run.out)")
        #expect(rows.filter { $0.contains(" track ") && $0.hasSuffix("  lost") }.count == 1, "\(run.out)")
        #expect(run.out.contains("against the receipt logs: 0 elsewhere, 1 lost, 0 duplicate, 0 unconfirmed, 0 late, 3 agreed, 0 not judged"), "the totals are of the rows shown")
        let json = ReplayHarness.run(["audit", "--json", "--call", "track", scene.journal, "--received", log])
        #expect(json.out.split(separator: "\n").filter { $0.hasSuffix(#","received":"lost"}"#) }.count == 1, "\(json.out)")
        let plain = ReplayHarness.run(["audit", scene.journal])
        #expect(plain.status == 0 && !plain.out.contains("status  received") && !plain.out.contains("against the receipt logs"), "without --received, audit is as it was")
    }

    @Test("a missing log is a failure naming it (exit 2); a journal without --received is a usage error")
    func unreadable() throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(atPath: scene.directory) }
        let missing = scene.reconcile([scene.directory + "/nowhere.ndjson"])
        #expect(missing.status == 2 && missing.error.contains("nowhere.ndjson: no such file"), "\(missing.error)")
        let usage = ReplayHarness.run(["reconcile", scene.journal])
        #expect(usage.status == 2 && usage.error.contains("--received"), "\(usage.error)")
    }

    @Test("a journal with a gap: the gap is named, and a receipt in it is not judged, never counted as lost or unjournaled")
    func gap() throws {
        let scene = try Scene { store in
            store.fillDisk()
            store.call(.track(event: "in-the-gap", dataFields: nil))
            store.advance(byMilliseconds: 50)
            store.repairDisk()
            store.call(.track(event: "after", dataFields: nil))
            store.settle()
        }
        defer { try? FileManager.default.removeItem(atPath: scene.directory) }
        let log = try scene.write(scene.lines)
        let run = scene.reconcile([log])
        #expect(run.out.contains("not judged:"), "\(run.out)\(run.error)")
        #expect(run.out.contains("a gap of"), "\(run.out)")
        #expect(!run.out.contains("lost ") && !run.out.contains("unjournaled "), "\(run.out)")
    }

    @Test("--json rows are the schema's objects, member by member, for a call with many receipts, none, an unanswered one and an unjournaled receipt")
    func jsonRowsAreTheSchemas() throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(atPath: scene.directory) }
        var lines = scene.lines
        var again = lines[1]
        again.receivedAt = again.receivedAt.advanced(by: .milliseconds(-1))
        var unanswered = lines[2]
        unanswered.status = nil
        var stray = lines[0]
        stray.callID = WireCallID(high: 1, low: 2)
        lines.remove(at: 4)
        let log = try scene.write(lines + [again, unanswered, stray])
        let reconciler = JournalReconciler()
        try reconciler.reconcile(journals: [(scene.journal, try JournalReader(directory: scene.journal))], receiptLogs: [log])
        var verdicts: Set<ReconcileVerdict> = []
        reconciler.forEachRow { row in
            verdicts.insert(row.verdict)
            let written = ScratchBytes.withScratch { bytes in
                row.writeJSON(to: &bytes, of: reconciler)
                return String(decoding: bytes.written, as: UTF8.self)
            }
            #expect(written == Self.expectedJSON(row, reconciler).serialized())
        }
        #expect(verdicts == [.duplicate, .lost, .unjournaled, .agreed], "\(verdicts)")
    }

    /// The row as docs/RECONCILE.md's schema spells it, member by member.
    private static func expectedJSON(_ row: JournalReconciler.Row, _ reconciler: JournalReconciler) -> JSONValue {
        let labels = reconciler.labels
        var members: [(String, JSONValue)] = [("verdict", .string(row.verdict.rawValue))]
        if let call = row.call {
            members += [
                ("journal", .string(reconciler.journals[call.journal].path)),
                ("call_id", .string(call.callID.hex)),
                ("call", call.call.map { .string($0.uuid.uuidString.lowercased()) } ?? .null),
                ("task", .integer(Int64(call.task.number))),
                ("endpoint", .string(call.endpoint)),
                ("project", .string(call.project.hex)), ("label", labels.json(call.project)),
                ("journal_outcome", call.outcome.map { .string(Describe.taskOutcome($0)) } ?? .string("pending")),
                ("outcome_at", call.outcomeAt.map { .string($0.description) } ?? .null),
            ]
        } else {
            members += [
                ("journal", row.journal.map { .string(reconciler.journals[$0].path) } ?? .null),
                ("call_id", row.receiptCallID.map { .string($0.hex) } ?? .null),
                ("endpoint", row.endpoint.map(JSONValue.string) ?? .null),
            ]
        }
        members.append(("receipts", .array(row.receipts.map { receipt in
            .object([("project", .string(receipt.project.hex)), ("label", labels.json(receipt.project)),
                     ("status", receipt.status.map { .integer(Int64($0)) } ?? .null), ("duplicate", .bool(receipt.duplicate)),
                     ("received_at", .string(receipt.receivedAt.description)),
                     ("file", .string(reconciler.receiptFiles[receipt.file].path)), ("line", .integer(Int64(receipt.line)))])
        })))
        return .object(members)
    }
}

/// The demo's journal against the receipt log its sandbox wrote beside it.
@Suite("replay reconcile on the demo", .timeLimit(.minutes(2)))
struct DemoReconcileTests {
    @Test("the demo's journal and its sandbox's receipt log agree on every call, both switches' disables among them")
    func demoAgrees() throws {
        let directory = ReplayHarness.temporaryDirectory() + "/demo"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let demo = ReplayHarness.run(["demo", "--out", directory])
        #expect(demo.status == 0, "\(demo.error)")
        let run = ReplayHarness.run(["reconcile", "--all", directory, "--received", directory + "/received.ndjson"])
        #expect(run.status == 0, "\(run.out)\(run.error)")
        #expect(run.out.contains("11 call(s) in 1 journal(s), 11 receipt line(s) in 1 log(s): 0 elsewhere, 0 lost, 0 duplicate, 0 unconfirmed, 0 late, 0 unjournaled, 11 agreed"), "\(run.out)")
        #expect(run.out.split(separator: "\n").filter { $0.contains("SDK's own") && $0.contains("users/disableDevice") }.count == 2)
    }
}

/// The receipt-log fuzz target's harness on its committed seeds.
@Suite("receipt-log fuzz seeds", .timeLimit(.minutes(1)))
struct ReceiptLogFuzzSeedTests {
    @Test("every seed of the receipts corpus runs clean")
    func seeds() {
        let seeds = FuzzCorpus.seeds(of: "receipts", packageRoot: FuzzCorpus.packageRoot(fromTestFile: #filePath))
        #expect(seeds.count >= 9)
        for seed in seeds {
            #expect(ReceiptLogFuzzer.run(seed.bytes) == [], "\(seed.name)")
        }
    }
}
