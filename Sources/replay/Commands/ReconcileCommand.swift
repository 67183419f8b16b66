import Foundation
import Journal
import ReplayKit
import SDK

/// `replay reconcile`: each call the journals hold against what the projects received.
struct ReconcileCommand: Command {
    static let name = "reconcile"
    static let summary = "every call against the backends' receipt logs: agreed, lost, duplicate, elsewhere, …"
    static let help = """
        usage: replay reconcile [--json] [--all] [--whole] [--window MS] [--clock-skew MS] [--salvage] <journal>... --received <file>...

        Matches what the journals say each project received with what the projects say they
        received (receipt logs: NDJSON, one line per call received, docs/RECONCILE.md), call
        by call, by the id each call carries on the wire (`callId`). One verdict per call:

          elsewhere    another project than the journal names received it (listed first)
          lost         the journal says delivered; the project has no receipt of it
          duplicate    the project took it more than once
          unconfirmed  the journal says failed, discarded or pending; the project has it
          late         the project received it after the journal's outcome
          unjournaled  a receipt of a journal's stream that no journal call explains
          agreed       both sides tell the same story

        Text lists every verdict but agreed (--all lists those too), worst first, then totals
        per verdict and per project; --json prints one object per call, then a summary. Gaps,
        erased ranges and what retention dropped are named; a call or receipt that falls in one
        is not judged, never counted as lost. Bad input (a malformed line, an unknown project,
        another device's log, an unreadable record) is named by file and line or sequence on
        standard error and skipped; the rest is judged. Exit 1 on any verdict but agreed, or on
        bad input; 2 when a journal or a log cannot be read at all.

          --received F...  the receipt logs: every argument after it up to the next option
                           (so put it after the journals), or --received=F (repeatable)
          --clock-skew MS  a receipt up to MS milliseconds after the journal's outcome is not
                           late: the backend's clock and the device's differ (default 0)
          --all            list agreed calls too (text)
          --window MS      how far the backend's clock and the devices' may differ, and the
                           logs stray from time order, for the one pass over journals and
                           logs (default 60000, at least --clock-skew): calls are let go that
                           long after their outcome; what falls outside costs memory, never
                           a verdict
          --whole          read the journals whole before the logs (memory by the journals'
                           calls) instead of both in one pass in time order (memory by the
                           calls in flight): the same verdicts, agreed calls in journal order
          --json           one JSON object per call (NDJSON), then one {"summary": …}
        \(SalvageOption.help(column: 19))
                           (the records lost are a hole: what falls in it is not judged)
        """

    let journals: [String]
    let receiptLogs: [String]
    let json: Bool
    let all: Bool
    let clockSkewMicroseconds: Int64
    let whole: Bool
    let windowMicroseconds: Int64
    let salvage: SalvageOption
    static let takesSalvage = true

    init(arguments: inout Arguments) throws(UsageError) {
        receiptLogs = try arguments.optionList("--received")
        guard !receiptLogs.isEmpty else { throw UsageError("--received needs at least one receipt log") }
        clockSkewMicroseconds = try Self.microseconds(of: "--clock-skew", &arguments) ?? 0
        json = arguments.flag("--json")
        all = arguments.flag("--all")
        whole = arguments.flag("--whole")
        windowMicroseconds = try Self.microseconds(of: "--window", &arguments) ?? JournalReconciler.streamingWindowMicroseconds
        salvage = SalvageOption(arguments: &arguments)
        var paths = [try arguments.positional("journal directory")]
        while let more = arguments.optionalPositional() { paths.append(more) }
        journals = FleetExport.journalPaths(paths)
    }

    /// Parses option `name`, milliseconds (0 or more, a usage error otherwise), as microseconds.
    private static func microseconds(of name: String, _ arguments: inout Arguments) throws(UsageError) -> Int64? {
        try arguments.option(name, as: "milliseconds (0 or more)") { Int64($0).flatMap { $0 >= 0 && $0 < Int64.max / 1000 ? $0 * 1000 : nil } }
    }

