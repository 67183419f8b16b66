import Journal
import ReplayKit
import SDK

/// `replay audit`: which project received each public call, and how each ended.
struct AuditCommand: Command {
    static let name = "audit"
    static let summary = "every public call: live project, gate decision, where it went, how it ended"
    static let help = """
        usage: replay audit [--project FP] [--call NAME|ID] [--json] [--salvage] [--jobs J] <journal>... [--received <file>...]

        One row per public call (callReceived): its sequence number, time, short id and name;
        the project the SDK was on when it was made; what the gate did (executed, queued and
        replayed, inline, refused; for switchProject and initialize, how the switch was routed);
        the project its request went to (the task that carried it); and how it ended: delivered
        (with the HTTP status), applied, failed or discarded (with the reason), or pending
        (with --salvage, lost: its end lay in records lost to damage; a call pending across
        such records says part of its history was lost, its tasks as the snapshot after them
        gives them).

        A device folder (the journals of an app and its extensions: journal/, journal-ROLE/)
        is audited as one: each row begins with its process's role, rows in the order the
        processes' records come in time, a summary per process.

        Rows are printed as calls resolve (memory stays bounded however long the journal);
        calls still pending at the end come last. A summary follows: calls by status and the
        requests each project received (for calls, and of the SDK's own such as a switch's
        disableDevice), to compare with the backend's logs.

          --project FP   only calls made on, or delivered to, this project (fingerprint, a
                         prefix of at least 4 hex digits, or the project's label, e.g. EU);
                         one that names none of the journal's projects is said on standard
                         error, with the projects it names
          --call NAME|ID only calls of this name, e.g. track, setEmail; or the one call of
                         this id: the 8 hex digits its row shows (0000000c), its UUID (in a
                         backend's Idempotency-Key, after -call-), or its wire id (callId, 32
                         hex digits: a receipt log's call_id). Repeatable; an id no row has is
                         said on standard error
          --json         one JSON object per call (NDJSON), then one {"summary": …}
          --received F...  backends' receipt logs (docs/RECONCILE.md): each row gains what
                         `replay reconcile` says of its call (agreed, lost, duplicate,
                         elsewhere, unconfirmed, late; `-` for a call never sent, `not judged`
                         in a gap), the summary the totals; exit 1 on anything but agreed
        \(SalvageOption.help(column: 17))
        \(JournalList.help(column: 17, splitsSegments: true))
        """

    let journals: JournalList
    let project: ProjectFilter?
    let calls: [CallSelector]
    let json: Bool
    let receiptLogs: [String]
    let salvage: SalvageOption
    static let takesSalvage = true

    init(arguments: inout Arguments) throws(UsageError) {
        receiptLogs = try arguments.optionList("--received")
        salvage = SalvageOption(arguments: &arguments)
        project = try arguments.option("--project", as: ProjectFilter.expectation, ProjectFilter.init)
        calls = try arguments.options("--call").map { text throws(UsageError) in
            guard let selector = CallSelector(text) else { throw UsageError("--call expects \(CallSelector.expectation), not '\(text)'") }
            return selector
        }
        json = arguments.flag("--json")
        journals = try JournalList(arguments: &arguments)
    }

    func run(console: Console) throws -> ExitStatus {
        if journals.paths.count == 1, let device = DeviceFolder.open(journals.paths[0]) { return try run(device, console: console) }
        if let path = journals.single { return try answer(path, console: console, jobs: journals.jobs, jobsGiven: journals.jobsGiven, notesUnmatched: true).status }
        return ManyJournals(command: Self.name, list: journals, json: json).run(console: console) { path, console in
            try answer(path, console: console, jobs: 1)
        }
    }

