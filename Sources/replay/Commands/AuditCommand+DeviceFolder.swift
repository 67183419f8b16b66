import Journal
import ReplayKit
import SDK

extension AuditCommand {
    /// The audit of a device folder: each process's calls (an audit of its own journal), rows in
    /// the order the merged stream (``DeviceMerge``) resolves them, each led by the process's
    /// role (`--json`: a `process` member), then a summary per process.
    func run(_ device: DeviceFolder, console: Console) throws -> ExitStatus {
        guard receiptLogs.isEmpty else {
            throw UsageError("--received reads one journal's receipts: give a process's journal (\(device.lanes.map(\.path).joined(separator: ", ")))")
        }
        let merge = try DeviceMerge(folder: device) { path in
            try JournalSource.open(path, console: console, readMode: salvage.readMode())
        }
        // Each process's journal id, read once: `--call`'s wire ids are derived from it.
        let streams = device.lanes.indices.map(merge.journalID(ofLane:))
        let width = device.roleWidth
        var shown = device.lanes.map { _ in [String: Int]() }
        var named = Set<ProjectFingerprint>()
        if !json { console.print("process".padding(toLength: max(width, 7), withPad: " ", startingAt: 0) + "  " + AuditRow.header) }
        let audits = device.lanes.enumerated().map { lane, process in
            CallAudit { row in
                if project != nil { named.formUnion(row.projects) }
                guard shows(row, stream: streams[lane]) else { return }
                shown[lane][row.status, default: 0] += 1
                if json {
                    guard case .object(let members) = row.json else { return }
                    console.print(JSONValue.object([("process", .string(process.role))] + members).serialized())
                } else {
                    console.print(process.role.padding(toLength: max(width, 7), withPad: " ", startingAt: 0) + "  " + row.line)
                }
            }
        }
        while let (lane, record) = try merge.next() {
            if let skip = merge.walk(lane).resumedAfter { audits[lane].resume(after: skip) }
            merge.walk(lane).fold(record) { audits[lane].consume(record, before: $0) }
        }
        var processes: [JSONValue] = []
        if !json { console.print() }
        for (lane, audit) in audits.enumerated() {
            audit.finish()
            let role = device.lanes[lane].role
            let statuses = AuditRow.Status.summarized { audit.statusCounts[$0.rawValue] ?? 0 }.map(\.rawValue)
            let total = audit.statusCounts.values.reduce(0, +)
            let shownTotal = shown[lane].values.reduce(0, +)
            let deliveries = audit.deliveries.sorted { $0.key < $1.key }.filter { project?.matches($0.key, labels: audit.labels) ?? true }
            if json {
                processes.append(.object([
                    ("process", .string(role)), ("calls", .integer(Int64(total))),
                    ("shown", .object(statuses.map { ($0, .integer(Int64(shown[lane][$0] ?? 0))) })),
                    ("requests_delivered", .object(deliveries.map { project, counts in
                        (project.hex, .object([("label", audit.labels.json(project)), ("for_calls", .integer(Int64(counts.forCalls))),
                                               ("sdk_own", .integer(Int64(counts.ownRequests)))]))
                    })),
                ]))
            } else {
                console.print("\(role): " + (shownTotal == total ? "\(total) call(s)" : "\(shownTotal) of \(total) call(s) shown") + ": "
                              + statuses.map { "\(shown[lane][$0] ?? 0) \($0)" }.joined(separator: ", "))
                for (project, counts) in deliveries {
                    console.print("\(role): \(audit.labels.name(project)) received \(counts.forCalls + counts.ownRequests) request(s): "
                                  + "\(counts.forCalls) for calls, \(counts.ownRequests) of the SDK's own")
                }
            }
        }
        if json { console.print(JSONValue.object([("summary", .object([("processes", .array(processes))]))]).serialized()) }
        let labels = audits.reduce(ProjectLabels()) { $0.overlaid(by: $1.labels) }
        project?.noteIfUnmatched(audits.reduce(named) { $0.union($1.deliveries.keys) }.union(labels.labelled), labels: labels,
                                 command: Self.name, path: device.path, console: console)
        return merge.reportProblems(command: Self.name, console: console) ? .findings : .ok
    }
}
