import Journal
import ReplayKit
import SDK

/// `replay diagnose`: what happened in each switch, and why it reported what it reported.
struct DiagnoseCommand: Command {
    static let name = "diagnose"
    static let summary = "per switch: routing, teardown steps, disable durability, held calls, result"
    static let help = """
        usage: replay diagnose [--switch N] [--json] [--salvage] [--jobs J] <journal>...

        For every switch request: when it was requested (its switchRouted) and how it was
        routed (started, absorbed into another, enqueued, noop, initialization); each teardown
        step with its outcome and duration; whether the outgoing device's disable was confirmed
        durable before its bound; the calls the gate held and where they were replayed; the
        calls that ran inline during the window; the result and, when it has warnings, the
        steps with warnings' reasons. Anomalies are listed: a step that never finished, a switch that
        never landed, a held call never replayed, a result that contradicts its steps.

        Exit status: 0 when no switch shows an anomaly, 1 otherwise.

          --switch N   only switch N (as in s3, or just 3)
          --json       one JSON array of switch reports (with several journals: one line per
                       switch report, tagged with its journal)
        \(SalvageOption.help(column: 15))
        \(JournalList.help(column: 15, splitsSegments: true))
        """

    let journals: JournalList
    let only: UInt64?
    let json: Bool
    let salvage: SalvageOption
    static let takesSalvage = true

    init(arguments: inout Arguments) throws(UsageError) {
        salvage = SalvageOption(arguments: &arguments)
        only = try arguments.option("--switch", as: "a switch number such as 3 or s3") { text in
            UInt64(text.hasPrefix("s") ? String(text.dropFirst()) : text)
        }
        json = arguments.flag("--json")
        journals = try JournalList(arguments: &arguments)
    }

    func run(console: Console) throws -> ExitStatus {
        if let path = journals.single { return try answer(path, console: console, many: false, jobs: journals.jobs).status }
        return ManyJournals(command: Self.name, list: journals, json: json).run(console: console) { path, console in
            try answer(path, console: console, many: true, jobs: 1)
        }
    }

    /// Diagnoses one journal's switches; with `many` and `--json`, one line per report (to be
    /// tagged with the journal) instead of one array. The segments are decoded and folded
    /// `jobs` at a time; the diagnosis takes the records in order, on this thread (it follows
    /// switches, held calls and durability requests across the segments).
    func answer(_ path: String, console: Console, many: Bool, jobs: Int) throws -> ManyJournals.Answer {
        let reader = try JournalSource.open(path, console: console, readMode: salvage.readMode())
        var withAnomalies = 0
        var anomalies = false
        var printed = 0
        // The JSON array is written report by report as each switch ends, so memory stays
        // bounded by the switches still open, not by the journal's length.
        let diagnosis = SwitchDiagnosis(only: only) { report in
            anomalies = anomalies || !report.anomalies.isEmpty
            if !report.anomalies.isEmpty { withAnomalies += 1 }
            if json && many {
                console.print(report.json.serialized())
            } else if json {
                console.write((printed == 0 ? "[" : ",") + report.json.serialized())
            } else {
                if printed > 0 { console.print() }
                report.lines.forEach(console.print)
            }
            printed += 1
        }
        let walk = try diagnosis.consume(reader, jobs: jobs)
        JobsNote.report(walk, command: Self.name, jobs: jobs, given: journals.jobsGiven && !many,
                        because: salvage.walksInOrderBecause, console: console)
        diagnosis.finish()
        if json && !many { console.print(printed == 0 ? "[]" : "]") }
        if printed == 0 && !json {
            let held = diagnosis.held.map { held in
                held.count == 1 ? " (it holds s\(held.first))" : " (it holds \(held.count): s\(held.first) to s\(held.last))"
            } ?? ""
            console.print(only.map { "no switch s\($0) in this journal" + held } ?? "no switch in this journal")
        }
        let unreadable = walk.problems.report(command: Self.name, console: console)
        return ManyJournals.Answer(status: anomalies || unreadable ? .findings : .ok, journalID: reader.journalID?.uuidString,
                                   tally: Tally([("switches", printed), ("switches_with_anomalies", withAnomalies)]))
    }
}
