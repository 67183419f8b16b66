import Foundation
import Journal
import ReplayKit
import SDK

/// `replay timeline`: one readable line per fact, switch windows and teardown steps nested.
struct TimelineCommand: Command {
    static let name = "timeline"
    static let summary = "one line per fact, switches and teardown steps nested"
    static let help = """
        usage: replay timeline [--from SEQ|TIME] [--to SEQ|TIME] [--kind NAME]... [--project FP] [--call ID] [--json] [--salvage] <journal>

        Prints one line per fact: sequence number, time (UTC) and what happened, in words.
        A device folder (the journals of an app and its extensions: journal/, journal-ROLE/)
        reads as one timeline: each line begins with its process's role, lines in time order,
        each process's own order kept (a sequence number in --from or --to counts in each).
        Facts between a switchStarted and its switchLanded are indented under it (`| `), and
        facts between a teardownStepBegan and its teardownStepFinished once more, so a switch
        window and each teardown step read as blocks.

        Starting in the middle reads from the snapshot of the segment holding the start, so the
        nesting and the project filter know the state there.

          --from SEQ|TIME   start at this sequence number or time (ISO-8601, e.g. 2025-11-24T16:00:01Z)
          --to SEQ|TIME     stop after this sequence number or time
          --kind NAME       only facts of this kind (repeatable), e.g. callReceived, switchLanded;
                            `snapshot` selects the segments' snapshots
          --project FP      only facts about this project (fingerprint, a prefix of at least 4
                            hex digits, or its label); facts naming no project count for the
                            live project; one that names none of the projects read is said
                            on standard error
          --call ID         only facts about this call (repeatable): those that name it, and
                            those of a task carrying it; ID is the 8 hex digits `audit` shows,
                            the call's UUID, or its wire id (a receipt log's call_id)
          --json            one JSON object per fact (NDJSON), with its depth and fields
        \(SalvageOption.help(column: 20))
        """

    let path: String
    let from: Moment?
    let to: Moment?
    let kinds: Set<String>
    let project: ProjectFilter?
    /// `--call`: ids only (a call's facts are found by its id).
    let calls: [CallSelector]
    let json: Bool
    let salvage: SalvageOption
    static let takesSalvage = true

    init(arguments: inout Arguments) throws(UsageError) {
        salvage = SalvageOption(arguments: &arguments)
        from = try arguments.moment("--from")
        to = try arguments.moment("--to")
        if let from, let to, from.isAfter(to) { throw UsageError("--from \(from) is after --to \(to): nothing lies between them") }
        let names = try arguments.options("--kind")
        let known = Set(FactKind.allCases.map(\.name) + ["snapshot"])
        for name in names where !known.contains(name) {
            throw UsageError("--kind expects a fact kind such as callReceived or switchLanded, not '\(name)'")
        }
        kinds = Set(names)
        project = try arguments.option("--project", as: ProjectFilter.expectation, ProjectFilter.init)
        calls = try arguments.options("--call").map { text throws(UsageError) in
            guard let selector = CallSelector(text), selector.namesOneCall else {
                throw UsageError("--call expects one call's id (the 8 hex digits `replay audit` shows, its UUID, or its 32-hex wire id), "
                                 + "not '\(text)'; a name's calls: `replay audit --call NAME`")
            }
            return selector
        }
        json = arguments.flag("--json")
        path = try arguments.positional("journal directory")
    }

    func run(console: Console) throws -> ExitStatus {
        if let device = DeviceFolder.open(path) { return try run(device, console: console) }
        let reader = try JournalSource.open(path, console: console, readMode: salvage.readMode())
        let stream = reader.journalID
        let walk = try JournalWalk(reader: reader, start: from.map { .at($0) } ?? .beginning)
        var foundCall = false
        var depth = TimelineLine.depth(walk.state)
        var labels = ProjectLabels()
        labels.learn(from: walk.state)
        var named = Set<ProjectFingerprint>()
        var read = 0
        while let record = try walk.next() {
            labels.learn(from: record)
            if let to, !to.includes(sequence: record.sequence, time: record.time) { break }
            read += 1
            let mentioned = record.fact.map { FactProjects.mentioned(by: $0, in: walk.state) } ?? []
            let live = walk.state.live?.fingerprint
            if project != nil { named.formUnion(mentioned + [live].compactMap { $0 }) }
            let aboutCall = isAboutSelectedCall(record, before: walk.state, stream: stream)
            foundCall = foundCall || aboutCall
            walk.fold(record)
            let after = TimelineLine.depth(walk.state)
            let shownDepth = record.isSnapshot ? 0 : min(depth, after)
            depth = after
            guard kinds.isEmpty || kinds.contains(record.kindName), aboutCall else { continue }
            if let project, !(mentioned.isEmpty ? live.map { project.matches($0, labels: labels) } ?? false
                                                : project.matchesAny(mentioned, labels: labels)) { continue }
            if json {
                console.printJSON(FactJSON.object(record, extra: [("depth", .integer(Int64(shownDepth)))], labels: labels))
            } else {
                console.print(TimelineLine.line(record, depth: shownDepth, labels: labels))
            }
        }
        if read == 0, let range = from.map({ "at or after --from \($0)" }) ?? to.map({ "at or before --to \($0)" }) {
            console.noteNoRecord(range, command: Self.name, path: path)
        }
        project?.noteIfUnmatched(named.union(labels.labelled), labels: labels, command: Self.name, path: path,
                                 partly: from != nil || to != nil, console: console)
        if !calls.isEmpty && !foundCall { noteNoCall(path: path, partly: from != nil || to != nil, console: console) }
        return walk.stream.reportProblems(command: Self.name, console: console) ? .findings : .ok
    }

    /// Whether `record` is about a call `--call` names (every record is, without `--call`),
    /// `state` the state before it, `stream` its journal's id (from which wire ids are derived).
    func isAboutSelectedCall(_ record: DecodedRecord, before state: SDKState, stream: UUID?) -> Bool {
        guard !calls.isEmpty else { return true }
        guard let fact = record.fact else { return false }
        return FactCalls.mentions(by: fact, in: state) { call in calls.contains { $0.matches(call: call, stream: stream) } }
    }

    /// Says on standard error that no fact read is about the calls `--call` names: a mistyped id
    /// is not read as "nothing happened to it".
    func noteNoCall(path: String, partly: Bool, console: Console) {
        console.printError("replay timeline: \(path): no fact \(partly ? "in the part read " : "")is about --call "
                           + calls.map(\.text).joined(separator: ", ") + " (`replay audit` lists the calls and their ids)")
    }
}
