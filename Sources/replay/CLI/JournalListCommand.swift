import ReplayKit

/// A command whose arguments are journals (one, several, or folders of them, with `--json` and
/// `--jobs`: ``JournalArgument``) and which answers each on its own, as it would alone, then
/// gives a total (``JournalArgument/run(_:console:_:)``).
protocol JournalListCommand: Command {
    var journal: JournalArgument { get }
    init(journal: JournalArgument)

    /// Answers the journal at `path`. With `many` (one of several), an unreadable journal is
    /// thrown, to be named and skipped, rather than reported as the only answer.
    static func answer(_ path: String, json: Bool, console: Console, many: Bool) throws -> ManyJournals.Answer
}

extension JournalListCommand {
    init(arguments: inout Arguments) throws(UsageError) {
        self.init(journal: try JournalArgument(arguments: &arguments))
    }

    func run(console: Console) throws -> ExitStatus {
        try journal.run(Self.name, console: console) { [json = journal.json] path, console, many in
            try Self.answer(path, json: json, console: console, many: many)
        }
    }
}
