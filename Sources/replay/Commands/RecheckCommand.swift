import Journal
import ReplayKit
import SDK

/// `replay recheck`: today's decision rules against the decisions a journal recorded.
struct RecheckCommand: Command {
    static let name = "recheck"
    static let summary = "replay recorded inputs through today's decide; report differing decisions"
    static let help = """
        usage: replay recheck [--limit N] [--json] [--salvage] [--jobs J] <journal>

        Feeds every recorded input (a call, an HTTP answer, a timer, a durability answer, a
        module hook's end ...) through this build's SDKState.decide, on the state folded from
        the facts recorded before it, and compares the decisions it makes with the decisions
        recorded after that input. A field journal becomes a regression test: a difference
        means today's SDK would have decided otherwise.

        Each mismatch names the input's sequence number and the first differing decision.
        Exit status: 0 when every input decides alike, 1 on any mismatch.

          --limit N   print at most N mismatches (default 10; all are counted)
          --json      one JSON object with the counts and the mismatches
          --jobs J    segments rechecked side by side, each from its snapshot (default: the
                      cores; 1 walks the journal in order); the answer is the same
        \(SalvageOption.help(column: 14))
                      (an input whose decisions the damage cut is counted skipped)
        """

    let path: String
    let limit: Int
    let json: Bool
    let jobs: Int
    /// Whether `--jobs` was given (``JobsNote``).
    let jobsGiven: Bool
    let salvage: SalvageOption
    static let takesSalvage = true

    init(arguments: inout Arguments) throws(UsageError) {
        (jobs, jobsGiven) = try JournalList.parseJobs(&arguments)
        salvage = SalvageOption(arguments: &arguments)
        limit = try arguments.option("--limit", as: "a count", { Int($0).flatMap { $0 >= 0 ? $0 : nil } }) ?? 10
        json = arguments.flag("--json")
        path = try arguments.positional("journal directory")
    }

    func run(console: Console) throws -> ExitStatus {
        let reader = try JournalSource.open(path, console: console, readMode: salvage.readMode())
        let recheck: Recheck.Summary
        let problems: StreamProblems
        let splits = jobs > 1 && SegmentFolds.canSplit(reader)
        if splits, let (summary, skipped) = Recheck.inSegments(reader, limit: limit, jobs: jobs) {
            (recheck, problems) = (summary, skipped)
        } else {
            JobsNote.report(command: Self.name, jobs: jobs, given: jobsGiven, segments: reader.segments.count,
                            inOrder: reader.segments.count, wholeInOrder: true,
                            because: splits ? "a segment does not begin with a readable snapshot, or reading one failed"
                                : salvage.walksInOrderBecause, console: console)
            let walk = try JournalWalk(reader: reader, onProgress: { console.progress("rechecking seq \($0)") })
            let whole = Recheck(limit: limit)
            while let record = try walk.next() {
                if walk.resumedAfter != nil { whole.resumeAfterSkip() }
                try whole.take(record, on: walk)
            }
            try whole.finish(on: walk)
            console.clearProgress()
            (recheck, problems) = (whole.summary, walk.stream.problems)
        }
        if json {
            console.print(JSONValue.object([
                ("inputs", .integer(Int64(recheck.inputs))),
                ("checked", .integer(Int64(recheck.checked))),
                ("skipped", .integer(Int64(recheck.skipped))),
                ("mismatches", .integer(Int64(recheck.mismatchCount))),
                ("details", .array(recheck.mismatches.map(\.json))),
            ]).serialized())
        } else {
            for (index, mismatch) in recheck.mismatches.enumerated() {
                if index > 0 { console.print() }
                mismatch.lines.forEach(console.print)
            }
            if recheck.mismatchCount > 0 { console.print() }
            let skipped = recheck.skipped > 0 ? ", \(recheck.skipped) skipped (unknown kinds, unreadable records, or decisions cut by damage)" : ""
            console.print("recheck: \(recheck.checked) of \(recheck.inputs) input(s) rechecked\(skipped); "
                          + (recheck.mismatchCount == 0 ? "every one decides as recorded"
                             : "\(recheck.mismatchCount) decide(s) differently" + (recheck.mismatchCount > recheck.mismatches.count ? " (first \(recheck.mismatches.count) shown)" : "")))
        }
        if recheck.mismatchCount > 0, let producer = reader.producer,
           RedactedCopyOptions.isRedactedCopy(producer: producer) {
            console.printError("replay recheck: \(path) is a redacted copy (\(producer)): decide sees the redacted calls "
                               + "(tokens where emails, user ids, tokens and values were) and builds requests from them, so a decision "
                               + "that reads a call's content differs from the one recorded; recheck the original journal")
        }
        let unreadable = problems.report(command: Self.name, console: console)
        return recheck.mismatchCount == 0 && !unreadable ? .ok : .findings
    }
}
