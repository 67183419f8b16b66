import Foundation
import Journal
import SDK
import SDKCore
import Testing
@testable import ReplayKit

/// `audit --json` writes each row's bytes directly (`AuditRow.writeJSON(to:)`): they must be the
/// bytes of serializing the row's JSON value, for every kind of row the golden journals hold.
@Suite("audit rows written as bytes", .timeLimit(.minutes(1)))
struct AuditRowJSONTests {
    @Test("every row of every golden journal, as it is and crossing or ending in lost records: the same bytes as its JSON value", arguments: ["demo", "multi-segment", "crash-mid-switch"])
    func sameBytesAsTheValue(journal name: String) throws {
        let copy = try GoldenJournals.copy(name)
        defer { GoldenJournals.remove(copy) }
        let rows = try AuditRows.of(try JournalReader(directory: copy)).rows
        #expect(!rows.isEmpty)
        // Each row as it is, and as a walk past damage may hand it out: pending across lost
        // records (its status says so), or lost.
        for row in rows {
            var crossed = row, lost = row
            crossed.historyLostBefore = 929
            lost.lostBefore = 929
            for row in [row, crossed, lost] {
                let written = ScratchBytes.withScratch { bytes in
                    row.writeJSON(to: &bytes)
                    return String(decoding: bytes.written, as: UTF8.self)
                }
                #expect(written == row.json.serialized())
            }
            #expect(crossed.json.serialized().hasSuffix(",\"history_lost_before\":929}"))
            #expect(crossed.line.hasSuffix("; part of its history lay in records lost to damage (resumed at 929)"))
            #expect(crossed.statusText == row.statusText + "; part of its history lay in records lost to damage (resumed at 929)")
        }
    }
}
