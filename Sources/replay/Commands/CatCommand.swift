import Journal
import ReplayKit
import SDK

/// `replay cat`: one line per record.
struct CatCommand: Command {
    static let name = "cat"
    static let summary = "one line per record: sequence, time, fact kind, payload size"
    static let help = """
        usage: replay cat [--from SEQ] [--limit N] [--json] [--salvage] <journal>

        Prints one line per record, in sequence order: its sequence number, timestamp (UTC),
        kind by name (a public call also by its name, e.g. `callReceived track`) and payload
        size. Kinds this build does not know print as `kind N`. Stops with exit status 1 at
        corruption (naming where; with --salvage, goes on at the next readable block) or
        after records it could not decode.

          --from SEQ   start at this sequence number (seeks through the index)
          --limit N    print at most N records
          --json       one JSON object per line (NDJSON)
          --salvage    go on past corruption or a missing segment at the next readable block
                       (nothing is folded, so no record that can be read is left out); each
                       skip is said on standard error, with the sequences lost (exit 1)
        """

    let path: String
    let from: UInt64?
    let limit: Int?
    let json: Bool
    let salvage: SalvageOption
    static let takesSalvage = true

    init(arguments: inout Arguments) throws(UsageError) {
        salvage = SalvageOption(arguments: &arguments)
        from = try arguments.option("--from", as: "a sequence number", UInt64.init)
        limit = try arguments.option("--limit", as: "a count", { Int($0).flatMap { $0 >= 0 ? $0 : nil } })
        json = arguments.flag("--json")
        path = try arguments.positional("journal directory")
    }

    func run(console: Console) throws -> ExitStatus {
        let stream = try FactStream(reader: try JournalSource.open(path, console: console, readMode: salvage.readMode(folds: false)), from: from, decoding: .withoutSnapshots)
        var printed = 0
        while printed < (limit ?? .max), let record = try stream.next() {
            let call = Self.callName(record)
            if json {
                var members: [(String, JSONValue)] = [
                    ("seq", .unsigned(record.sequence)),
                    ("time", .string(record.time.description)),
                    ("kind", .unsigned(UInt64(record.kind))),
                    ("name", .string(record.kindName)),
                ]
                if let call { members.append(("call", .string(call))) }
                if case .unreadable(let reason) = record.content, !record.isSnapshot { members.append(("unreadable", .string(reason))) }
                members.append(("bytes", .integer(Int64(record.payloadBytes))))
                console.printJSON(.object(members))
            } else {
                var kind = record.kindName
                if let call { kind += " " + call }
                if case .unreadable = record.content, !record.isSnapshot { kind += " (unreadable)" }
                console.print("\(record.sequence)  \(record.time)  \(kind)  \(record.payloadBytes) B")
            }
            printed += 1
        }
        if printed == 0, let from, limit != 0 {
            console.noteNoRecord("at or after sequence \(from)", command: Self.name, path: path)
        }
        return stream.reportProblems(command: Self.name, console: console) ? .findings : .ok
    }

    /// The public call's name for a `callReceived` record.
    static func callName(_ record: DecodedRecord) -> String? {
        if case .callReceived(let received)? = record.fact { return received.call.name.rawValue }
        return nil
    }
}
