import Journal
import SDK

/// What the receipt logs say of one journal's calls, as the report and `replay serve` show it
/// (`--received`, docs/RECONCILE.md): each call's ``ReconcileVerdict`` with its receipts, the
/// SDK's own requests' verdicts, the receipts no call explains, and the totals.
///
/// Made from a finished ``JournalReconciler`` by ``perJournal(_:)``, which reads its verdicts
/// through its rows (``JournalReconciler/forEachRow(_:)``) and its calls in holes: this type
/// judges nothing itself. Immutable once made; safe to share between threads.
package struct ReceivedCalls: Sendable {
    /// One receipt, as a page shows it.
    package struct Receipt: Sendable {
        package var project: ProjectFingerprint
        package var status: Int?
        package var duplicate: Bool
        package var receivedAt: JournalTime
        /// `FILE:LINE` of the receipt log line.
        package var place: String
    }

    /// What the logs say of one call the journal sent or queued.
    package struct Entry: Sendable {
        /// Nil when the call is not judged (its outcome may lie in a hole of the journal).
        package var verdict: ReconcileVerdict?
        /// The hole that keeps it from being judged.
        package var hole: String?
        /// The project the journal sent it to.
        package var project: ProjectFingerprint
        /// The task that carried it last, and its path.
        package var task: String
        package var endpoint: String
        /// The journal's outcome for it, as `reconcile` words it ("pending" while none).
        package var outcome: String
        package var outcomeAt: JournalTime?
        package var receipts: [Receipt]
    }

    /// A receipt of the journal's stream that no call of it explains: `unjournaled`, or not
    /// judged when it fell in a hole (`hole` names it).
    package struct Stray: Sendable {
        package var receipt: Receipt
        package var endpoint: String?
        package var callID: String?
        package var hole: String?
    }

    /// The verdicts of the journal's public calls, by call.
    package private(set) var calls: [CallID: Entry] = [:]
    /// The verdicts of the SDK's own requests (a switch's disableDevice), which no call owns.
    package private(set) var ownRequests: [Entry] = []
    /// The receipts no call explains.
    package private(set) var strays: [Stray] = []
    /// The receipt logs read, in order.
    package private(set) var logs: [String] = []
    /// Every project's name (`US 1a2b…`) and label, as the journals named them.
    private var names: [ProjectFingerprint: (name: String, label: String?)] = [:]
    /// Problems the reconciliation named in the input (the same lines `reconcile` prints).
    package private(set) var problems: [String] = []

    /// How many of the journal's calls, the SDK's own requests and the stray receipts have each
    /// verdict (unjournaled counts the strays judged).
    package var totals: [ReconcileVerdict: Int] {
        var totals: [ReconcileVerdict: Int] = [:]
        for entry in calls.values { if let verdict = entry.verdict { totals[verdict, default: 0] += 1 } }
        for entry in ownRequests { if let verdict = entry.verdict { totals[verdict, default: 0] += 1 } }
        totals[.unjournaled, default: 0] += strays.filter { $0.hole == nil }.count
        return totals
    }

    /// Calls and receipts not judged because they fall in a hole.
    package var notJudged: Int {
        calls.values.filter { $0.verdict == nil }.count + ownRequests.filter { $0.verdict == nil }.count
            + strays.filter { $0.hole != nil }.count
    }

    /// Whether anything is not `agreed`, or the input had problems: what makes a command that
    /// shows it exit 1.
    package var hasFindings: Bool {
        !problems.isEmpty || totals.contains { $0.key != .agreed && $0.value > 0 }
    }

    /// Whether the report draws `call` as a mark of its own past the mark limit: the receipt
    /// logs say something of it other than `agreed` (or it is not judged).
    package func marksOnItsOwn(_ call: CallID) -> Bool {
        guard let entry = calls[call] else { return false }
        return entry.verdict != .agreed
    }

    /// Every project a receipt names.
    package var receivingProjects: Set<ProjectFingerprint> {
        var projects = Set<ProjectFingerprint>()
        for entry in calls.values { for receipt in entry.receipts { projects.insert(receipt.project) } }
        for entry in ownRequests { for receipt in entry.receipts { projects.insert(receipt.project) } }
        for stray in strays { projects.insert(stray.receipt.project) }
        return projects
    }

    /// `US 1a2b3c4d5e6f7a8b`, or the fingerprint alone.
    package func name(_ project: ProjectFingerprint) -> String {
        names[project]?.name ?? project.hex
    }

    /// One value per journal of `reconciler` (in its order), once every journal and log has
    /// been added to it.
    package static func perJournal(_ reconciler: JournalReconciler) -> [ReceivedCalls] {
        let logs = reconciler.receiptFiles.map(\.path)
        var names: [ProjectFingerprint: (name: String, label: String?)] = [:]
        func named(_ project: ProjectFingerprint) {
            if names[project] == nil { names[project] = (reconciler.labels.name(project), reconciler.labels.label(project)) }
        }
        func receipts(_ list: [JournalReconciler.Receipt]) -> [Receipt] {
            list.map { receipt in
                named(receipt.project)
                return Receipt(project: receipt.project, status: receipt.status, duplicate: receipt.duplicate, receivedAt: receipt.receivedAt,
                               place: "\(logs[receipt.file]):\(receipt.line)")
            }
        }
        func entry(_ call: JournalReconciler.JournalCall, _ verdict: ReconcileVerdict?, hole: String?) -> Entry {
            named(call.project)
            return Entry(verdict: verdict, hole: hole, project: call.project, task: call.task.description, endpoint: call.endpoint,
                         outcome: call.outcome.map { Describe.taskOutcome($0) } ?? "pending", outcomeAt: call.outcomeAt,
                         receipts: receipts(call.receipts))
        }
        var result = reconciler.journals.map { _ in ReceivedCalls() }
        func add(_ entry: Entry, of call: JournalReconciler.JournalCall) {
            if let id = call.call { result[call.journal].calls[id] = entry } else { result[call.journal].ownRequests.append(entry) }
        }
        reconciler.forEachRow { row in
            if let call = row.call {
                add(entry(call, row.verdict, hole: nil), of: call)
            } else if let journal = row.journal, let receipt = receipts(row.receipts).first {
                result[journal].strays.append(Stray(receipt: receipt, endpoint: row.endpoint, callID: row.receiptCallID?.hex, hole: nil))
            }
        }
        for call in reconciler.callsInHoles {
            add(entry(call, nil, hole: call.inGap ?? "a hole of the journal"), of: call)
        }
        for (hole, receipt, callID) in reconciler.notJudgedReceipts {
            let what = reconciler.holes[hole]
            guard let kept = receipts([receipt]).first else { continue }
            result[what.journal].strays.append(Stray(receipt: kept, endpoint: nil, callID: callID.hex, hole: what.what))
        }
        let problems = reconciler.problems.map(\.description)
        for index in result.indices {
            result[index].logs = logs
            result[index].names = names
            result[index].problems = problems
        }
        return result
    }

    /// What the logs say of `call`, as JSON: its verdict (null when not judged, with the hole),
    /// the project the journal sent it to, the journal's outcome, and each receipt (project,
    /// label, status, duplicate, received time, file and line). Nil for a call the journal
    /// never sent nor queued.
    package func json(_ call: CallID) -> JSONValue? {
        calls[call].map(json)
    }

    func json(_ entry: Entry) -> JSONValue {
        .object([
            ("verdict", .optional(entry.verdict) { .string($0.rawValue) }),
            ("hole", .optional(entry.hole, JSONValue.string)),
            ("project", .string(entry.project.hex)), ("project_name", .string(name(entry.project))),
            ("task", .string(entry.task)), ("endpoint", .string(entry.endpoint)),
            ("journal_outcome", .string(entry.outcome)), ("outcome_at", .optional(entry.outcomeAt) { .string($0.description) }),
            ("receipts", .array(entry.receipts.map(json))),
        ])
    }

    func json(_ receipt: Receipt) -> JSONValue {
        .object([
            ("project", .string(receipt.project.hex)), ("label", .optional(names[receipt.project]?.label, JSONValue.string)),
            ("project_name", .string(name(receipt.project))),
            ("status", .optional(receipt.status) { .integer(Int64($0)) }), ("duplicate", .bool(receipt.duplicate)),
            ("received_at", .string(receipt.receivedAt.description)), ("place", .string(receipt.place)),
        ])
    }
}
