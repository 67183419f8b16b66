import Journal
import ReplayKit

/// The `[--json] <journal>` that `info`, `verify` and `check` take, and the opening they share:
/// the journal at the path (or `-`, standard input; see ``JournalSource``).
struct JournalArgument: Sendable {
    /// The journal directory, or `-`.
    let path: String
    /// Whether the command prints one JSON object instead of text.
    let json: Bool

    /// Parses `--json` and the journal's path (a usage error when the path is missing).
    init(arguments: inout Arguments) throws(UsageError) {
        json = arguments.flag("--json")
        path = try arguments.positional("journal directory")
    }

    /// A reader over the journal; throws when it holds no segments.
    func open(console: Console) throws -> JournalReader {
        try JournalSource.open(path, console: console)
    }

    /// Opens the journal and reads every record, verifying as it goes, with `verb` ("reading")
    /// in the progress line.
    func openVerified(console: Console, verb: String) throws -> (reader: JournalReader, report: VerificationReport) {
        let reader = try open(console: console)
        let report = reader.verify { done, total in
            console.progress("\(verb) \(Format.bytes(done)) of \(Format.bytes(total))")
        }
        console.clearProgress()
        return (reader, report)
    }
}
