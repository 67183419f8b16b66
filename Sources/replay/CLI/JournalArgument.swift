import Journal
import ReplayKit

/// The `[--json] [--jobs J] <journal>...` that `info`, `verify` and `check` take, and the
/// opening they share: the journal at a path (or `-`, standard input; see ``JournalSource``).
struct JournalArgument: Sendable {
    /// The journals named.
    let list: JournalList
    /// Whether the command prints JSON instead of text.
    let json: Bool

    /// Parses `--json`, `--jobs` and the journals' paths (a usage error when none is given).
    init(arguments: inout Arguments) throws(UsageError) {
        json = arguments.flag("--json")
        list = try JournalList(arguments: &arguments)
    }

    /// Runs `answer` on the one journal as the command always has, or on each of many
    /// (``ManyJournals``).
    func run(_ command: String, console: Console,
             answer: @escaping @Sendable (_ path: String, _ console: Console, _ many: Bool) throws -> ManyJournals.Answer) throws -> ExitStatus {
        if let path = list.single { return try answer(path, console, false).status }
        return ManyJournals(command: command, list: list, json: json).run(console: console) { path, console in
            try answer(path, console, true)
        }
    }

    /// A reader over the journal at `path`; throws when it holds no segments.
    static func open(_ path: String, console: Console) throws -> JournalReader {
        try JournalSource.open(path, console: console)
    }

    /// Opens the journal at `path` and reads every record, verifying as it goes, with `verb`
    /// ("reading") in the progress line.
    static func openVerified(_ path: String, console: Console, verb: String) throws -> (reader: JournalReader, report: VerificationReport) {
        let reader = try open(path, console: console)
        let report = reader.verify { done, total in
            console.progress("\(verb) \(Format.bytes(done)) of \(Format.bytes(total))")
        }
        console.clearProgress()
        return (reader, report)
    }
}
