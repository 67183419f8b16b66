import Journal
import ReplayKit
import SDK

/// `replay info`: what a journal holds, at a glance.
struct InfoCommand: JournalListCommand {
    static let name = "info"
    static let summary = "segments, records, time span, bytes and compression ratio"
    static let help = """
        usage: replay info [--json] [--jobs J] <journal>...

        Reads every record (verifying as it goes) and summarises the journal: its id and producer,
        segments, records, sequence range, time span, bytes on disk and the compression ratio
        against the raw record stream. Corruption is counted here; `replay verify` locates it.
        Then the facts by kind (names from the SDK's fact kinds; public calls also by name) and
        how many records could not be decoded. Exit status 1 when there is corruption or an
        undecodable record.

          --json     one JSON object instead of the table
        \(JournalList.help(column: 13))
        """

    let journal: JournalArgument

    /// Summarises one journal; with `many`, its JSON leaves the path to the tag.
    static func answer(_ path: String, json: Bool, console: Console, many: Bool) throws -> ManyJournals.Answer {
        let (reader, report) = try JournalArgument.openVerified(path, console: console, verb: "reading")
        let header = reader.segments.lazy.compactMap(\.header).last
        let census = report.unreadable == nil ? FactCensus.take(reader) : FactCensus()
        if let unreadable = report.unreadable { console.printError("replay info: \(unreadable)") }
        if !report.corruption.isEmpty {
            console.printError("replay info: \(report.corruption.count) corrupt spot(s); `replay verify` locates them")
        }
        if census.undecodable > 0 {
            console.printError("replay info: \(census.undecodable) record(s) could not be decoded as facts; `replay cat` shows which")
        }
        let answer = ManyJournals.Answer(status: status(report, census), journalID: reader.journalID?.uuidString, tally: Tally([
            ("segments", report.segments), ("records", report.records), ("snapshots", report.snapshots),
            ("file_bytes", report.fileBytes), ("record_bytes", report.recordBytes), ("corruption", report.corruption.count),
            ("undecodable", census.undecodable),
        ]))
        if json {
            console.print(JSONValue.object((many ? [] : [("journal", .string(path))]) + [
                ("id", .optional(reader.journalID) { .string($0.uuidString) }),
                ("producer", .optional(header?.producer) { .string($0) }),
                ("format", .optional(header?.version) { .string($0.description) }),
                ("segments", .integer(Int64(report.segments))),
                ("records", .integer(Int64(report.records))),
                ("snapshots", .integer(Int64(report.snapshots))),
                ("first_sequence", .optional(report.firstSequence) { .unsigned($0) }),
                ("last_sequence", .optional(report.lastSequence) { .unsigned($0) }),
                ("first_time", .optional(report.firstTime) { .string($0.description) }),
                ("last_time", .optional(report.lastTime) { .string($0.description) }),
                ("file_bytes", .integer(Int64(report.fileBytes))),
                ("record_bytes", .integer(Int64(report.recordBytes))),
                ("ratio", .number(report.compressionRatio)),
                ("torn_tail", .optional(report.tornTail) { .string($0.description) }),
                ("corruption", .integer(Int64(report.corruption.count))),
                ("kinds", .object(census.kinds.map { ($0.name, .integer(Int64($0.count))) })),
                ("calls", .object(census.calls.map { ($0.name, .integer(Int64($0.count))) })),
                ("undecodable", .integer(Int64(census.undecodable))),
            ]).serialized())
            return answer
        }
        var table = Table([.left, .left])
        table.add(["journal", path])
        table.add(["id", reader.journalID?.uuidString ?? "-"])
        table.add(["producer", header?.producer ?? "-"])
        table.add(["format", header?.version.description ?? "-"])
        table.add(["segments", "\(Format.count(report.segments))"])
        table.add(["records", "\(Format.count(report.records)) (\(Format.count(report.snapshots)) snapshots)"])
        if let first = report.firstSequence, let last = report.lastSequence {
            table.add(["sequences", "\(first) ... \(last)"])
        }
        if let first = report.firstTime, let last = report.lastTime {
            table.add(["time span", "\(first) ... \(last) (\(Describe.elapsed(from: first, to: last)))"])
        }
        table.add(["on disk", Format.bytes(report.fileBytes)])
        table.add(["records raw", Format.bytes(report.recordBytes)])
        table.add(["ratio", "\(Format.fixed(report.compressionRatio, digits: 2))x"])
        table.add(["torn tail", report.tornTail.map { "\($0.segment) at offset \($0.offset)" } ?? "none"])
        table.add(["corruption", report.corruption.isEmpty ? "none" : "\(report.corruption.count) (run `replay verify`)"])
        table.add(["undecodable", census.undecodable == 0 ? "none" : "\(Format.count(census.undecodable)) record(s)"])
        table.lines().forEach(console.print)
        if !census.kinds.isEmpty {
            console.print()
            console.print("facts by kind")
            var kinds = Table([.left, .right, .left])
            for (name, count) in census.kinds {
                if name == FactKind.callReceived.name && !census.calls.isEmpty {
                    kinds.add(["  " + name, Format.count(count),
                               "(" + census.calls.map { "\($0.name) \($0.count)" }.joined(separator: ", ") + ")"])
                } else {
                    kinds.add(["  " + name, Format.count(count)])
                }
            }
            kinds.lines().forEach(console.print)
        }
        return answer
    }

    private static func status(_ report: VerificationReport, _ census: FactCensus) -> ExitStatus {
        report.corruption.isEmpty && report.unreadable == nil && census.undecodable == 0 ? .ok : .findings
    }
}
