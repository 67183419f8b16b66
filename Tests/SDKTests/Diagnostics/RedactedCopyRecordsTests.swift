import Foundation
import Journal
import SDKTesting
import Testing
@testable import SDK
@testable import SDKCore

/// A redacted copy's records fit its record limit, however much redaction grows them: over it,
/// a record is written in summary (or, a fact, left out) and a `journalGap` says so.
@Suite("redacted copies that fit", .timeLimit(.minutes(2)))
struct RedactedCopyRecordsTests {
    let redactor = Redactor(hash: KeyedHash(key: Array("fit".utf8)))
    static let time = JournalTime(microsecondsSince1970: 1_764_000_000_000_000)

    /// A body of `count` one-letter values: each becomes a token of about 20 bytes.
    static func body(_ count: Int) -> [UInt8] {
        Array(("{" + (0..<count).map { "\"k\($0)\":\"v\"" }.joined(separator: ",") + "}").utf8)
    }

    static func task(_ number: UInt64, body: [UInt8]) -> DeliveryTask {
        DeliveryTask(id: TaskID(number), call: nil, project: ProjectFingerprint(apiKey: "key"), region: "us", endpoint: "https://api.example.com/",
                     path: "events/track", method: .post, query: nil, body: body, createdAt: time)
    }

    /// A state whose queue holds `tasks` tasks of `values` one-letter values each.
    static func bigQueue(tasks: Int, values: Int) -> SDKState {
        var state = SDKState()
        for number in 1...UInt64(tasks) { state.evolve(.taskQueued(task(number, body: body(values))), at: time) }
        return state
    }

    @Test("a fact over the limit once redacted is written in summary with a gap after it; over it even then, only the gap")
    func facts() throws {
        let fact = Fact.taskQueued(Self.task(1, body: Self.body(200)))
        #expect(FactCodec.payload(of: fact).count < 4_000)
        var copy = RedactedCopyRecords(redactor: redactor, recordLimit: 4_000)
        let pair = copy.records(for: fact, at: Self.time, before: nil)
        let records = [pair.0] + (pair.1.map { [$0] } ?? [])
        #expect(records.count == 2 && copy.summarized == 1)
        for record in records { #expect(record.payload.count + RedactedCopyRecords.recordOverhead <= 4_000) }
        guard case .taskQueued(let summary) = try FactCodec.decode(kind: records[0].kind, payload: records[0].payload),
              case .journalGap(let gap) = try FactCodec.decode(kind: records[1].kind, payload: records[1].payload) else {
            Issue.record("not a task and a gap"); return
        }
        #expect(String(decoding: summary.body, as: UTF8.self).hasPrefix("\"body:"))
        #expect(gap.lostFacts == 0 && gap.reason.contains("in summary"))
        // A fact over the limit in summary too (ids are kept whole) is left out, and the gap
        // counts it.
        let ids = Fact.messagesStored(kind: .inApp, project: ProjectFingerprint(apiKey: "key"),
                                      ids: (0..<100).map { "message-\($0)-" + String(repeating: "x", count: 40) })
        var tight = RedactedCopyRecords(redactor: redactor, recordLimit: 1_000)
        let single = tight.records(for: ids, at: Self.time, before: nil)
        let only = [single.0] + (single.1.map { [$0] } ?? [])
        guard only.count == 1, case .journalGap(let lost) = try FactCodec.decode(kind: only[0].kind, payload: only[0].payload) else {
            Issue.record("not a gap alone"); return
        }
        #expect(lost.lostFacts == 1 && tight.leftOut == 1)
        // A record that fits is the redacted fact, as before.
        var roomy = RedactedCopyRecords(redactor: redactor, recordLimit: 1 << 20)
        let fitting = roomy.records(for: fact, at: Self.time, before: nil)
        #expect(fitting.0 == .init(kind: FactCodec.kind(of: fact), payload: FactCodec.payload(of: redactor.redact(fact))) && fitting.1 == nil)
    }

    @Test("a snapshot over the limit once redacted is written in summary, or as the empty state, with a gap")
    func snapshots() throws {
        let state = Self.bigQueue(tasks: 20, values: 50)
        let raw = StateCodec.encode(state).count
        var copy = RedactedCopyRecords(redactor: redactor, recordLimit: raw + 100)
        let (payload, gap) = copy.snapshot(of: state, at: Self.time)
        #expect(payload.count + RedactedCopyRecords.recordOverhead <= raw + 100 && gap != nil)
        #expect(try StateCodec.decode(payload).tasks.count == 20)
        var tight = RedactedCopyRecords(redactor: redactor, recordLimit: 200)
        let (empty, emptyGap) = tight.snapshot(of: state, at: Self.time)
        #expect(try StateCodec.decode(empty) == SDKState() && emptyGap != nil)
    }

    /// A journal whose snapshot is a queue that redaction grows past the largest record.
    static func writeBigQueueJournal(at path: String) throws -> Int {
        var options = JournalOptions()
        options.maxRecordBytes = SegmentFormat.maxRecordBytesLimit
        options.retainedBytes = nil
        let snapshot = StateCodec.encode(bigQueue(tasks: 2_000, values: 100))
        let writer = try JournalWriter(directory: path, options: options, snapshot: { _ in snapshot })
        var bundle = RecordBundle()
        FactCodec.append(.networkReachable, to: &bundle)
        _ = try writer.appendBundle(bundle, timestamp: time)
        try writer.sync()
        try writer.close()
        return snapshot.count
    }

    @Test("exportDiagnostics of a journal whose queue redaction grows past the record limit: the copy is written, in summary")
    func diagnostics() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("fit-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let raw = try Self.writeBigQueueJournal(at: root + "/journal")
        #expect(StateCodec.encode(redactor.redact(Self.bigQueue(tasks: 2_000, values: 100))).count > SegmentFormat.maxRecordBytesLimit,
                "the redacted snapshot (raw \(raw) bytes) does not outgrow the limit: the test proves nothing")
        let copier = DiagnosticsCopier(journalDirectory: root + "/journal", storage: PosixStorage(), destination: root + "/copy",
                                       byteBudget: 64 << 20, note: nil)
        let export = try copier.run()
        #expect(export.records == 3)
        let cursor = try JournalReader(directory: root + "/copy").records()
        var kinds: [UInt32] = []
        while let record = try cursor.next() {
            #expect(record.payload.count <= SegmentFormat.maxRecordBytesLimit)
            kinds.append(record.kind)
        }
        #expect(kinds.count == 3 && kinds[1] == FactKind.journalGap.rawValue)
        let manifest = try String(contentsOfFile: root + "/copy/diagnostics.json", encoding: .utf8)
        #expect(manifest.contains("written in summary"))
    }
}
