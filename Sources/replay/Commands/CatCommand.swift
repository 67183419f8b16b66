import Journal

/// `replay cat`: one line per record.
struct CatCommand: Command {
    static let name = "cat"
    static let summary = "one line per record: sequence, time, kind, payload size"
    static let help = """
        usage: replay cat [--from SEQ] [--limit N] [--json] <journal>

        Prints one line per record, in sequence order: its sequence number, timestamp (UTC),
        kind and payload size. Stops with exit status 1 at corruption (naming where).

          --from SEQ   start at this sequence number (seeks through the index)
          --limit N    print at most N records
          --json       one JSON object per line (NDJSON)
        """

    let path: String
    let from: UInt64?
    let limit: Int?
    let json: Bool

    init(arguments: inout Arguments) throws(UsageError) {
        from = try arguments.option("--from", as: "a sequence number", UInt64.init)
        limit = try arguments.option("--limit", as: "a count", { Int($0).flatMap { $0 >= 0 ? $0 : nil } })
        json = arguments.flag("--json")
        path = try arguments.positional("journal directory")
    }

    func run(console: Console) throws -> ExitStatus {
        let cursor = try JournalSource.open(path).records(from: from)
        var printed = 0
        do {
            while printed < (limit ?? .max), let record = try cursor.nextView() {
                if json {
                    console.print(JSONValue.object([
                        ("seq", .unsigned(record.sequence)),
                        ("time", .string(record.timestamp.description)),
                        ("kind", .unsigned(UInt64(record.kind))),
                        ("bytes", .integer(Int64(record.payload.count))),
                    ]).serialized())
                } else {
                    let kind = record.isSnapshot ? "snapshot" : "kind \(record.kind)"
                    console.print("\(record.sequence)  \(record.timestamp)  \(kind)  \(record.payload.count) B")
                }
                printed += 1
            }
        } catch JournalError.corrupted(let damage) {
            console.printError("replay cat: stopped at \(damage)")
            return .findings
        }
        if let torn = cursor.tornTail { console.printError("replay cat: torn tail: \(torn)") }
        return .ok
    }
}
