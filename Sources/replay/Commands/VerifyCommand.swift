import Journal
import ReplayKit

/// `replay verify`: checks every byte and locates what is wrong.
struct VerifyCommand: JournalListCommand {
    static let name = "verify"
    static let summary = "check every segment; exit 1 with the location of any corruption"
    static let help = """
        usage: replay verify [--json] [--jobs J] <journal>...

        Checks every segment header, sync marker, block checksum, block check and record frame,
        and that sequence numbers run on without gaps between segments. Each problem is printed
        with its segment file, byte offset and the sequence number expected there. A torn tail
        (an incomplete last write, what a crash leaves) is reported but is not corruption, and
        so are numbers a segment's header says a writer that failed gave out (format 1.4): they
        are listed as abandoned.

        Exit status: 0 clean, 1 corruption found, 2 unreadable or usage error.

          --json     one JSON object instead of text
        \(JournalList.help(column: 13))
        """

    let journal: JournalArgument

    /// Verifies one journal and prints what it found; with `many`, an unreadable journal is
    /// thrown (skipped), not reported.
    static func answer(_ path: String, json: Bool, console: Console, many: Bool) throws -> ManyJournals.Answer {
        let (reader, report) = try JournalArgument.openVerified(path, console: console, verb: "verifying")
        let id = reader.journalID?.uuidString
        if let unreadable = report.unreadable {
            if many { throw ManyJournals.Skipped(problem: unreadable) }
            console.printError("replay verify: \(unreadable)")
            return ManyJournals.Answer(status: .failure, journalID: id, tally: Tally())
        }
        if json {
            console.print(JSONValue.object([
                ("clean", .bool(report.isClean)),
                ("segments", .integer(Int64(report.segments))),
                ("records", .integer(Int64(report.records))),
                ("torn_tail", .optional(report.tornTail, Self.json)),
                ("corruption", .array(report.corruption.map(Self.json))),
                ("skipped", .array(report.skipped.map { .string($0.description) })),
                ("abandoned", .array(report.abandoned.map { .object([("first", .unsigned($0.lowerBound)), ("last", .unsigned($0.upperBound))]) })),
            ]).serialized())
        } else {
            let range = report.firstSequence.map { first in " (sequences \(first) ... \(report.lastSequence ?? first))" } ?? ""
            if report.isClean {
                console.print("ok: \(Format.count(report.records)) records in \(report.segments) segment\(report.segments == 1 ? "" : "s")\(range)")
            } else {
                console.print("CORRUPT: \(report.corruption.count) problem(s) in \(report.segments) segments")
                for damage in report.corruption { console.print("  \(damage)") }
                for skip in report.skipped { console.print("  \(skip)") }
            }
            for range in report.abandoned {
                console.print("abandoned: sequences \(range.lowerBound) ... \(range.upperBound), given out by a writer that failed; no segment holds them")
            }
            if let torn = report.tornTail {
                console.print("torn tail: \(torn) (a crash mid-write; recovery truncates it)")
            }
        }
        let tally = Tally([("segments", report.segments), ("records", report.records), ("clean_journals", report.isClean ? 1 : 0),
                           ("corrupt_journals", report.isClean ? 0 : 1), ("corruption", report.corruption.count),
                           ("torn_tails", report.tornTail == nil ? 0 : 1)])
        return ManyJournals.Answer(status: report.isClean ? .ok : .findings, journalID: id, tally: tally)
    }

    static func json(_ damage: Damage) -> JSONValue {
        .object([
            ("kind", .string(damage.kind.rawValue)),
            ("segment", .string(damage.segment)),
            ("offset", .integer(Int64(damage.offset))),
            ("sequence", .optional(damage.sequence) { .unsigned($0) }),
            ("reason", .string(damage.reason)),
        ])
    }
}
