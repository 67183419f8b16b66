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
    package private(set) var journals: [JournalInfo] = []
    package private(set) var receiptFiles: [ReceiptFile] = []
    package private(set) var holes: [Hole] = []
    package private(set) var problems: [Problem] = []
    /// Receipts in a hole of their journal, not judged: how many, per hole index.
    package private(set) var notJudgedReceipts: [(hole: Int, receipt: Receipt, callID: WireCallID)] = []
    package private(set) var labels = ProjectLabels()
    /// What is kept of a call: its ``JournalCall`` with strings and outcomes as indices into
    /// tables and its first receipt inline (others in ``moreReceipts``): a fleet's calls are many.
    private struct StoredCall {
        var callID: WireCallID
        var call: CallID?
        var task: TaskID
        var project: ProjectFingerprint
        var queuedAt: JournalTime
        var outcomeAt: JournalTime?
        var receipt: Receipt?
        var journal: UInt32
        /// Index into ``outcomes`` plus one; 0 while pending.
        var outcome: UInt32 = 0
        /// Index into ``holes`` plus one; 0 when judged.
        var hole: UInt32 = 0
        var endpoint: UInt16
        var dispatched = false
    }
    private var calls: [StoredCall] = []
    private var moreReceipts: [Int: [Receipt]] = [:]
    private var outcomes: [TaskOutcome] = []
    private var outcomeIndex: [TaskOutcome: UInt32] = [:]
    private var endpoints: [String] = []
    private var endpointIndex: [String: UInt16] = [:]
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
        var refusals: [TaskID: TransportCompletion] = [:]
        var last: (sequence: UInt64, time: JournalTime)?
        var records = 0
        // The age limit an expiry reports: the engine's, as its last start journaled it.
        var ageLimit = Duration.milliseconds(EngineRules().deliveryAgeLimitMilliseconds)
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
                case .engineStarted(let start):
                    ageLimit = .milliseconds(start.options.deliveryAgeLimitMilliseconds)
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
                case .transportCompleted(let completion):
                    // A bulk's answer that refused some of its events: each of those calls fails
                    // alone while the task is delivered (the SDK resolves them so).
                    if !completion.refusedEvents.isEmpty { refusals[completion.task] = completion }
                case .taskCompleted(let id, let outcome):
                    let stored = intern(outcome)
                    let refusal = refusals.removeValue(forKey: id)
                    for (index, position) in (tasks.removeValue(forKey: id) ?? []).enumerated() {
                        calls[position].outcome = stored
                        calls[position].outcomeAt = record.time
                        if case .delivered(let status) = outcome, let refused = refusal?.refusedEvents.first(where: { $0.index == index }) {
                            calls[position].outcome = intern(.failed(.httpStatus(status, code: "EventRefused", message: refused.reason)))
                        }
                    }
                case .eventsExpired(let id, let expired):
                    let ids = Set(expired.map { WireCallID(stream: stream, call: $0) })
                    let stored = intern(.discarded(.expired(ageLimit: ageLimit)))
                    tasks[id] = tasks[id]?.filter { position in
                        guard ids.contains(calls[position].callID) else { return true }
                        calls[position].outcome = stored
                        calls[position].outcomeAt = record.time
                        return false
                    }
                case .journalGap(let gap):
                    addHole(number, from: gap.from, to: gap.to,
                            what: "a gap of \(gap.lostFacts) fact(s) in \(path) (\(gap.reason))")
                case .localDataErased(let erasure):
                    guard erasure.lastErased >= erasure.firstErased else { break }
                    addHole(number, from: nil, to: record.time,
                            what: "records \(erasure.firstErased)…\(erasure.lastErased) of \(path) erased at \(record.time)")
                case .disableCoalesced:
                    // The coalesced call rides on its task's own wire id: one request, one receipt.
                    break
                // Facts that neither put a call on the wire nor end one there (a task's outcome is
                // its taskCompleted's; a call's resolution follows from it).
                case .callReceived, .callRejected, .switchRouted, .callResolved, .callsResolved, .timerFired,
                     .durabilityConfirmed, .moduleHookCompleted, .authTokenReceived, .callbacksDelivered, .notificationReceived,
                     .engineStopping, .linkResolved, .networkReachable, .clockJumped, .backgroundTaskBegan, .backgroundTaskExpired,
                     .backgroundFlushFinished, .backgroundTaskEnded, .initialized, .identityChanged,
                     .pushTokenChanged, .attributionChanged, .attributionRefused, .unknownUserEventHeld, .unknownUserSessionCounted,
                     .unknownUserEventsReleased, .linkResolutionStarted, .staleResultRefused, .retryScheduled, .timerSet,
                     .authRefreshRequested, .authRefreshFinished, .durabilityRequested, .moduleEventDelivered, .moduleHookStarted,
                     .moduleHookFinished, .messagesStored, .storageCleared, .gateDecided, .switchStarted, .teardownStepBegan,
                     .teardownStepFinished, .switchLanded, .switchCancelled, .unknown:
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
        // A call still pending at the end, queued before a hole ended, may have its outcome in
        // the hole: not judged.
        for (holeIndex, hole) in holes.enumerated() where hole.journal == number {
            for (_, positions) in tasks {
                for position in positions where calls[position].outcome == 0 && calls[position].hole == 0
                    && calls[position].queuedAt <= hole.to {
                    calls[position].hole = UInt32(holeIndex + 1)
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
        let endpointNumber: UInt16
        if let known = endpointIndex[endpoint] {
            endpointNumber = known
        } else {
            endpointNumber = UInt16(clamping: endpoints.count)
            if endpoints.count <= Int(UInt16.max) {
                endpoints.append(endpoint)
                endpointIndex[endpoint] = endpointNumber
            }
        }
        calls.append(StoredCall(callID: id, call: call, task: task, project: project, queuedAt: time, outcomeAt: nil, receipt: nil,
                                journal: UInt32(journal), endpoint: endpointNumber))
        index[id] = calls.count - 1
        return calls.count - 1
    }

    /// The number ``StoredCall/outcome`` keeps for `outcome`.
    private func intern(_ outcome: TaskOutcome) -> UInt32 {
        if let known = outcomeIndex[outcome] { return known }
        outcomes.append(outcome)
        outcomeIndex[outcome] = UInt32(outcomes.count)
        return UInt32(outcomes.count)
    }

    /// The call at `position` as the journal and the receipts tell it.
    private func view(_ position: Int) -> JournalCall {
        let stored = calls[position]
        var receipts: [Receipt] = []
        if let first = stored.receipt { receipts.append(first) }
        receipts.append(contentsOf: moreReceipts[position] ?? [])
        return JournalCall(journal: Int(stored.journal), call: stored.call, callID: stored.callID, task: stored.task, project: stored.project,
                           endpoint: endpoints[min(Int(stored.endpoint), endpoints.count - 1)], queuedAt: stored.queuedAt,
                           outcome: stored.outcome == 0 ? nil : outcomes[Int(stored.outcome) - 1], outcomeAt: stored.outcomeAt,
                           dispatched: stored.dispatched, inGap: stored.hole == 0 ? nil : holes[Int(stored.hole) - 1].what,
                           receipts: receipts)
    }

    private func addHole(_ journal: Int, from: JournalTime?, to: JournalTime, what: String) {
        holes.append(Hole(journal: journal, from: from, to: to, what: what))
    }

    // MARK: - Receipts

    /// Streams the receipt log at `path`, matching each line with the journals' calls. Throws
    /// when the file cannot be read at all; bad lines are named in ``problems`` and skipped.
    package func addReceipts(path: String) throws(ReceiptLogError) {
        let reader = try ReceiptLogReader(path: path)
        try addReceipts(path: path) { () throws(ReceiptLogError) in try reader.next() }
    }

    /// Matches the receipt-log lines `lines` (a log held in memory, e.g. the simulator's
    /// backend's, numbered from 1) as ``addReceipts(path:)`` matches a file's, named `path`.
    package func addReceipts(_ lines: [ReceiptLine], path: String) {
        var iterator = lines.enumerated().makeIterator()
        addReceipts(path: path) { () -> ReceiptLogReader.Line? in
            iterator.next().map { ReceiptLogReader.Line(number: $0.offset + 1, result: .success($0.element)) }
        }
    }

    private func addReceipts<Failure: Error>(path: String, next: () throws(Failure) -> ReceiptLogReader.Line?) throws(Failure) {
        let file = receiptFiles.count
        receiptFiles.append(ReceiptFile(path: path))
        var unknownProjects: Set<ProjectFingerprint> = []
        var foreignStreams: Set<UUID> = []
        var stats = ReceiptFile(path: path)
        defer { receiptFiles[file] = stats }
        while let line = try next() {
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
                if calls[position].receipt == nil { calls[position].receipt = receipt } else { moreReceipts[position, default: []].append(receipt) }
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
    /// verdict first, then in journal order. ``forEachRow(_:)`` without the array.
    package func rows() -> [Row] {
        var rows: [Row] = []
        forEachRow { rows.append($0) }
        return rows
    }

    /// Hands out what ``rows()`` holds, one row at a time (one pass over the calls per verdict,
    /// nothing copied but the row at hand).
    package func forEachRow(_ body: (Row) -> Void) {
        for verdict in ReconcileVerdict.allCases {
            if verdict == .unjournaled {
                unjournaled.forEach(body)
                continue
            }
            for position in calls.indices where calls[position].hole == 0 && self.verdict(at: position) == verdict {
                let call = view(position)
                body(Row(verdict: verdict, call: call, receipts: call.receipts))
            }
        }
    }

    /// Each public call's verdict (calls of the SDK's own and unjournaled receipts left out),
    /// and the calls not judged: what `replay audit --received` shows per call.
    package func verdictsByCall() -> (verdicts: [CallID: ReconcileVerdict], notJudged: Set<CallID>) {
        var verdicts: [CallID: ReconcileVerdict] = [:]
        var notJudged: Set<CallID> = []
        for position in calls.indices {
            guard let id = calls[position].call else { continue }
            if calls[position].hole != 0 { notJudged.insert(id) } else { verdicts[id] = verdict(at: position) }
        }
        return (verdicts, notJudged)
    }

    /// The receipts no journal call explains (each an `unjournaled` row).
    package var unjournaledCount: Int { unjournaled.count }

    /// The calls not judged because their outcome may lie in a hole.
    package var callsInHoles: [JournalCall] { calls.indices.filter { calls[$0].hole != 0 }.map(view) }

    /// How many calls the journals hold.
    package var callCount: Int { calls.count }

    /// The verdict on `call` by its receipts.
    package func verdict(of call: JournalCall) -> ReconcileVerdict {
        let delivered = if case .delivered? = call.outcome { true } else { false }
        return Self.verdict(project: call.project, delivered: delivered, outcomeAt: call.outcomeAt, receipts: call.receipts,
                            skew: clockSkewMicroseconds)
    }

    private func verdict(at position: Int) -> ReconcileVerdict {
        let stored = calls[position]
        let delivered = if stored.outcome != 0, case .delivered = outcomes[Int(stored.outcome) - 1] { true } else { false }
        guard let first = stored.receipt else { return delivered ? .lost : .agreed }
        let receipts = moreReceipts[position].map { [first] + $0 } ?? [first]
        return Self.verdict(project: stored.project, delivered: delivered, outcomeAt: stored.outcomeAt, receipts: receipts,
                            skew: clockSkewMicroseconds)
    }

    /// The rules of docs/RECONCILE.md, section 3.
    private static func verdict(project: ProjectFingerprint, delivered: Bool, outcomeAt: JournalTime?, receipts: [Receipt],
                                skew: Int64) -> ReconcileVerdict {
        if receipts.contains(where: { $0.project != project }) { return .elsewhere }
        let held = receipts.filter { $0.status.map { (200..<300).contains($0) } ?? false }
        if held.isEmpty { return delivered ? .lost : .agreed }
        if held.filter({ !$0.duplicate }).count > 1 { return .duplicate }
        if let outcomeAt, held.contains(where: { $0.receivedAt.microsecondsSince1970 > outcomeAt.microsecondsSince1970 &+ skew }) {
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
