import Foundation
import Journal
import SDK

/// Matches what journals say each project received against backends' receipt logs, call by
/// call (`replay reconcile`, docs/RECONCILE.md): every call the journals sent or queued gets one
/// ``ReconcileVerdict``, and every receipt of the journals' streams that no journal call
/// explains is `unjournaled`.
///
/// Journals are read first (``addJournal(path:reader:)``), then the logs are streamed
/// (``addReceipts(path:)``): memory holds one small entry per call the journals sent (its
/// ``WireCallID``, project, outcome and receipts' marks), never a log's lines. Bad input is
/// named in ``problems`` (file and line, journal and sequence) and skipped; what reads well
/// is judged. Not thread-safe: one reconciliation on one thread.
package final class JournalReconciler {
    /// One call a journal sent or queued, as the journal tells it.
    package struct JournalCall: Sendable {
        /// Which journal (its index in ``journals``).
        package var journal: Int
        /// The public call; nil for a request of the SDK's own (a switch's disableDevice).
        package var call: CallID?
        package var callID: WireCallID
        /// The task that carried it last.
        package var task: TaskID
        /// The project the journal sent it to.
        package var project: ProjectFingerprint
        /// The task's path when it was queued (`events/track` also for an event that left in a bulk).
        package var endpoint: String
        package var queuedAt: JournalTime
        /// How its task ended for it; nil while pending at the journal's end.
        package var outcome: TaskOutcome?
        package var outcomeAt: JournalTime?
        /// Whether an attempt left (a `taskDispatched`).
        package var dispatched = false
        /// A gap (or the journal's end of retention) lies after it was queued while it is still
        /// pending: its outcome may be in the gap, so it is not judged.
        package var inGap: String?
        /// What the projects said of it.
        package var receipts: [Receipt] = []
    }

    /// One receipt-log line, as kept for a call: what the verdict and its rendering need.
    package struct Receipt: Sendable {
        package var project: ProjectFingerprint
        package var status: Int?
        package var duplicate: Bool
        package var receivedAt: JournalTime
        /// Which receipt log (its index in ``receiptFiles``) and line.
        package var file: Int
        package var line: Int
    }

    /// A verdict on one call, or on one receipt no journal call explains.
    package struct Row: Sendable {
        package var verdict: ReconcileVerdict
        /// The journal's call; nil for an `unjournaled` receipt.
        package var call: JournalCall?
        /// The receipts (for `unjournaled`, the one receipt).
        package var receipts: [Receipt]
        /// For `unjournaled`: the journal whose stream the receipt names, and its endpoint.
        package var journal: Int?
        package var endpoint: String?
        package var receiptCallID: WireCallID?

        /// The project the row is counted under: the journal's, else the receiving one.
        package var project: ProjectFingerprint? { call?.project ?? receipts.first?.project }
    }

    /// A range of a journal with no records to judge by: a gap, an erasure, or what retention
    /// dropped before its first record. Receipts in it that no call explains are not judged.
    package struct Hole: Sendable {
        package var journal: Int
        package var from: JournalTime?
        package var to: JournalTime
        package var what: String
    }

    /// One journal read.
    package struct JournalInfo: Sendable {
        package var path: String
        package var stream: UUID?
        package var records = 0
    }

    /// One receipt log streamed, and what its lines were.
    package struct ReceiptFile: Sendable {
        package var path: String
        package var lines = 0
        package var malformed = 0
        /// Lines of streams no journal given is (another install's calls).
        package var foreign = 0
        package var matched = 0
        package var unjournaled = 0
        package var notJudged = 0
    }

    /// A piece of bad input, named where it is.
    package struct Problem: Sendable, CustomStringConvertible {
        package var place: String
        package var message: String
        package var description: String { "\(place): \(message)" }
    }

    package private(set) var journals: [JournalInfo] = []
    package private(set) var receiptFiles: [ReceiptFile] = []
    package private(set) var holes: [Hole] = []
    package private(set) var problems: [Problem] = []
    /// Receipts in a hole of their journal, not judged: how many, per hole index.
    package private(set) var notJudgedReceipts: [(hole: Int, receipt: Receipt, callID: WireCallID)] = []
    package private(set) var labels = ProjectLabels()
    private var calls: [JournalCall] = []
    private var index: [WireCallID: Int] = [:]
    private var unjournaled: [Row] = []
    private var journalOfStream: [UUID: Int] = [:]
    private var knownProjects: Set<ProjectFingerprint> = []
    /// A receipt up to this much later than the journal's outcome is not `late` (the two
    /// clocks differ).
    private let clockSkewMicroseconds: Int64
    /// The most problems named one by one per file or journal; the rest are counted.
    package static let namedProblemsPerSource = 20
    private var problemsNamed: [String: Int] = [:]

    package init(clockSkewMicroseconds: Int64 = 0) {
        self.clockSkewMicroseconds = clockSkewMicroseconds
    }

    // MARK: - Journals

    /// Reads the journal at `path` (opened as `reader`): every call its tasks carried. Throws
    /// journal errors when it cannot be read at all; records it cannot read are named in
    /// ``problems`` as the walk reports them.
    package func addJournal(path: String, reader: JournalReader) throws {
        let number = journals.count
        let stream = reader.journalID
        journals.append(JournalInfo(path: path, stream: stream))
        guard let stream else {
            problem(path, "the journal's segment headers carry no journal id: its calls' ids on the wire cannot be derived; skipped")
            return
        }
        if let other = journalOfStream[stream] {
            problem(path, "the same journal (id \(stream.uuidString.lowercased())) as \(journals[other].path); read once")
            return
        }
        journalOfStream[stream] = number
        let walk = try JournalWalk(reader: reader)
        var tasks: [TaskID: [Int]] = [:]
        var last: (sequence: UInt64, time: JournalTime)?
        var records = 0
        func register(_ task: DeliveryTask, at time: JournalTime) {
            // The calls in the order of ``DeliveryTask/wireCallIDs(stream:)``: the task's own
            // (none once it expired; nil for the SDK's own request), then its batch's.
            var owners: [CallID?] = []
            if let call = task.call { if !task.leadExpired { owners.append(call) } } else { owners.append(nil) }
            owners.append(contentsOf: task.batchCalls.map { Optional($0) })
            var entries: [Int] = []
            for (id, call) in zip(task.wireCallIDs(stream: stream), owners) {
                entries.append(entry(id, journal: number, call: call, task: task, at: time))
            }
            tasks[task.id] = entries
            knownProjects.insert(task.project)
        }
        while let record = try walk.next() {
            records += 1
            labels.learn(from: record)
            if let last, record.sequence > last.sequence + 1 {
                addHole(number, from: last.time, to: record.time,
                        what: "records \(last.sequence + 1)…\(record.sequence - 1) are missing from \(path)")
            } else if last == nil, record.sequence > 1 {
                // A journal's first record is number 1: a later first one means retention (or
                // deletion) dropped those before it.
                addHole(number, from: nil, to: record.time, what: "records before \(record.sequence) are not in \(path) (retention)")
            }
            last = (record.sequence, record.time)
            switch record.content {
            case .snapshot(let snapshot):
                for (id, queued) in snapshot.tasks where tasks[id] == nil { register(queued.task, at: queued.task.createdAt) }
                continue
            case .unreadable:
                continue
            case .fact(let fact):
                switch fact {
                case .taskQueued(let task):
                    register(task, at: record.time)
                case .eventBatched(let id, let event, _):
                    guard let first = tasks[id]?.first else { break }
                    let template = calls[first]
                    let position = entry(WireCallID(stream: stream, call: event.call), journal: number, call: event.call,
                                         project: template.project, endpoint: DeliveryTask.trackPath, task: id, at: record.time)
                    tasks[id, default: []].append(position)
                case .taskDispatched(let id, _):
                    for position in tasks[id] ?? [] { calls[position].dispatched = true }
                case .taskCompleted(let id, let outcome):
                    for position in tasks.removeValue(forKey: id) ?? [] {
                        calls[position].outcome = outcome
                        calls[position].outcomeAt = record.time
                    }
                case .eventsExpired(let id, let expired):
                    let ids = Set(expired.map { WireCallID(stream: stream, call: $0) })
                    tasks[id] = tasks[id]?.filter { position in
                        guard ids.contains(calls[position].callID) else { return true }
                        calls[position].outcome = .discarded(.expired(ageLimit: .zero))
                        calls[position].outcomeAt = record.time
                        return false
                    }
                case .journalGap(let gap):
                    addHole(number, from: gap.from, to: gap.to,
                            what: "a gap of \(gap.lostFacts) fact(s) in \(path) (\(gap.reason))")
                case .localDataErased(let erasure) where erasure.lastErased >= erasure.firstErased:
                    addHole(number, from: nil, to: record.time,
                            what: "records \(erasure.firstErased)…\(erasure.lastErased) of \(path) erased at \(record.time)")
                default:
                    break
                }
            }
        }
        journals[number].records = records
        for (sequence, reason) in walk.stream.unreadableSample { problem("\(path) record \(sequence)", "unreadable (\(reason)); skipped") }
        if walk.stream.unreadableCount > walk.stream.unreadableSample.count {
            problem(path, "\(walk.stream.unreadableCount - walk.stream.unreadableSample.count) more unreadable record(s) skipped")
        }
        if let torn = walk.stream.tornTail {
            addHole(number, from: last?.time, to: JournalTime(microsecondsSince1970: .max), what: "the torn tail of \(path) (\(torn))")
        }
        // A call still pending after a hole began may have its outcome in the hole.
        for hole in holes where hole.journal == number {
            for (_, positions) in tasks {
                for position in positions where calls[position].outcome == nil && calls[position].inGap == nil
                    && (hole.from.map { calls[position].queuedAt <= $0 } ?? true) {
                    calls[position].inGap = hole.what
                }
            }
        }
    }

    /// The entry for `id` (new, or the one a task made again after a crash shares).
    private func entry(_ id: WireCallID, journal: Int, call: CallID?, task: DeliveryTask, at time: JournalTime) -> Int {
        entry(id, journal: journal, call: call, project: task.project, endpoint: task.path, task: task.id, at: time)
    }

    private func entry(_ id: WireCallID, journal: Int, call: CallID?, project: ProjectFingerprint, endpoint: String,
                       task: TaskID, at time: JournalTime) -> Int {
        if let position = index[id] {
            calls[position].task = task
            calls[position].project = project
            return position
        }
        calls.append(JournalCall(journal: journal, call: call, callID: id, task: task, project: project, endpoint: endpoint, queuedAt: time))
        index[id] = calls.count - 1
        return calls.count - 1
    }

    private func addHole(_ journal: Int, from: JournalTime?, to: JournalTime, what: String) {
        holes.append(Hole(journal: journal, from: from, to: to, what: what))
    }

    // MARK: - Receipts

    /// Streams the receipt log at `path`, matching each line with the journals' calls. Throws
    /// when the file cannot be read at all; bad lines are named in ``problems`` and skipped.
    package func addReceipts(path: String) throws(ReceiptLogError) {
        let reader = try ReceiptLogReader(path: path)
        let file = receiptFiles.count
        receiptFiles.append(ReceiptFile(path: path))
        var unknownProjects: Set<ProjectFingerprint> = []
        var foreignStreams: Set<UUID> = []
        var stats = ReceiptFile(path: path)
        defer { receiptFiles[file] = stats }
        while let line = try reader.next() {
            stats.lines += 1
            let receiptLine: ReceiptLine
            switch line.result {
            case .failure(let error):
                stats.malformed += 1
                problem("\(path):\(line.number)", error.message + "; line skipped")
                continue
            case .success(let read):
                receiptLine = read
            }
            let receipt = Receipt(project: receiptLine.project, status: receiptLine.status, duplicate: receiptLine.duplicate,
                                  receivedAt: receiptLine.receivedAt, file: file, line: line.number)
            if let position = index[receiptLine.callID] {
                stats.matched += 1
                calls[position].receipts.append(receipt)
                if !knownProjects.contains(receiptLine.project), unknownProjects.insert(receiptLine.project).inserted {
                    problem("\(path):\(line.number)", "project \(receiptLine.project.hex) is no project the journals sent to")
                }
                continue
            }
            guard let stream = receiptLine.stream, let journal = journalOfStream[stream] else {
                stats.foreign += 1
                if let stream = receiptLine.stream { foreignStreams.insert(stream) }
                continue
            }
            if let hole = holes.lastIndex(where: { hole in
                hole.journal == journal && (hole.from.map { $0 <= receiptLine.receivedAt } ?? true) && receiptLine.receivedAt <= hole.to
            }) {
                stats.notJudged += 1
                notJudgedReceipts.append((hole, receipt, receiptLine.callID))
                continue
            }
            stats.unjournaled += 1
            unjournaled.append(Row(verdict: .unjournaled, call: nil, receipts: [receipt], journal: journal, endpoint: receiptLine.endpoint,
                                   receiptCallID: receiptLine.callID))
        }
        if stats.lines > stats.malformed, stats.foreign == stats.lines - stats.malformed {
            let streams = foreignStreams.map { $0.uuidString.lowercased() }.sorted()
            problem(path, "none of its \(stats.foreign) receipt(s) is of the journals given"
                    + (streams.isEmpty ? "" : " (their idempotency keys name \(streams.prefix(3).joined(separator: ", "))\(streams.count > 3 ? ", …" : ""))")
                    + ": another device's log?")
        }
    }

    // MARK: - Verdicts

    /// Every call's verdict (calls not judged left out) and every unjournaled receipt, worst
    /// verdict first, then in journal order.
    package func rows() -> [Row] {
        var byVerdict: [ReconcileVerdict: [Row]] = [:]
        for call in calls where call.inGap == nil {
            let verdict = verdict(of: call)
            byVerdict[verdict, default: []].append(Row(verdict: verdict, call: call, receipts: call.receipts))
        }
        byVerdict[.unjournaled, default: []].append(contentsOf: unjournaled)
        return ReconcileVerdict.allCases.flatMap { byVerdict[$0] ?? [] }
    }

    /// Each public call's verdict (calls of the SDK's own and unjournaled receipts left out),
    /// and the calls not judged: what `replay audit --received` shows per call.
    package func verdictsByCall() -> (verdicts: [CallID: ReconcileVerdict], notJudged: Set<CallID>) {
        var verdicts: [CallID: ReconcileVerdict] = [:]
        var notJudged: Set<CallID> = []
        for call in calls {
            guard let id = call.call else { continue }
            if call.inGap != nil { notJudged.insert(id) } else { verdicts[id] = verdict(of: call) }
        }
        return (verdicts, notJudged)
    }

    /// The receipts no journal call explains (each an `unjournaled` row).
    package var unjournaledCount: Int { unjournaled.count }

    /// The calls not judged because their outcome may lie in a hole.
    package var callsInHoles: [JournalCall] { calls.filter { $0.inGap != nil } }

    /// How many calls the journals hold.
    package var callCount: Int { calls.count }

    /// The verdict on `call` by its receipts.
    package func verdict(of call: JournalCall) -> ReconcileVerdict {
        if call.receipts.contains(where: { $0.project != call.project }) { return .elsewhere }
        let held = call.receipts.filter { $0.status.map { (200..<300).contains($0) } ?? false }
        let delivered = if case .delivered? = call.outcome { true } else { false }
        if held.isEmpty { return delivered ? .lost : .agreed }
        if held.filter({ !$0.duplicate }).count > 1 { return .duplicate }
        if let outcomeAt = call.outcomeAt,
           held.contains(where: { $0.receivedAt.microsecondsSince1970 > outcomeAt.microsecondsSince1970 &+ clockSkewMicroseconds }) {
            return .late
        }
        return delivered ? .agreed : .unconfirmed
    }

    private func problem(_ place: String, _ message: String) {
        let source = place.split(separator: ":").first.map(String.init) ?? place
        let named = problemsNamed[source, default: 0]
        problemsNamed[source] = named + 1
        if named < Self.namedProblemsPerSource {
            problems.append(Problem(place: place, message: message))
        } else if named == Self.namedProblemsPerSource {
            problems.append(Problem(place: source, message: "more problems follow; the first \(Self.namedProblemsPerSource) are named"))
        }
    }
}
