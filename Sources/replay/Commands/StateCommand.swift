import Journal
import ReplayKit
import SDK

/// `replay state`: the SDK's state at a moment (time travel).
struct StateCommand: Command {
    static let name = "state"
    static let summary = "the SDK's projected state at a sequence number or time"
    static let help = """
        usage: replay state --at SEQ|TIME [--json] <journal>

        Rebuilds what the SDK believed right after record SEQ (or after the last record at or
        before TIME): the live project, identity, attribution, the gate and the calls it holds,
        the switch chain (in flight and queued), teardown progress, the offline queue per
        project, pending calls, modules, timers and project-scoped storage.

        It starts from the snapshot that begins the segment holding the moment and folds the
        facts after it, the same fold the SDK runs; it never reads the journal from its start
        when it need not.

          --at SEQ|TIME   a sequence number, or an ISO-8601 time such as 2025-11-24T16:00:19.5Z
          --json          one JSON object: {"at": {...}, "state": {...}}
        """

    let path: String
    let moment: Moment
    let json: Bool

    init(arguments: inout Arguments) throws(UsageError) {
        guard let moment = try arguments.moment("--at") else { throw UsageError("--at SEQ|TIME is required") }
        self.moment = moment
        json = arguments.flag("--json")
        path = try arguments.positional("journal directory")
    }

    /// The command for the journal at `path` at `moment` (what `replay serve` answers with).
    init(path: String, moment: Moment, json: Bool) {
        self.path = path
        self.moment = moment
        self.json = json
    }

    func run(console: Console) throws -> ExitStatus {
        let walk = try JournalWalk(reader: try JournalSource.open(path, console: console, headers: .onDemand), start: .after(moment),
                                   onProgress: { console.progress("folding seq \($0)") })
        return try Self.print(walk, moment: moment, json: json, console: console)
    }

    /// Prints the state `walk` has folded to, everything at or before `moment`: what `replay
    /// state --at` prints (and `replay serve` sends, the same bytes).
    static func print(_ walk: JournalWalk, moment: Moment, json: Bool, console: Console) throws -> ExitStatus {
        // The record after the moment may be damaged: the state at the moment is still whole.
        var damagedAfter: Damage?
        let ended: Bool
        do {
            ended = try walk.peek() == nil
        } catch JournalError.corrupted(let damage) {
            (ended, damagedAfter) = (false, damage)
        }
        console.clearProgress()
        let document = StateDocument.make(walk.state)
        if json {
            console.printJSON(.object([("at", Self.position(walk)), ("journal_ended", .bool(ended)), ("state", document)]))
        } else {
            console.print(Self.heading(walk, moment: moment, ended: ended))
            console.print()
            DocumentText.lines(document).forEach(console.print)
        }
        if let damagedAfter {
            console.printError("replay \(Self.name): the record after it is damaged: \(damagedAfter) (\(ReplayCommandLine.verifyAdvice))")
        }
        return walk.stream.reportProblems(command: Self.name, console: console) || damagedAfter != nil ? .findings : .ok
    }

    static func position(_ walk: JournalWalk) -> JSONValue {
        guard let position = walk.position else { return .null }
        return .object([("seq", .unsigned(position.sequence)), ("time", .string(position.time.description))])
    }

    /// `state after seq 108 (2025-…Z), the journal's last record` and similar.
    static func heading(_ walk: JournalWalk, moment: Moment, ended: Bool) -> String {
        guard let position = walk.position else { return "state before the journal's first record" }
        let end = ended ? "; the journal ends there" : ""
        return "state after seq \(position.sequence) (\(position.time)), for \(moment)\(end)"
    }
}
