import Foundation
import Journal
import ReplayKit

/// `replay report`: one self-contained HTML page a person reads at a glance.
struct ReportCommand: Command {
    static let name = "report"
    static let summary = "an HTML report: lanes per project, switch windows, calls, findings"
    static let help = """
        usage: replay report -o OUT.html [--json] [--salvage] <journal> [--received <file>...]

        Writes one self-contained HTML file (inline style, script and SVG; it loads nothing):
        a time axis with a swimlane per project (its label and fingerprint) and one for calls
        delivered nowhere; each switch window across the lanes with its teardown steps coloured
        by outcome; every public call as a mark in the lane of the project that received it,
        coloured by outcome, calls the gate held linked to their replay; the gate and offline
        queue depths over time; warnings and `check` violations at the top, each a link to its
        moment. Click a mark for its fact, its audit row and the state then; search calls, ids,
        event names and reasons; OUT.html#seq=N opens at that moment.

        A device folder (the journals of an app and its extensions: journal/, journal-ROLE/)
        gives OUT.html, one timeline with a column per process in time order, each fact a link
        to its moment in that process's own report, written beside it as OUT-ROLE.html.

        Past 3,000 calls, the ordinary ones (delivered or applied, not held) are folded into
        per-lane buckets, counted on the page; state documents are embedded only for switch
        boundaries, steps with warnings and a sample of calls (others: `replay state --at N`).

        The page shows the journal's personal data as it is (emails, user ids): it is written
        with mode 0600; share a report of a redacted export (`replay export --redact`) instead.
        Exit status 1 when the journal has `check` violations or unreadable records (the page
        lists them), or, with --received, any verdict but agreed or bad receipt input.

          -o OUT.html   where to write: a file, replaced whole if it exists (a directory,
                        a device or a missing folder is refused before the journal is read)
          --json        print a summary as JSON
        \(SalvageOption.help(column: 16))
                        (the page names each loss at its top; `check` begins again there)
        \(ReceivedLogs.help)
        """

    let path: String
    let output: String
    let json: Bool
    let receiptLogs: [String]
    let salvage: SalvageOption
    static let takesSalvage = true

    init(arguments: inout Arguments) throws(UsageError) {
        receiptLogs = try arguments.optionList("--received")
        salvage = SalvageOption(arguments: &arguments)
        let short = try arguments.option("-o")
        let long = try arguments.option("--output")
        guard let output = short ?? long else { throw UsageError("-o OUT.html is required") }
        try ReplacedFile.check(output, option: short == nil ? "--output" : "-o", example: "report.html")
        self.output = output
        json = arguments.flag("--json")
        path = try arguments.positional("journal directory")
        if path == "-", !receiptLogs.isEmpty { throw UsageError("--received needs a journal directory, not standard input") }
    }

    func run(console: Console) throws -> ExitStatus {
        if let device = DeviceFolder.open(path) { return try run(device, console: console) }
        // The receipts first: the pass keeps whole the calls they disagree on (marks of their own).
        let received = receiptLogs.isEmpty ? nil
            : try ReceivedLogs.reconcile(journals: [path], logs: receiptLogs, salvage: salvage, command: Self.name, console: console).first
        let reader = try JournalSource.open(path, console: console, readMode: salvage.readMode())
        let timeline = try TimelineBuilder.build(reader: reader, keeping: .page(received), onProgress: { console.progress("reading seq \($0)") })
        console.clearProgress()
        let title = path == "-" ? "standard input" : (path as NSString).lastPathComponent
        let page = ReportPage.html(data: try ReportData.make(timeline, received: received), title: title)
        let bytes = Data(page.utf8)
        try ReplacedFile.write(bytes, to: output)
        if json {
            var members: [(String, JSONValue)] = [
                ("output", .string(output)), ("bytes", .integer(Int64(bytes.count))), ("records", .integer(Int64(timeline.records))),
                ("projects", .integer(Int64(timeline.projects.count))), ("switches", .integer(Int64(timeline.switches.count))),
                ("calls", .integer(Int64(timeline.callCount))), ("states", .integer(Int64(timeline.states.count))),
                ("violations", .integer(Int64(timeline.violationCount))),
            ]
            if let received {
                let totals = received.totals
                var counts: [(String, JSONValue)] = ReconcileVerdict.allCases.map { ($0.rawValue, .integer(Int64(totals[$0] ?? 0))) }
                counts.append(("not_judged", .integer(Int64(received.notJudged))))
                members.append(("received", .object(counts)))
            }
            console.print(JSONValue.object(members).serialized())
        } else {
            console.print("wrote \(output) (\(Format.bytes(bytes.count))): \(Format.count(timeline.records)) records, "
                          + "\(timeline.projects.count) project(s), \(timeline.switches.count) switch request(s), "
                          + "\(Format.count(timeline.callCount)) call(s), \(timeline.violationCount) violation(s)")
            if let received {
                let totals = received.totals
                console.print("against the receipt logs: " + ReconcileVerdict.allCases.map { "\(totals[$0] ?? 0) \($0.rawValue)" }.joined(separator: ", ")
                              + (received.notJudged > 0 ? ", \(received.notJudged) not judged" : ""))
            }
        }
        for lost in timeline.lostToDamage { console.printError("replay report: \(lost)") }
        if timeline.unreadable > 0 {
            console.printError("replay report: \(timeline.unreadable) unreadable record(s) skipped (`replay verify` lists them)")
        }
        let disagreed = received?.hasFindings ?? false
        return timeline.unreadable > 0 || !timeline.lostToDamage.isEmpty || timeline.violationCount > 0 || disagreed ? .findings : .ok
    }
}
