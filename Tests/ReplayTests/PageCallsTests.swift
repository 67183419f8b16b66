import Foundation
import Journal
import SDK
import Testing
@testable import ReplayKit

/// `PageCalls`: a notable call's drawing, kept by a page's pass as its row in a temporary file
/// and its `callReceived` record in the journal, reads back as the pass saw it.
@Suite("a page's kept calls", .timeLimit(.minutes(1)))
struct PageCallsTests {
    typealias J = CraftedJournal

    /// A journal of three calls received, each with the sequence of its `callReceived` record.
    private func journal() throws -> (path: String, reader: JournalReader, calls: [(ReceivedCall, UInt64)]) {
        let path = ReplayHarness.temporaryDirectory()
        let journal = try CraftedJournal(directory: path, segmentBytes: 8192)
        let calls = [J.received(1, .setEmail("ana@example.com")), J.received(2, .track(event: "Überweisung \"🚀\"", dataFields: nil)),
                     J.received(3, .flush)]
        let sequences = try calls.map { try journal.append(.callReceived($0)) }
        try journal.close()
        return (path, try JournalReader(directory: path), Array(zip(calls, sequences)))
    }

    /// The journal's record at `sequence`, as a walk reads it.
    private func record(_ reader: JournalReader, at sequence: UInt64) throws -> DecodedRecord? {
        let walk = try JournalWalk(reader: reader)
        while let record = try walk.next() {
            if record.sequence == sequence { return record }
        }
        return nil
    }

    /// The row of `call`, received at `sequence`: held by the gate and pending (notable on its
    /// own), or applied (kept only because a page's `notable` picked it).
    private func row(_ call: ReceivedCall, at sequence: UInt64, held: Bool) -> AuditRow {
        var row = AuditRow(call: call.id, name: call.call.name, received: (sequence, JournalTime(microsecondsSince1970: 5)),
                           madeAt: JournalTime(microsecondsSince1970: 3), liveAtCall: nil)
        if held {
            row.gate = [.decided(.queued(switch: SwitchID(1), position: 0, call: call))]
        } else {
            row.outcome = .applied(project: J.us.fingerprint)
        }
        return row
    }

    @Test("a drawing reads back as kept: its row, and its summary and record read again (the record only for a call notable on its own)")
    func drawingsReadBack() throws {
        let (path, reader, calls) = try journal()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let page = PageCalls(rereadingFrom: reader, redactor: nil)
        for (index, (call, sequence)) in calls.enumerated() {
            try page.keep(row(call, at: sequence, held: index != 1))
            let drawing = try page.drawing(of: try #require(page.notable.last))
            #expect(page.notable.last?.rowNotable == (index != 1))
            let record = try #require(try record(reader, at: sequence))
            #expect(drawing.summary == Describe.call(call.call))
            #expect(drawing.factJSON == (index != 1 ? FactJSON.object(record).serialized() : nil))
            #expect(drawing.statusText == row(call, at: sequence, held: index != 1).statusText)
            #expect(drawing.audit == row(call, at: sequence, held: index != 1).json)
            #expect(drawing.name == call.call.name.rawValue)
        }
        #expect(page.notable.count == calls.count)
    }

    @Test("a redacting pass's drawing is redacted as the pass saw the record")
    func redactedDrawing() throws {
        let (path, reader, calls) = try journal()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let redactor = Redactor(hash: KeyedHash(key: Array(repeating: 7, count: 32)))
        let page = PageCalls(rereadingFrom: reader, redactor: redactor)
        let (call, sequence) = calls[0]
        try page.keep(row(call, at: sequence, held: true))
        let drawing = try page.drawing(of: try #require(page.notable.first))
        #expect(!drawing.summary.contains("ana@example.com") && !(drawing.factJSON ?? "ana@example.com").contains("ana@example.com"))
        guard case .callReceived(let redacted) = redactor.redact(Fact.callReceived(call)) else { Issue.record("not a call"); return }
        #expect(drawing.summary == Describe.call(redacted.call))
    }

    @Test("a row cut short, or a record the journal no longer holds, is an error that says which, not a drawing")
    func failures() throws {
        let (path, reader, calls) = try journal()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let page = PageCalls(rereadingFrom: reader, redactor: nil)
        try page.keep(row(calls[2].0, at: calls[2].1, held: true))
        var key = try #require(page.notable.first)
        for length in [0, 3, 6] {
            key.length = UInt32(length)
            let error = #expect(throws: SpillError.self) { try page.drawing(of: key) }
            #expect(error.map { "\($0)" }?.contains("report-marks") == true, "\(String(describing: error))")
        }
        key = try #require(page.notable.first)
        key.sequence = 9
        let error = #expect(throws: SpillError.self) { try page.drawing(of: key) }
        #expect(error.map { "\($0)" }?.contains("no longer holds record 9") == true, "\(String(describing: error))")
    }
}
