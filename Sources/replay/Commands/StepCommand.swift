import Journal
import ReplayKit

/// `replay step`: walk through a journal interactively.
struct StepCommand: Command {
    static let name = "step"
    static let summary = "interactive time travel: next, prev, goto, switch, state, diff, find"
    static let help = """
        usage: replay step <journal>

        Reads commands from standard input, one per line (a terminal or a pipe), and moves
        through the journal, printing each fact as `replay timeline` does:

        \(StepSession.help)

        Example: printf 'switch 1\\nstate\\nnext 5\\ndiff\\n' | replay step DIR
        """

    let path: String

    init(arguments: inout Arguments) throws(UsageError) {
        path = try arguments.positional("journal directory")
        if path == "-" { throw UsageError("step reads its commands from standard input, so the journal must be a directory, not -") }
    }

    func run(console: Console) throws -> ExitStatus {
        let session = try StepSession(reader: try JournalSource.open(path, console: console), console: console)
        try session.run()
        return .ok
    }
}
