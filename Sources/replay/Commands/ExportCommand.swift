import Foundation
import Journal
import SDK

/// `replay export --redact`: a copy of a journal that can leave the company.
struct ExportCommand: Command {
    static let name = "export"
    static let summary = "a redacted, shareable copy (NDJSON or a journal)"
    static let help = """
        usage: replay export --redact [--format journal|ndjson|trace] -o OUT [--single-file] [--json] <journal>...

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
          --json            print a summary as JSON

        Many journals at once: give several journal directories, or a folder of journal folders
        (each subdirectory is one journal). OUT is then a directory (created) with one file
        (ndjson: NAME.ndjson) or journal directory (journal: NAME/) per journal, NAME being the
        journal's folder name. Journals are streamed one at a time, never loaded whole; progress
        goes to standard error on a terminal. One redaction key serves the whole run, so a
        user's token is the same in every journal of it. A journal that cannot be exported (not
        a journal, from a newer format, an unreadable segment) is reported by name on standard
        error and left out; the others are still exported.

        Exit status 1 when records this build cannot read had to be left empty in the copy, or
        when some of many journals could not be exported.
        """

    enum OutputFormat: String {
        case journal, ndjson, trace
    }

    let paths: [String]
    let format: OutputFormat
    let output: String
    let singleFile: Bool
    let json: Bool

    /// The single journal of the classic form, `export ... -o OUT <journal>`.
    var path: String { paths[0] }

    init(arguments: inout Arguments) throws(UsageError) {
        guard arguments.flag("--redact") else { throw UsageError("export writes redacted copies only: pass --redact") }
        format = try arguments.option("--format", as: "journal, ndjson or trace", OutputFormat.init(rawValue:)) ?? .journal
        let short = try arguments.option("-o")
        let long = try arguments.option("--output")
        guard let output = short ?? long else { throw UsageError("-o OUT is required") }
        self.output = output
        singleFile = arguments.flag("--single-file")
        json = arguments.flag("--json")
        var paths = [try arguments.positional("journal directory")]
        while let more = arguments.optionalPositional() { paths.append(more) }
        self.paths = paths
        if singleFile && format != .ndjson { throw UsageError("--single-file writes NDJSON: pass --format ndjson") }
    }