    func run(console: Console) throws -> ExitStatus {
        let reconciler = JournalReconciler(clockSkewMicroseconds: clockSkewMicroseconds)
        if whole {
            for path in journals {
                console.progress("reading \(path)")
                let reader = try JournalSource.open(path, console: console, readMode: salvage.readMode())
                try reconciler.addJournal(path: path, reader: reader)
            }
            for path in receiptLogs {
                console.progress("matching \(path)")
                do throws(ReceiptLogError) {
                    try reconciler.addReceipts(path: path)
                } catch {
                    console.clearProgress()
                    console.printError("replay \(Self.name): \(error.path.isEmpty ? path + ": " + error.problem : error.description)")
                    return .failure
                }
            }
        } else {
            var sources: [(path: String, reader: JournalReader)] = []
            for path in journals { sources.append((path, try JournalSource.open(path, console: console, readMode: salvage.readMode()))) }
            console.progress("matching \(journals.count) journal(s) with \(receiptLogs.count) receipt log(s)")
            do {
                try reconciler.reconcile(journals: sources, receiptLogs: receiptLogs, windowMicroseconds: windowMicroseconds)
            } catch let error as ReceiptLogError {
                console.clearProgress()
                console.printError("replay \(Self.name): \(error.description)")
                return .failure
            }
        }
        console.clearProgress()
        for problem in reconciler.problems { console.printError("replay \(Self.name): \(problem)") }
        var totals: [ReconcileVerdict: Int] = [:]
        var perProject: [ProjectFingerprint: [ReconcileVerdict: Int]] = [:]
        let labels = reconciler.labels
        var listed = 0
        // Row by row, as verdicts are found: the calls are not copied into a list first.
        reconciler.forEachRow { row in
            totals[row.verdict, default: 0] += 1
            if let project = row.project { perProject[project, default: [:]][row.verdict, default: 0] += 1 }
            if json {
                console.printLine { row.writeJSON(to: &$0, of: reconciler) }
            } else if all || row.verdict != .agreed {
                listed += 1
                console.print(Self.line(row, reconciler))
            }
        }
        let notJudged = reconciler.callsInHoles.count + reconciler.notJudgedReceipts.count
        if json {
            console.print(JSONValue.object([("summary", .object([
                ("calls", .integer(Int64(reconciler.callCount))),
                ("verdicts", .object(ReconcileVerdict.allCases.map { ($0.rawValue, .integer(Int64(totals[$0] ?? 0))) })),
                ("projects", .object(perProject.sorted { $0.key < $1.key }.map { project, counts in
                    (project.hex, .object([("label", labels.json(project))]
                                          + ReconcileVerdict.allCases.map { ($0.rawValue, .integer(Int64(counts[$0] ?? 0))) }))
                })),
                ("not_judged", .integer(Int64(notJudged))),
                ("holes", .array(reconciler.holes.map { .string($0.what) })),
                ("receipt_logs", .array(reconciler.receiptFiles.map { file in
                    .object([("path", .string(file.path)), ("lines", .integer(Int64(file.lines))),
                             ("matched", .integer(Int64(file.matched))), ("unjournaled", .integer(Int64(file.unjournaled))),
                             ("not_judged", .integer(Int64(file.notJudged))), ("other_installs", .integer(Int64(file.foreign))),
                             ("malformed", .integer(Int64(file.malformed)))])
                })),
                ("problems", .integer(Int64(reconciler.problems.count))),
            ]))]).serialized())
        } else {
            if listed > 0 { console.print() }
            console.print("\(Format.count(reconciler.callCount)) call(s) in \(journals.count) journal(s), "
                          + "\(Format.count(reconciler.receiptFiles.reduce(0) { $0 + $1.lines })) receipt line(s) in \(receiptLogs.count) log(s): "
                          + ReconcileVerdict.allCases.map { "\(Format.count(totals[$0] ?? 0)) \($0.rawValue)" }.joined(separator: ", "))
            for (project, counts) in perProject.sorted(by: { $0.key < $1.key }) {
                console.print("  \(labels.name(project)): "
                              + ReconcileVerdict.allCases.filter { counts[$0] != nil }.map { "\(Format.count(counts[$0]!)) \($0.rawValue)" }.joined(separator: ", "))
            }
            for file in reconciler.receiptFiles where file.foreign > 0 {
                console.print("  \(file.path): \(Format.count(file.foreign)) receipt(s) of other installs, not judged")
            }
            if notJudged > 0 {
                console.print("not judged: \(reconciler.callsInHoles.count) call(s) and \(reconciler.notJudgedReceipts.count) receipt(s) "
                              + "in gaps, erased ranges or before retention:")
                for hole in reconciler.holes { console.print("  " + hole.what) }
            }
        }
        let findings = totals.contains { $0.key != .agreed && $0.value > 0 } || !reconciler.problems.isEmpty
        return findings ? .findings : .ok
    }

    /// One row as a line of text.
    private static func line(_ row: JournalReconciler.Row, _ reconciler: JournalReconciler) -> String {
        let labels = reconciler.labels
        var parts = [row.verdict.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)]
        if let call = row.call {
            parts.append(call.callID.hex.prefix(12) + "")
            parts.append(call.call.map { "call \($0)" } ?? "SDK's own")
            parts.append("\(call.task) \(call.endpoint) to \(labels.name(call.project)):")
            parts.append(call.outcome.map { "journal \(Describe.taskOutcome($0))" + (call.outcomeAt.map { " at \($0)" } ?? "") } ?? "journal pending")
        } else {
            parts.append(row.receiptCallID.map { $0.hex.prefix(12) + "" } ?? "-")
            parts.append("no call in \(row.journal.map { reconciler.journals[$0].path } ?? "any journal"): \(row.endpoint ?? "?")")
        }
        let receipts = row.receipts.map { receipt in
            "\(labels.name(receipt.project)) \(receipt.status.map(String.init) ?? "no answer")\(receipt.duplicate ? " (re-send)" : "") at \(receipt.receivedAt) "
                + "(\(reconciler.receiptFiles[receipt.file].path):\(receipt.line))"
        }
        parts.append("| received: " + (receipts.isEmpty ? "none" : receipts.joined(separator: "; ")))
        return parts.joined(separator: " ")
    }
}
