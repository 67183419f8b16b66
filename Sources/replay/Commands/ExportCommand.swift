import Journal
import ReplayKit
import SDK

/// `replay export --redact`: a copy of a journal that can leave the company.
struct ExportCommand: Command {
    static let name = "export"
    static let summary = "a redacted, shareable copy (NDJSON or a journal)"
    static let help = """
        usage: replay export --redact [--format journal|ndjson|trace] -o OUT [--single-file] [--salvage] [--jobs J] [--json] <journal>...

        Writes a copy in which emails, user ids, push tokens and data-field values are replaced
        by keyed-hash tokens (HMAC-SHA256 under a random key made for this export and then
        forgotten): equal values give equal tokens, so the copy still shows "the same user"
        without showing who. Request bodies keep their keys and lose every string value;
        rejection reasons lose the values they quote. Fingerprints, event names, message and
        campaign ids are kept.

          --redact          required: export only ever writes redacted copies
          --format journal  (default) OUT is a new journal directory, readable by every replay
                            command; snapshots are redacted too. Its records are numbered from
                            1 and its segments may be laid out differently (stderr says so)
          --format ndjson   OUT is a file with one JSON object per record: seq, time, kind, the
                            fleet columns (journal_id, sdk_version, platform, day, live_project,
                            row_project, call_id, outcome_status, ...; docs/EXPORT.md) and the
                            fact's fields (snapshots as the state `replay state` shows)
          --format trace    OUT is a Chrome Trace Event file for Perfetto UI or chrome://tracing:
                            a process per project, switch windows with their steps, calls,
                            replays as flows, gate and queue depth as counters (one journal)
          -o OUT            where to write; must not exist (a journal directory may be empty)
          --single-file     with many journals and --format ndjson: OUT is one file holding
                            every journal's rows, rather than a directory of files
          --jobs J          work side by side (default: the cores): with one journal, its segments,
                            each from its snapshot (1 walks it in order; a trace is written in
                            order); with many, J journals at once. The copies and what is
                            printed are the same whatever J
          --json            print a summary as JSON
          --salvage         one journal, --format journal: go on past corruption or a missing
                            segment from the snapshot that begins the next one; the copy
                            carries each loss as the SDK carries its own: its numbers jump by
                            the records lost, a segment begins with that snapshot and a
                            journalGap after it says what was lost (every command reading the
                            copy begins its fold again there). Each skip is said on standard
                            error (exit 1). Without it, the export stops at the damage, the
                            copy keeping every record before it

        Many journals at once: give several journal directories, or a folder of journal folders
        (each subdirectory is one journal). OUT is then a directory (created) with one file
        (ndjson: NAME.ndjson) or journal directory (journal: NAME/) per journal, NAME being the
        journal's folder name. Each journal is streamed, never loaded whole, --jobs of them side
        by side; progress goes to standard error on a terminal. One redaction key serves the
        whole run, so a user's token is the same in every journal of it. A journal that cannot
        be exported (not a journal, from a newer format, an unreadable segment) is reported by
        name on standard error and left out; the others are still exported.

        Exit status 1 when records this build cannot read had to be left empty in the copy, or
        when some of many journals could not be exported.
        """

    /// What was asked for; the exports themselves are ``JournalExport``'s and ``FleetExport``'s.
    let export: JournalExport
    /// Segments written side by side (`--jobs`), and whether it was given (``JobsNote``).
    let jobs: Int
    let jobsGiven: Bool
    let salvage: SalvageOption
    static let takesSalvage = true

    init(arguments: inout Arguments) throws(UsageError) {
        guard arguments.flag("--redact") else { throw UsageError("export writes redacted copies only: pass --redact") }
        (jobs, jobsGiven) = try JournalList.parseJobs(&arguments)
        let format = try arguments.option("--format", as: "journal, ndjson or trace", JournalExport.OutputFormat.init(rawValue:)) ?? .journal
        let short = try arguments.option("-o")
        let long = try arguments.option("--output")
        guard let output = short ?? long else { throw UsageError("-o OUT is required") }
        let singleFile = arguments.flag("--single-file")
        let json = arguments.flag("--json")
        var paths = [try arguments.positional("journal directory")]
        while let more = arguments.optionalPositional() { paths.append(more) }
        if singleFile && format != .ndjson { throw UsageError("--single-file writes NDJSON: pass --format ndjson") }
        salvage = SalvageOption(arguments: &arguments)
        if salvage.salvages && format != .journal {
            throw UsageError("--salvage writes a journal copy (--format journal), which carries each loss to damage as a journalGap: an \(format.rawValue) file has no place for it")
        }
        if salvage.salvages && paths.count > 1 { throw UsageError("--salvage exports one journal at a time") }
        export = JournalExport(paths: paths, format: format, output: output, singleFile: singleFile, json: json, jobs: self.jobs)
    }

