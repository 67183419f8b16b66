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
    @Test("every row of every golden journal: the same bytes as its JSON value", arguments: ["demo", "multi-segment", "crash-mid-switch"])
    func sameBytesAsTheValue(journal name: String) throws {
        let copy = try GoldenJournals.copy(name)
        defer { GoldenJournals.remove(copy) }
        let rows = try AuditRows.of(try JournalReader(directory: copy)).rows
        #expect(!rows.isEmpty)
        for row in rows {
            let written = ScratchBytes.withScratch { bytes in
                row.writeJSON(to: &bytes)
                return String(decoding: bytes.written, as: UTF8.self)
            }
            #expect(written == row.json.serialized())
        }
    }
}
