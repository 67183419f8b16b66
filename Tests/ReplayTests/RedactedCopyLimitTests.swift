import Foundation
import Journal
import SDK
import Testing

/// `replay export --redact` of a journal whose queue redaction grows past the largest record:
/// the copy is written, its snapshot in summary with a gap after it, and reads back.
@Suite("redacted copy within the record limit", .timeLimit(.minutes(2)))
struct RedactedCopyLimitTests {
    @Test("a queue of one-letter values: the redacted snapshot is written in summary, a gap says so, check reads the copy")
    func bigQueue() throws {
        let root = ReplayHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let time = JournalTime(microsecondsSince1970: 1_764_000_000_000_000)
        var state = SDKState()
        let body = Array(("{" + (0..<100).map { "\"k\($0)\":\"v\"" }.joined(separator: ",") + "}").utf8)
        for number in 1...UInt64(2_000) {
            state.evolve(.taskQueued(DeliveryTask(id: TaskID(number), call: nil, project: ProjectFingerprint(apiKey: "key"), region: "us",
                                                  endpoint: "https://api.example.com/", path: "events/track", method: .post, query: nil,
                                                  body: body, createdAt: time)), at: time)
        }
        var options = JournalOptions()
        options.maxRecordBytes = SegmentFormat.maxRecordBytesLimit
        options.retainedBytes = nil
        let snapshot = StateCodec.encode(state)
        let writer = try JournalWriter(directory: root + "/journal", options: options, snapshot: { _ in snapshot })
        var bundle = RecordBundle()
        FactCodec.append(.networkReachable, to: &bundle)
        _ = try writer.appendBundle(bundle, timestamp: time)
        try writer.close()

        let run = ReplayHarness.run(["export", "--redact", "-o", root + "/copy", root + "/journal"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.contains("1 record(s) were over the copy's record limit once redacted and were written in summary"))
        let cursor = try JournalReader(directory: root + "/copy").records()
        var kinds: [UInt32] = []
        while let record = try cursor.next() {
            #expect(record.payload.count <= SegmentFormat.maxRecordBytesLimit)
            kinds.append(record.kind)
        }
        #expect(kinds.count == 3 && kinds[1] == FactKind.journalGap.rawValue)
        #expect(ReplayHarness.run(["check", root + "/copy"]).status == 0)
    }
}