    func run(console: Console) throws -> ExitStatus {
        if paths.count > 1 || singleFile || FleetExport.isFolderOfJournals(path) {
            return try FleetExport(command: self).run(console: console)
        }
        let reader = try JournalSource.open(path, console: console)
        let redactor = Redactor(hash: try KeyedHash.random())
        let summary: ExportSummary
        switch format {
        case .ndjson:
            let file = try NDJSONFile(creating: output)
            summary = try exportNDJSON(reader, redactor, into: file, console: console)
            try file.close()
        case .journal: summary = try exportJournal(reader, redactor, to: output, console: console)
        case .trace:
            let written = try TraceExporter.write(reader, redactor, to: output, console: console)
            summary = ExportSummary(records: written.records, emptied: written.emptied)
        }
        console.clearProgress()
        if json {
            console.print(JSONValue.object([
                ("output", .string(output)), ("format", .string(format.rawValue)),
                ("records", .integer(Int64(summary.records))), ("emptied", .integer(Int64(summary.emptied))),
                ("sequence_offset", .integer(summary.sequenceOffset)),
            ]).serialized())
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
        if summary.emptied > 0 {
            console.printError("replay export: \(summary.emptied) record(s) could not be read and were kept empty; the copy is incomplete")
        }
        return summary.emptied == 0 ? .ok : .findings
    }

    struct ExportSummary {
        var records = 0
        var emptied = 0
        var sequenceOffset: Int64 = 0
        var droppedSnapshots = 0
    }

    // MARK: - NDJSON

    /// Streams `reader`'s records, redacted, into `file`: one row per record, with the fleet
    /// columns (``FleetColumns``) after `seq`, `time` and `kind`.
    func exportNDJSON(_ reader: JournalReader, _ redactor: Redactor, into file: NDJSONFile, console: Console,
                      progressPrefix: String = "") throws -> ExportSummary {
        var summary = ExportSummary()
        var columns = FleetColumns(reader: reader)
        let walk = try JournalWalk(reader: reader)
        while let record = try walk.next() {
            var redacted = record
            switch record.content {
            case .fact(let fact): redacted.content = .fact(redactor.redact(fact))
            case .snapshot(let state): redacted.content = .snapshot(redactor.redact(state))
            case .unreadable:
                redacted.content = .unreadable("not readable by this build; left out of the export")
                summary.emptied += 1
            }
            let fleet = columns.members(for: redacted, before: walk.state)
            walk.fold(record)
            try file.write(Self.row(redacted, fleet))
            summary.records += 1
            if summary.records % 4096 == 0 { console.progress(progressPrefix + "exported seq \(record.sequence)") }
        }
        return summary
    }

    /// The row: `seq`, `time`, `kind`, the fleet columns, then the record's own members (one that
    /// shares a fleet column's name, engineStarted's `sdk_version`, is written as `fact_sdk_version`).
    static func row(_ record: DecodedRecord, _ fleet: [(String, JSONValue)]) -> String {
        guard case .object(var members) = FactJSON.object(record) else { return FactJSON.object(record).serialized() }
        let reserved = Set(FleetColumns.names)
        for index in members.indices.dropFirst(3) where reserved.contains(members[index].0) {
            members[index].0 = "fact_" + members[index].0
        }
        members.insert(contentsOf: fleet, at: 3)
        return JSONValue.object(members).serialized()
    }

    // MARK: - Journal

    func exportJournal(_ reader: JournalReader, _ redactor: Redactor, to output: String, console: Console) throws -> ExportSummary {
        let manager = FileManager.default
        if manager.fileExists(atPath: output), !((try? manager.contentsOfDirectory(atPath: output))?.isEmpty ?? false) {
            throw ExportError.exists(output)
        }
        let options = RedactedCopyOptions.make(madeBy: "replay export (redacted)", of: reader.segments.lazy.compactMap(\.header).first?.producer)
        let writer = try JournalWriter(directory: output, options: options, snapshot: nil)
        var summary = ExportSummary()
        let walk = try JournalWalk(reader: reader)
        var firstSequence: UInt64?
        while let record = try walk.next() {
            if firstSequence == nil {
                firstSequence = record.sequence
                summary.sequenceOffset = Int64(record.sequence) - 1
            }
            switch record.content {
            case .snapshot(let state):
                // The snapshot opens a copy segment when the current one is big enough; a fresh
                // journal always opens with it.
                let snapshot = StateCodec.encode(redactor.redact(state))
                if try !writer.rotateIfNeeded(time: record.time, snapshot: { _ in snapshot }) { summary.droppedSnapshots += 1 }
                else { summary.records += 1 }
            case .fact(let fact):
                try ensureStarted(writer, walk.state, redactor, at: record.time, &summary)
                let redacted = redactor.redact(fact)
                try writer.append(kind: FactCodec.kind(of: redacted), timestamp: record.time, payload: FactCodec.payload(of: redacted))
                summary.records += 1
            case .unreadable:
                try ensureStarted(writer, walk.state, redactor, at: record.time, &summary)
                if record.isSnapshot {
                    let snapshot = StateCodec.encode(redactor.redact(walk.state))
                    if try !writer.rotateIfNeeded(time: record.time, snapshot: { _ in snapshot }) { summary.droppedSnapshots += 1 }
                    else { summary.records += 1 }
                } else {
                    try writer.append(kind: record.kind, timestamp: record.time, payload: [UInt8]())
                    summary.records += 1
                    summary.emptied += 1
                }
            }
            walk.fold(record)
            if summary.records % 4096 == 0 { console.progress("exported seq \(record.sequence)") }
        }
        try writer.close()
        return summary
    }

    /// A copy must open with a snapshot: when the original's first record is not one, the
    /// state the walk starts from stands in.
    private func ensureStarted(_ writer: JournalWriter, _ state: SDKState, _ redactor: Redactor, at time: JournalTime,
                               _ summary: inout ExportSummary) throws {
        guard writer.lastSequence == 0 else { return }
        let snapshot = StateCodec.encode(redactor.redact(state))
        if try writer.rotateIfNeeded(time: time, snapshot: { _ in snapshot }) {
            summary.records += 1
            summary.sequenceOffset -= 1
        }
    }
}