    /// Audits one journal: its rows, then its summary; its segments `jobs` at a time (with
    /// `jobsGiven`, a note on standard error when some were audited in order: ``JobsNote``).
    /// With `notesUnmatched` (one journal asked for), a `--project` that names none of the
    /// journal's projects, or `--call` ids none of whose calls is shown, is said on standard
    /// error; the output and the exit status are the same.
    func answer(_ path: String, console: Console, jobs: Int, jobsGiven: Bool = false,
                notesUnmatched: Bool = false) throws -> ManyJournals.Answer {
        let reader = try JournalSource.open(path, console: console, readMode: salvage.readMode())
        var shownCounts = CallAudit.StatusCounts()
        let received = try receiptVerdicts(path, console: console)
        var verdictCounts: [String: Int] = [:]
        if !json { console.print(AuditRow.header + (received == nil ? "" : "  received")) }
        var named = Set<ProjectFingerprint>()
        let stream = reader.journalID
        let emit = { (row: AuditRow) in
            if project != nil { named.formUnion(row.projects) }
            guard shows(row, stream: stream) else { return }
            shownCounts.count(row)
            guard let received else {
                if json { console.printLine { row.writeJSON(to: &$0) } } else { console.printLine { row.writeLine(to: &$0) } }
                return
            }
            let verdict = received.verdicts[row.call]?.rawValue ?? (received.notJudged.contains(row.call) ? "not judged" : "-")
            verdictCounts[verdict, default: 0] += 1
            if json {
                guard case .object(let members) = row.json else { return }
                console.print(JSONValue.object(members + [("received", verdict == "-" ? .null : .string(verdict))]).serialized())
            } else {
                console.print(row.line + "  " + verdict)
            }
        }
        let deliveries: [ProjectFingerprint: CallAudit.Deliveries]
        let statusCounts: [String: Int]
        let labels: ProjectLabels
        let problems: StreamProblems
        if jobs > 1 && SegmentFolds.canSplit(reader) {
            let join = CallAuditJoin(emit: emit)
            problems = try join.audit(reader, jobs: jobs)
            join.finish()
            JobsNote.report(command: Self.name, jobs: jobs, given: jobsGiven, segments: reader.segments.count,
                            inOrder: join.segmentsRedone, wholeInOrder: false, console: console)
            (deliveries, statusCounts, labels) = (join.deliveries, join.statusCounts, join.labels)
        } else {
            let walk = try JournalWalk(reader: reader, decoding: CallAudit.decoding)
            let audit = CallAudit(emit: emit)
            while let record = try walk.next() {
                if let skip = walk.resumedAfter { audit.resume(after: skip) }
                walk.fold(record, lookingBeforeWithFact: { audit.consume(record, fact: $1, before: $0) })
            }
            audit.finish()
            JobsNote.report(command: Self.name, jobs: jobs, given: jobsGiven, segments: reader.segments.count,
                            inOrder: reader.segments.count, wholeInOrder: true, because: salvage.walksInOrderBecause, console: console)
            problems = walk.stream.problems
            (deliveries, statusCounts, labels) = (audit.deliveries, audit.statusCounts, audit.labels)
        }
        let shown = shownCounts.byName
        if notesUnmatched {
            project?.noteIfUnmatched(named.union(deliveries.keys).union(labels.labelled), labels: labels, command: Self.name,
                                     path: path, console: console)
            if !calls.isEmpty, calls.allSatisfy(\.namesOneCall), shown.isEmpty {
                let which = project == nil ? "no call" : "no call of that project"
                let ids = calls.map(\.text).joined(separator: ", ")
                console.printError("replay audit: \(path): \(which) matches --call \(ids) "
                                   + "(a call's id: the 8 hex digits its row shows, its UUID, or its 32-hex wire id)")
            }
        }
        let statuses = AuditRow.Status.summarized { statusCounts[$0.rawValue] ?? 0 }.map(\.rawValue)
        let delivered = deliveries.sorted { $0.key < $1.key }.filter { project?.matches($0.key, labels: labels) ?? true }
        let total = statusCounts.values.reduce(0, +)
        let shownTotal = shown.values.reduce(0, +)
        if json {
            console.print(JSONValue.object([("summary", .object([
                ("calls", .integer(Int64(total))),
                ("shown", .object(statuses.map { ($0, .integer(Int64(shown[$0] ?? 0))) })),
            ] + (received.map { received in [
                ("received", .object(Self.verdictNames.map { ($0, .integer(Int64(verdictCounts[$0] ?? 0))) }
                                     + [("unjournaled_receipts", .integer(Int64(received.unjournaled)))])),
            ] } ?? []) + [
                ("requests_delivered", .object(delivered.map { project, counts in
                    (project.hex, .object([("label", labels.json(project)), ("for_calls", .integer(Int64(counts.forCalls))),
                                           ("sdk_own", .integer(Int64(counts.ownRequests)))]))
                })),
            ]))]).serialized())
        } else {
            console.print()
            console.print((shownTotal == total ? "\(total) call(s)" : "\(shownTotal) of \(total) call(s) shown") + ": "
                          + statuses.map { "\(shown[$0] ?? 0) \($0)" }.joined(separator: ", "))
            for (project, counts) in delivered {
                console.print("\(labels.name(project)) received \(counts.forCalls + counts.ownRequests) request(s): "
                              + "\(counts.forCalls) for calls, \(counts.ownRequests) of the SDK's own")
            }
            if let received {
                console.print("against the receipt logs: " + Self.verdictNames.map { "\(verdictCounts[$0] ?? 0) \($0)" }.joined(separator: ", ")
                              + "; \(received.unjournaled) receipt(s) no call explains (replay reconcile lists them)")
            }
        }
        let unreadable = problems.report(command: Self.name, console: console)
        if !problems.skippedDamage.isEmpty {
            console.printError("replay audit: a call made before a skip whose end lay in the lost records shows as lost; "
                               + "one still pending after them says part of its history was lost")
        }
        var tally = Tally([("calls", total), ("shown", shownTotal)])
        for status in statuses { tally.add(status, shown[status] ?? 0) }
        tally.add("requests_delivered", delivered.reduce(0) { $0 + $1.value.forCalls + $1.value.ownRequests })
        var disagreed = false
        if let received {
            for name in Self.verdictNames { tally.add("received_" + name.replacingOccurrences(of: " ", with: "_"), verdictCounts[name] ?? 0) }
            disagreed = Self.verdictNames.contains { $0 != "agreed" && $0 != "not judged" && (verdictCounts[$0] ?? 0) > 0 }
                || received.unjournaled > 0 || received.problems
        }
        return ManyJournals.Answer(status: unreadable || disagreed ? .findings : .ok, journalID: reader.journalID?.uuidString, tally: tally)
    }