    func run(console: Console) throws -> ExitStatus {
        let (path, format, output, json) = (export.path, export.format, export.output, export.json)
        let folder = FleetExport.isFolderOfJournals(path)
        // (Several paths were refused with it already; a folder is known only by looking.)
        if salvage.salvages && folder { throw UsageError("--salvage exports one journal at a time") }
        if export.paths.count > 1 || export.singleFile || folder {
            return try FleetExport(command: export).run(console: console)
        }
        let reader = try JournalSource.open(path, console: console, readMode: salvage.readMode())
        let redactor = Redactor(tokens: TokenMemo(try KeyedHash.random()))
        let summary: JournalExport.ExportSummary
        switch format {
        case .ndjson:
            let file = try NDJSONFile(creating: output)
            let splits = jobs > 1 && SegmentFolds.canSplit(reader)
            if !splits {
                JobsNote.report(command: Self.name, jobs: jobs, given: jobsGiven, segments: reader.segments.count,
                                inOrder: reader.segments.count, wholeInOrder: true, console: console)
            }
            let walked: SegmentFolds.Walked
            do {
                (summary, walked) = try export.exportNDJSON(reader, redactor, into: file, console: console, jobs: splits ? jobs : 1)
            } catch {
                // The file keeps every row before the error, as far as the journal could be read.
                try? file.close()
                throw error
            }
            try file.close()
            if splits { JobsNote.report(walked, command: Self.name, jobs: jobs, given: jobsGiven, console: console) }
        case .journal:
            let splits = jobs > 1 && SegmentFolds.canSplit(reader)
            if !splits {
                JobsNote.report(command: Self.name, jobs: jobs, given: jobsGiven, segments: reader.segments.count,
                                inOrder: reader.segments.count, wholeInOrder: true, because: salvage.walksInOrderBecause, console: console)
            }
            let walked: SegmentFolds.Walked
            (summary, walked) = try export.exportJournal(reader, redactor, to: output, console: console, jobs: splits ? jobs : 1)
            if splits { JobsNote.report(walked, command: Self.name, jobs: jobs, given: jobsGiven, console: console) }
        case .trace:
            notInOrder(reader, format: format, console: console)
            let written = try TraceExporter.write(reader, redactor, to: output, console: console)
            summary = JournalExport.ExportSummary(records: written.records, emptied: written.emptied)
        }
        console.clearProgress()
        if json {
            console.print(JSONValue.object([
                ("output", .string(output)), ("format", .string(format.rawValue)),
                ("records", .integer(Int64(summary.records))), ("emptied", .integer(Int64(summary.emptied))),
                ("sequence_offset", .integer(summary.sequenceOffset)),
            ] + (summary.lostToDamage.isEmpty ? [] : [
                ("lost_to_damage", .array(summary.lostToDamage.map { .string(StreamProblems.wentOnPast($0)) })),
            ])).serialized())
        } else {
            console.print("wrote \(Format.count(summary.records)) redacted record(s) to \(output) (\(format.rawValue))")
            if summary.emptied > 0 {
                console.print("\(summary.emptied) record(s) this build cannot read were kept as empty records")
            }
        }
        if summary.sequenceOffset != 0 {
            console.printError("replay export: the copy numbers its records from 1: its sequence N is the original's N + \(summary.sequenceOffset) up to the first dropped snapshot")
        }
        if summary.droppedSnapshots > 0 {
            console.printError("replay export: \(summary.droppedSnapshots) snapshot(s) fell inside a copy segment and were left out; later sequence numbers shift by one each")
        }
        if summary.summarized + summary.leftOut > 0 {
            console.printError("replay export: \(summary.summarized) record(s) were over the copy's record limit once redacted and were written in summary, \(summary.leftOut) left out; a journalGap after each says so (later sequence numbers shift by one each)")
        }
        if summary.emptied > 0 {
            console.printError("replay export: \(summary.emptied) record(s) could not be read and were kept empty; the copy is incomplete")
        }
        for skip in summary.lostToDamage {
            console.printError("replay export: \(StreamProblems.wentOnPast(skip))" + (summary.records > 0 ? "; the copy says so in a journalGap" : ""))
        }
        return summary.emptied == 0 && summary.lostToDamage.isEmpty ? .ok : .findings
    }

    /// Notes that a `--jobs` given was not used: a trace is written in one walk in order (it
    /// pairs events across the whole journal).
    private func notInOrder(_ reader: JournalReader, format: JournalExport.OutputFormat, console: Console) {
        JobsNote.report(command: Self.name, jobs: jobs, given: jobsGiven, segments: reader.segments.count,
                        inOrder: reader.segments.count, wholeInOrder: true,
                        because: "--format \(format.rawValue) is written in order", console: console)
    }
}
