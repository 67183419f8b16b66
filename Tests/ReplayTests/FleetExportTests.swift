import Foundation
import Journal
import FuzzHarness
import SDK
import SDKCore
import Testing
@testable import ReplayKit

/// `replay export` over many journals, and the flat fleet columns every NDJSON row carries.
@Suite("fleet export", .tags(.endToEnd), .timeLimit(.minutes(3)))
struct FleetExportTests {
    /// The rows of an NDJSON file, parsed.
    static func rows(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test("a folder of journals: one file per journal; a non-journal, a newer format and a corrupt segment are named, the others exported, exit 1",
          .timeLimit(.minutes(1)))
    func manyJournalsWithBadOnes() async throws {
        let demo = await DemoFixture.shared.journal().journal
        let fleet = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: fleet) }
        try FileManager.default.copyItem(atPath: demo, toPath: fleet + "/a-demo")
        try FileManager.default.copyItem(atPath: demo, toPath: fleet + "/b-demo")
        try FileManager.default.createDirectory(atPath: fleet + "/c-not-a-journal", withIntermediateDirectories: true)
        // A journal whose only segment says it is of format 2.
        let newer = try CraftedJournal(directory: fleet + "/d-newer")
        try newer.append(.notificationReceived("foreground"))
        try newer.close()
        let newerSegment = fleet + "/d-newer/segment-00000000000000000001.lz4"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: newerSegment))
        bytes[12] = 2
        bytes[14] = 0   // minor version 0: "format 2.0"
        let contentSize = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        let checksum = XXHash32.hash(Array(bytes[8..<(8 + contentSize - 4)]))
        for index in 0..<4 { bytes[8 + contentSize - 4 + index] = UInt8(truncatingIfNeeded: checksum >> UInt32(8 * index)) }
        try bytes.write(to: URL(fileURLWithPath: newerSegment))
        // A journal whose first (sealed) segment is damaged in the middle.
        try ReplayHarness.writeRawJournal(at: fleet + "/e-corrupt", records: 200)
        let sealed = fleet + "/e-corrupt/" + (try FileManager.default.contentsOfDirectory(atPath: fleet + "/e-corrupt").sorted().first { $0.hasSuffix(".lz4") } ?? "")
        var damaged = try Data(contentsOf: URL(fileURLWithPath: sealed))
        damaged[damaged.count / 2] ^= 0xFF
        try damaged.write(to: URL(fileURLWithPath: sealed))

        let output = ReplayHarness.temporaryDirectory() + "/out"
        defer { try? FileManager.default.removeItem(atPath: (output as NSString).deletingLastPathComponent) }
        let run = ReplayHarness.run(["export", "--redact", "--format", "ndjson", "-o", output, fleet])
        #expect(run.status == 1, "\(run.out) \(run.error)")
        for bad in ["c-not-a-journal", "d-newer", "e-corrupt"] {
            #expect(run.error.contains(fleet + "/" + bad), "\(bad) is not named: \(run.error)")
        }
        #expect(run.error.contains("format 2.0"), "\(run.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output).sorted() == ["a-demo.ndjson", "b-demo.ndjson"])
        let single = ReplayHarness.temporaryDirectory() + "/demo.ndjson"
        defer { try? FileManager.default.removeItem(atPath: (single as NSString).deletingLastPathComponent) }
        #expect(ReplayHarness.run(["export", "--redact", "--format", "ndjson", "-o", single, demo]).status == 0)
        let expected = try Self.rows(single)
        for name in ["a-demo", "b-demo"] {
            let rows = try Self.rows(output + "/" + name + ".ndjson")
            #expect(rows.count == expected.count)
            #expect(rows.allSatisfy { Set(FleetColumns.names).isSubset(of: $0.keys) }, "every row has every fleet column")
            #expect(rows.allSatisfy { $0["sdk_version"] as? String == EngagementSDK.version && $0["platform"] as? String != nil })
        }
        // --single-file: the good journals' rows in one file, none of the bad ones'.
        let combined = ReplayHarness.temporaryDirectory() + "/all.ndjson"
        defer { try? FileManager.default.removeItem(atPath: (combined as NSString).deletingLastPathComponent) }
        let one = ReplayHarness.run(["export", "--redact", "--format", "ndjson", "--single-file", "-o", combined,
                                     fleet + "/a-demo", fleet + "/e-corrupt", fleet + "/b-demo"])
        #expect(one.status == 1 && one.error.contains(fleet + "/e-corrupt"))
        #expect(try Self.rows(combined).count == 2 * expected.count)
        #expect(try FileManager.default.contentsOfDirectory(atPath: (combined as NSString).deletingLastPathComponent) == ["all.ndjson"],
                "no part file is left")
    }

    @Test("many journals as redacted journals: one directory each, each readable; --single-file needs NDJSON")
    func manyJournalsAsJournals() async throws {
        let demo = await DemoFixture.shared.journal().journal
        let output = ReplayHarness.temporaryDirectory() + "/copies"
        defer { try? FileManager.default.removeItem(atPath: (output as NSString).deletingLastPathComponent) }
        let run = ReplayHarness.run(["export", "--redact", "-o", output, demo, demo])
        #expect(run.status == 0, "\(run.error)")
        let name = (demo as NSString).lastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: output).sorted() == [name, name + "-2"])
        for copy in [name, name + "-2"] {
            #expect(ReplayHarness.run(["check", output + "/" + copy]).status == 0)
        }
        let refused = ReplayHarness.run(["export", "--redact", "--single-file", "-o", output + "/x", demo, demo])
        #expect(refused.status == 2 && refused.error.contains("--format ndjson"))
    }

    @Test("fleet columns: the producer parsed, labels learned from ProjectRefs, subjects and outcomes flat")
    func columns() throws {
        #expect(FleetColumns.parse(producer: "engagement-sdk/0.1.0 linux-x86_64") == ("0.1.0", "linux-x86_64"))
        #expect(FleetColumns.parse(producer: "replay export (redacted) of engagement-sdk/2.3.1 darwin-arm64") == ("2.3.1", "darwin-arm64"))
        #expect(FleetColumns.parse(producer: "replay-tests") == (nil, nil))

        let directory = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var us = CraftedJournal.project(key: "us-key", region: "us")
        us.label = "US shop"
        let journal = try CraftedJournal(directory: directory + "/journal")
        try journal.append(.callReceived(CraftedJournal.received(1, .initialize(us))))
        try journal.append(.initialized(project: us, generation: 1))
        try journal.append(.callResolved(call: CraftedJournal.call(1), outcome: .applied(project: us.fingerprint)))
        try journal.append(.callReceived(CraftedJournal.received(2, .track(event: "e", dataFields: nil))))
        try journal.append(.callResolved(call: CraftedJournal.call(2), outcome: .discarded(.purgedByLogout)))
        try journal.close()
        let output = directory + "/out.ndjson"
        #expect(ReplayHarness.run(["export", "--redact", "--format", "ndjson", "-o", output, directory + "/journal"]).status == 0)
        let rows = try Self.rows(output)
        let resolved = rows.filter { $0["kind"] as? String == "callResolved" }
        #expect(resolved.count == 2)
        #expect(resolved.first?["row_project"] as? String == us.fingerprint.hex)
        #expect(resolved.first?["row_project_label"] as? String == "US shop")
        #expect(resolved.last?["live_project_label"] as? String == "US shop")
        #expect(resolved.last?["call_name"] as? String == "track")
        #expect(resolved.last?["outcome_status"] as? String == "discarded")
        #expect(resolved.last?["outcome_reason"] as? String == "purged_by_logout")
        #expect(rows.allSatisfy { $0["journal_id"] as? String == "5EED0000-0000-4000-8000-000000000002" && $0["day"] as? String == "2025-11-24" })
    }

    @Test("delivery columns: the wire call ids of the demo's delivery rows are the ones its projects received, with region and path")
    func deliveryColumns() async throws {
        let demo = await DemoFixture.shared.journal().journal
        let output = ReplayHarness.temporaryDirectory() + "/demo.ndjson"
        defer { try? FileManager.default.removeItem(atPath: (output as NSString).deletingLastPathComponent) }
        #expect(ReplayHarness.run(["export", "--redact", "--format", "ndjson", "-o", output, demo]).status == 0)
        let rows = try Self.rows(output)
        func ids(_ kinds: Set<String>) -> [String] {
            rows.filter { kinds.contains($0["kind"] as? String ?? "") }.flatMap { $0["wire_call_ids"] as? [String] ?? [] }
        }
        let queued = ids(["taskQueued", "eventBatched"])
        #expect(Set(queued).count == queued.count, "each call queued once")
        #expect(queued.allSatisfy { WireCallID(hex: $0) != nil })
        #expect(Set(ids(["taskCompleted", "eventsExpired"])).isSubset(of: Set(queued)))
        let received = try String(contentsOfFile: demo + "/received.ndjson", encoding: .utf8).split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["call_id"] as? String
        }
        #expect(!received.isEmpty && Set(received.compactMap { $0 }).isSubset(of: Set(queued)), "every receipt names a call the export names")
        for row in rows {
            let delivery = ["taskQueued", "eventBatched", "taskCompleted", "eventsExpired"].contains(row["kind"] as? String ?? "")
            #expect((row["wire_call_ids"] is NSNull) != delivery, "seq \(row["seq"] ?? "?")")
            if delivery { #expect(["us", "eu"].contains(row["task_region"] as? String ?? "") && row["task_endpoint"] is String) }
        }
    }

    @Test("a journal copy keeps the journal's id: it reconciles against the backend's receipt log as the original does")
    func journalCopyReconciles() async throws {
        let demo = await DemoFixture.shared.journal().journal
        let copy = ReplayHarness.temporaryDirectory() + "/copy"
        defer { try? FileManager.default.removeItem(atPath: (copy as NSString).deletingLastPathComponent) }
        #expect(ReplayHarness.run(["export", "--redact", "-o", copy, demo]).status == 0)
        #expect(try JournalReader(directory: copy).journalID == JournalReader(directory: demo).journalID)
        let original = ReplayHarness.run(["reconcile", demo, "--received", demo + "/received.ndjson"])
        let copied = ReplayHarness.run(["reconcile", copy, "--received", demo + "/received.ndjson"])
        #expect(original.status == 0 && copied.status == 0, "\(copied.out.suffix(400))\(copied.error)")
        #expect(copied.out.contains(" agreed") && !copied.out.contains(" 0 agreed"))
        #expect(copied.out.split(separator: "\n").last == original.out.split(separator: "\n").last)
    }

    /// A fact's row names the call, task and switch the fact declares as fields of its own, so
    /// that SQL grouping a call's, task's or switch's rows finds every row about it.
    @Test("every kind of fact: its row's call_id, task_id and switch_id hold the call, task and switch it declares")
    func subjectsFollowTheDeclarations() async throws {
        let state = SDKState()
        var fleet = FleetColumns(reader: try JournalReader(directory: await DemoFixture.shared.journal().journal))
        var checked = 0
        for fact in SampleFacts.all {
            let record = DecodedRecord(sequence: 1, time: state.time, kind: UInt32(FactCodec.kind(of: fact)), payloadBytes: 0, content: .fact(fact))
            let line = ScratchBytes.withScratch { bytes in
                fleet.write(for: record, before: state, time: record.time.description, to: &bytes)
                return "{" + String(decoding: bytes.written.dropFirst(), as: UTF8.self) + "}"
            }
            let row = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            fact.forEachField { field, value in
                switch value {
                case .call(let call):
                    #expect(row["call_id"] as? String == call.uuid.lowercasedText, "\(fact): its \(field.key) in call_id")
                case .task(let task):
                    #expect((row["task_id"] as? NSNumber)?.uint64Value == task.number, "\(fact): its \(field.key) in task_id")
                case .switchID(let id):
                    #expect((row["switch_id"] as? NSNumber)?.uint64Value == id.number, "\(fact): its \(field.key) in switch_id")
                default:
                    return
                }
                checked += 1
            }
        }
        #expect(checked >= 20)
    }

    /// The export writes a row's columns from the record as recorded, on the walking thread, and
    /// redacts the record on the writing thread: what redaction changes must never show in them.
    @Test("the fleet columns of a record and of its redacted copy are the same bytes, for the demo journal and every kind of fact")
    func columnsIgnoreRedaction() async throws {
        let redactor = Redactor(hash: try KeyedHash.random())
        func columns(_ record: DecodedRecord, _ fleet: inout FleetColumns, _ state: SDKState) -> String {
            ScratchBytes.withScratch { bytes in
                fleet.write(for: record, before: state, time: record.time.description, to: &bytes)
                return String(decoding: bytes.written, as: UTF8.self)
            }
        }
        func redacted(_ record: DecodedRecord) -> DecodedRecord {
            var copy = record
            if case .fact(let fact) = record.content { copy.content = .fact(redactor.redact(fact)) }
            if case .snapshot(let state) = record.content { copy.content = .snapshot(redactor.redact(state)) }
            return copy
        }
        let reader = try JournalReader(directory: await DemoFixture.shared.journal().journal)
        var plain = FleetColumns(reader: reader), redactedColumns = FleetColumns(reader: reader)
        let walk = try JournalWalk(reader: reader)
        var compared = 0
        while let record = try walk.next() {
            #expect(columns(record, &plain, walk.state) == columns(redacted(record), &redactedColumns, walk.state), "seq \(record.sequence)")
            walk.fold(record)
            compared += 1
        }
        #expect(compared > 100)
        for fact in SampleFacts.all {
            let record = DecodedRecord(sequence: 1, time: walk.state.time, kind: UInt32(FactCodec.kind(of: fact)), payloadBytes: 0, content: .fact(fact))
            #expect(columns(record, &plain, walk.state) == columns(redacted(record), &redactedColumns, walk.state), "\(fact)")
        }
    }
}