    /// The verdict words a row can show with `--received`, worst first.
    static let verdictNames = ReconcileVerdict.allCases.filter { $0 != .unjournaled }.map(\.rawValue) + ["not judged"]

    /// What the receipt logs say of each call of the journal at `path` (`replay reconcile`'s
    /// verdicts), or nil without `--received`. Bad input is named on standard error.
    private func receiptVerdicts(_ path: String, console: Console) throws
        -> (verdicts: [CallID: ReconcileVerdict], notJudged: Set<CallID>, unjournaled: Int, problems: Bool)? {
        guard !receiptLogs.isEmpty else { return nil }
        let reconciler = JournalReconciler()
        try reconciler.addJournal(path: path, reader: try JournalSource.open(path, console: console, readMode: salvage.readMode()))
        for log in receiptLogs {
            do throws(ReceiptLogError) {
                try reconciler.addReceipts(path: log)
            } catch {
                throw ReceiptLogUnreadable(description: error.description)
            }
        }
        for problem in reconciler.problems { console.printError("replay \(Self.name): \(problem)") }
        let (verdicts, notJudged) = reconciler.verdictsByCall()
        return (verdicts, notJudged, reconciler.unjournaledCount, !reconciler.problems.isEmpty)
    }
}

/// A receipt log `replay audit --received` could not read at all.
struct ReceiptLogUnreadable: Error, CustomStringConvertible {
    var description: String
}
