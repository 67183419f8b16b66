import Journal
import ReplayKit
import SDK

/// `replay audit`: which project received each public call, and how each ended.
struct AuditCommand: Command {
    static let name = "audit"
    static let summary = "every public call: live project, gate decision, where it went, how it ended"
    static let help = """
        usage: replay audit [--project FP] [--call NAME] [--json] [--jobs J] <journal>...

        One row per public call (callReceived): its sequence number, time, short id and name;
        the project the SDK was on when it was made; what the gate did (executed, queued and
        replayed, inline, refused; for switchProject and initialize, how the switch was routed);
        the project its request went to (the task that carried it); and how it ended: delivered
        (with the HTTP status), applied, failed or discarded (with the reason), or pending.

        Rows are printed as calls resolve (memory stays bounded however long the journal);
        calls still pending at the end come last. A summary follows: calls by status and the
        requests each project received (for calls, and of the SDK's own such as a switch's
        disableDevice), to compare with the backend's logs.

          --project FP   only calls made on, or delivered to, this project (fingerprint, a
                         prefix of at least 4 hex digits, or the project's label, e.g. EU)
          --call NAME    only calls of this name, e.g. track, setEmail (repeatable)
          --json         one JSON object per call (NDJSON), then one {"summary": …}
        \(JournalList.help(column: 17))
        """

    let journals: JournalList
    let project: ProjectFilter?
    let calls: Set<CallName>
    let json: Bool

    init(arguments: inout Arguments) throws(UsageError) {
        project = try arguments.option("--project", as: ProjectFilter.expectation, ProjectFilter.init)
        var calls = Set<CallName>()
        for name in try arguments.options("--call") {
            guard let call = CallName(rawValue: name) else {
                throw UsageError("--call expects a public call such as track or setEmail, not '\(name)'")
            }
            calls.insert(call)
        }
        self.calls = calls
        json = arguments.flag("--json")
        journals = try JournalList(arguments: &arguments)
    }

    func run(console: Console) throws -> ExitStatus {
        if let path = journals.single { return try answer(path, console: console).status }
        return ManyJournals(command: Self.name, list: journals, json: json).run(console: console) { path, console in
            try answer(path, console: console)
        }
    }

    /// Audits one journal: its rows, then its summary.
    func answer(_ path: String, console: Console) throws -> ManyJournals.Answer {
        let reader = try JournalSource.open(path, console: console)
        let walk = try JournalWalk(reader: reader)
        var shown: [String: Int] = [:]
        if !json { console.print(AuditRow.header) }
        let audit = CallAudit { row in
            guard calls.isEmpty || calls.contains(row.name) else { return }
            if let project, !(row.liveAtCall.map { project.matches($0, labels: row.labels) } ?? false)
                && !(row.deliveredTo.map { project.matches($0, labels: row.labels) } ?? false) { return }
            shown[row.status, default: 0] += 1
            if json { console.printJSONLine { row.writeJSON(to: &$0) } } else { console.print(row.line) }
        }
        while let record = try walk.next() {
            walk.fold(record) { audit.consume(record, before: $0) }
        }
        audit.finish()
        let statuses = ["delivered", "applied", "failed", "discarded", "pending"]
        let deliveries = audit.deliveries.sorted { $0.key < $1.key }.filter { project?.matches($0.key, labels: audit.labels) ?? true }
        let total = audit.statusCounts.values.reduce(0, +)
        let shownTotal = shown.values.reduce(0, +)
        if json {
            console.print(JSONValue.object([("summary", .object([
                ("calls", .integer(Int64(total))),
                ("shown", .object(statuses.map { ($0, .integer(Int64(shown[$0] ?? 0))) })),
                ("requests_delivered", .object(deliveries.map { project, counts in
                    (project.hex, .object([("label", audit.labels.json(project)), ("for_calls", .integer(Int64(counts.forCalls))),
                                           ("sdk_own", .integer(Int64(counts.ownRequests)))]))
                })),
            ]))]).serialized())
        } else {
            console.print()
            console.print((shownTotal == total ? "\(total) call(s)" : "\(shownTotal) of \(total) call(s) shown") + ": "
                          + statuses.map { "\(shown[$0] ?? 0) \($0)" }.joined(separator: ", "))
            for (project, counts) in deliveries {
                console.print("\(audit.labels.name(project)) received \(counts.forCalls + counts.ownRequests) request(s): "
                              + "\(counts.forCalls) for calls, \(counts.ownRequests) of the SDK's own")
            }
        }
        let unreadable = walk.stream.reportProblems(command: Self.name, console: console)
        var tally = Tally([("calls", total), ("shown", shownTotal)])
        for status in statuses { tally.add(status, shown[status] ?? 0) }
        tally.add("requests_delivered", deliveries.reduce(0) { $0 + $1.value.forCalls + $1.value.ownRequests })
        return ManyJournals.Answer(status: unreadable ? .findings : .ok, journalID: reader.journalID?.uuidString, tally: tally)
    }
}
