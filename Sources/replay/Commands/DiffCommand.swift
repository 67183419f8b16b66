import Journal
import ReplayKit
import SDK

/// `replay diff`: what changed in the SDK's state between two moments.
struct DiffCommand: Command {
    static let name = "diff"
    static let summary = "what changed in the state between two moments, field by field"
    static let help = """
        usage: replay diff --from SEQ|TIME --to SEQ|TIME [--json] <journal>

        Rebuilds the state right after each moment (as `replay state --at` does) and prints the
        fields that differ, one per line:

          ~ path: before -> after     a field changed
          + path: value               a field appeared (an entry was added)
          - path: value               a field disappeared (an entry was removed)

        Paths follow `replay state --json`, e.g. gate.calls.0000000a.position or
        offline_queue.by_project.<fingerprint>.t5.status.

        Exit status: 0 when the states are the same, 1 when they differ.

          --from SEQ|TIME   the earlier moment (a sequence number or an ISO-8601 time)
          --to SEQ|TIME     the later moment
          --json            one JSON object with both positions and the list of changes
        """

    let path: String
    let from: Moment
    let to: Moment
    let json: Bool

    init(arguments: inout Arguments) throws(UsageError) {
        guard let from = try arguments.moment("--from") else { throw UsageError("--from SEQ|TIME is required") }
        guard let to = try arguments.moment("--to") else { throw UsageError("--to SEQ|TIME is required") }
        self.from = from
        self.to = to
        json = arguments.flag("--json")
        path = try arguments.positional("journal directory")
    }

    func run(console: Console) throws -> ExitStatus {
        let reader = try JournalSource.open(path, console: console)
        let progress: (UInt64) -> Void = { console.progress("folding seq \($0)") }
        let first = try JournalWalk(reader: reader, start: .after(from), onProgress: progress)
        let before = StateDocument.make(first.state)
        let fromPosition = StateCommand.position(first)
        // The second moment seeks on its own: from its segment's snapshot, never through
        // everything between the two.
        let second = try JournalWalk(reader: reader, start: .after(to), onProgress: progress)
        console.clearProgress()
        let diff = DocumentDiff(from: before, to: StateDocument.make(second.state))
        if json {
            console.print(JSONValue.object([("from", fromPosition), ("to", StateCommand.position(second)),
                                            ("changes", diff.json)]).serialized())
        } else {
            console.print("diff from \(Self.describe(fromPosition)) to \(Self.describe(StateCommand.position(second))): "
                          + (diff.isEmpty ? "no change" : "\(diff.changes.count) change(s)"))
            diff.lines().forEach(console.print)
        }
        let unreadable = first.stream.reportProblems(command: Self.name, console: console)
            || second.stream.reportProblems(command: Self.name, console: console)
        return diff.isEmpty && !unreadable ? .ok : .findings
    }

    private static func describe(_ position: JSONValue) -> String {
        guard case .object(let members) = position else { return "the start" }
        let seq = members.first { $0.0 == "seq" }.map { DocumentText.scalar($0.1) } ?? "?"
        let time = members.first { $0.0 == "time" }.map { DocumentText.scalar($0.1) } ?? "?"
        return "seq \(seq) (\(time))"
    }
}
