import Foundation
import Journal
import SDK
import SDKCore
import Testing
@testable import ReplayKit

/// `audit` writes each row's line as bytes (`AuditRow.writeLine(to:)`): they must be the line
/// that padding each column's text to its width in characters gives, for every row of the golden
/// journals and for the rows whose columns are not plain ASCII of the usual widths.
@Suite("audit lines written as bytes", .timeLimit(.minutes(1)))
struct AuditRowLineTests {
    /// The line as columns of strings padded by `String.count`: what the bytes must spell.
    private static func padded(_ row: AuditRow) -> String {
        func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
            let padding = String(repeating: " ", count: max(0, width - text.count))
            return right ? padding + text : text + padding
        }
        let sequence = row.received.map { String($0.sequence) } ?? "-"
        return pad(sequence, 6, right: true) + "  " + pad(row.madeAt.description, 27) + "  " + pad(row.call.description, 8)
            + "  " + pad(row.name.rawValue, 14) + "  " + pad(row.labels.name(row.liveAtCall), 19) + "  " + pad(row.gateText, 26)
            + "  " + pad(row.labels.name(row.deliveredTo), 19) + "  " + row.statusText
    }

    @Test("every row of every golden journal: the padded columns' line", arguments: ["demo", "multi-segment", "crash-mid-switch"])
    func sameLineAsPaddedColumns(journal name: String) throws {
        let copy = try GoldenJournals.copy(name)
        defer { GoldenJournals.remove(copy) }
        let rows = try AuditRows.of(try JournalReader(directory: copy)).rows
        #expect(!rows.isEmpty)
        for row in rows {
            #expect(row.line == Self.padded(row))
        }
    }

    @Test("labels of other scripts and of every length, long sequences, far times, several decisions, a negative status")
    func columnsThatAreNotPlain() throws {
        let copy = try GoldenJournals.copy("demo")
        defer { GoldenJournals.remove(copy) }
        let rows = try AuditRows.of(try JournalReader(directory: copy)).rows
        let projects = Set(rows.compactMap(\.deliveredTo))
        #expect(!projects.isEmpty)
        let labels = ["", "É", "Ünïcødé brand", "日本のプロジェクト", "👩‍👩‍👧‍👦 family", String(repeating: "x", count: 19), String(repeating: "y", count: 40)]
        var checked = 0
        for (index, label) in labels.enumerated() {
            for var row in rows.prefix(40) {
                var named = ProjectLabels()
                for project in projects {
                    named.learn(ProjectRef(fingerprint: project, region: "eu", endpoint: "x", usesJWT: false, retry: RetryRules(), label: label))
                }
                row.labels = named
                switch index % 4 {
                case 0: row.received = row.received.map { (sequence: $0.sequence * 1_000_003, time: $0.time) }
                case 1: row.received = nil
                case 2: row.madeAt = JournalTime(microsecondsSince1970: 15_000 * 365 * 86_400 * 1_000_000)
                default: row.decisions.append(contentsOf: ["queued behind s1 at #2", label])
                }
                if index == 3, case .delivered(let project, _)? = row.outcome { row.outcome = .delivered(project: project, status: -7) }
                #expect(row.line == Self.padded(row))
                checked += 1
            }
        }
        #expect(checked == labels.count * min(rows.count, 40))
    }
}
