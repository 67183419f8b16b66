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
                default: row.gate.append(contentsOf: [.routed(SwitchID(7), .enqueued(behind: SwitchID(6))), .rejected])
                }
                if index == 3, case .delivered(let project, _)? = row.outcome { row.outcome = .delivered(project: project, status: -7) }
                #expect(row.line == Self.padded(row))
                checked += 1
            }
        }
        #expect(checked == labels.count * min(rows.count, 40))
    }

    /// What `audit --json` writes for `row` (`AuditRow.writeJSON(to:)`).
    private static func writtenJSON(_ row: AuditRow) -> String {
        ScratchBytes.withScratch { bytes in
            row.writeJSON(to: &bytes)
            return String(decoding: bytes.written, as: UTF8.self)
        }
    }

    @Test("the gate's words: each step's own, a queueing and the replay right after it as one, names kept apart")
    func gateWords() throws {
        let us = ProjectFingerprint(hex: String(repeating: "1", count: 16))!
        let received = ReceivedCall(id: CallID(UUID()), caller: 1, call: .setEmail("a@example.com"))
        var row = AuditRow(call: received.id, name: .setEmail, received: nil, madeAt: JournalTime(microsecondsSince1970: 0), liveAtCall: nil)
        #expect(row.gateText == "-" && row.gateDetails.isEmpty && row.gateNames.isEmpty)
        let queued = AuditRow.GateStep.decided(.queued(switch: SwitchID(1), position: 0, call: received))
        // The replay says the switch that replayed the call, said with the queueing it follows.
        row.gate = [queued, .decided(.replayed(switch: SwitchID(2), project: us))]
        #expect(row.gateDetails == ["queued s2, replayed"])
        #expect(row.gateNames == ["queued", "replayed"])
        #expect(row.gateText == "queued s2, replayed")
        // A second replay, and one that follows no queueing, is said on its own.
        row.gate.append(.decided(.replayed(switch: SwitchID(3), project: us)))
        #expect(row.gateDetails == ["queued s2, replayed", "replayed by s3 on \(us)"])
        row.gate = [.decided(.replayed(switch: SwitchID(3), project: us)), queued, .decided(.executed(project: us)), .rejected]
        #expect(row.gateDetails == ["replayed by s3 on \(us)", "queued s1", "executed", "rejected"])
        #expect(row.gateText == row.gateDetails.joined(separator: ", "))
        #expect(row.gateNames == ["replayed", "queued", "executed", "rejected"])
        let routings: [(SwitchRouting, String, String)] = [
            (.started, "s4 started", "started"), (.absorbed(into: SwitchID(2)), "absorbed into s2", "absorbed"),
            (.enqueued(behind: SwitchID(3)), "s4 behind s3", "enqueued"), (.noop, "noop", "noop"),
            (.initialization, "s4 initialization", "initialization"), (.moved(entry: SwitchID(1)), "moved s1 to the tail", "moved"),
        ]
        #expect(Self.writtenJSON(row) == row.json.serialized())
        for (routing, detail, name) in routings {
            row.gate = [.routed(SwitchID(4), routing)]
            #expect(row.gateDetails == [detail] && row.gateText == detail && row.gateNames == [name])
            #expect(Self.writtenJSON(row) == row.json.serialized())
        }
        row.gate = [queued, .decided(.replayed(switch: SwitchID(2), project: us)), .decided(.inline(project: us)), .decided(.refused)]
        #expect(row.gateText == "queued s2, replayed, inline, refused")
        #expect(Self.writtenJSON(row) == row.json.serialized())
        // A control call the gate never saw.
        var control = AuditRow(call: received.id, name: .switchProject, received: nil, madeAt: row.madeAt, liveAtCall: nil)
        #expect(control.gateText == "control")
        control.gate = [.routed(SwitchID(1), .started)]
        #expect(control.gateText == "s1 started")
    }
}
