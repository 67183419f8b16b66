import Foundation
import Journal
import SDK

/// Matches what journals say each project received against backends' receipt logs, call by
/// call (`replay reconcile`, docs/RECONCILE.md): every call the journals sent or queued gets one
/// ``ReconcileVerdict``, and every receipt of the journals' streams that no journal call
/// explains is `unjournaled`.
///
/// Two ways to feed it, with the same verdicts: journals and logs in one pass in time order
/// (``reconcile(journals:receiptLogs:windowMicroseconds:)``, what `replay reconcile` does):
/// memory holds the calls in flight and those that did not agree, the agreed ones going to a
/// temporary file once judged; or journals read whole first (``addJournal(path:reader:)``),
/// then the logs streamed (``addReceipts(path:)``): memory holds one small entry per call the
/// journals sent (its ``WireCallID``, project, outcome and receipts' marks). A log's lines are
/// never held. Bad input is named in ``problems`` (file and line, journal and sequence) and
/// skipped; what reads well is judged. Not thread-safe: one reconciliation on one thread.
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
        /// How many pending tasks' call lists hold it (it is let go only at 0).
        var references: UInt32 = 0
        /// False once let go (streaming): its slot is free.
        var live = true
        /// Whether ``moreReceipts`` holds receipts of it beyond ``receipt``.
        var hasMoreReceipts = false
    }
    /// The calls held, by slot (a slot let go is reused: ``freeSlots``); ``index`` names the
    /// slot of each call held. Its exclusive access is not checked at run time: the reconciler
    /// is one thread's (not Sendable), and no access to it is held open across another (each
    /// is one subscript, or a closure that reads it between two); the check costs a few
    /// percent of a fleet's reconciliation, for every record and receipt.
    @exclusivity(unchecked) private var calls: [StoredCall] = []
    private var freeSlots: [Int] = []
    private var liveCount = 0
    private var moreReceipts: [Int: [Receipt]] = [:]
    /// Streaming (``reconcile(journals:receiptLogs:)``): calls are let go once judged.
    private var streaming = false
    /// Calls with an outcome, in the order of their outcome's time: (µs, slot, id).
    private var retireQueue: [(at: Int64, slot: Int, id: WireCallID)] = []
    private var retireHead = 0
    /// Calls let go: the agreed ones in a temporary file, the others here.
    private var agreedRows = SpilledCalls<StoredCall>()
    private var keptRows: [Row] = []
    private var retiredCount = 0
    /// Which ids were let go (may say yes of one that was not), and the entries made again
    /// for one of them.
    private var retired = WireCallFilter()
    private var madeAgain: Set<WireCallID> = []
    /// Receipts of a journal's stream no call held matched while streaming: matched at the end.
    private struct Unmatched {
        var receipt: Receipt
        var callID: WireCallID
        var journal: Int
        var endpoint: String
    }
    private var unmatched: [Unmatched] = []
    /// Per receipt log: other installs' streams (for the message), projects named.
    private struct ReceiptChecks {
        var foreignStreams: Set<UUID> = []
        var projects: Set<ProjectFingerprint> = []
        /// Streaming: unknown projects, at their first line, named at the end.
        var unknownProjects: [ProjectFingerprint: Int] = [:]
    }
    private var receiptChecks: [ReceiptChecks] = []
    private var outcomes: [TaskOutcome] = []
    private var outcomeIndex: [TaskOutcome: UInt32] = [:]
    private var endpoints: [String] = []
    private var endpointIndex: [String: UInt16] = [:]
    /// Unchecked at run time, as ``calls`` is.
    @exclusivity(unchecked) private var index = WireCallIndex()
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
        guard let cursor = try openJournal(path: path, reader: reader) else { return }
        while let record = try cursor.walk.next() { consume(record, of: cursor) }
        finishJournal(cursor)
    }

    /// One journal being read: its walk and what the calls of its pending tasks are.
    private final class JournalCursor {
        let number: Int
        let path: String
        let stream: UUID
        let walk: JournalWalk
        /// The slots of each pending task's calls, in ``DeliveryTask/wireCallIDs(stream:)`` order.
        var tasks: [TaskID: [Int]] = [:]
        /// A bulk's answer that refused some of its events, until its task completes.
        var refusals: [TaskID: TransportCompletion] = [:]
        var last: (sequence: UInt64, time: JournalTime)?
        var records = 0
        /// The age limit an expiry reports: the engine's, as its last start journaled it.
        var ageLimit = Duration.milliseconds(EngineRules().deliveryAgeLimitMilliseconds)
        /// The next record, read ahead (streaming).
        var head: DecodedRecord?

        init(number: Int, path: String, stream: UUID, walk: JournalWalk) {
            self.number = number
            self.path = path
            self.stream = stream
            self.walk = walk
        }
    }

    /// Registers the journal at `path`; nil when it is skipped (no journal id, read already).
    private func openJournal(path: String, reader: JournalReader, readsAhead: Bool = true) throws -> JournalCursor? {
        let number = journals.count
        let stream = reader.journalID
        journals.append(JournalInfo(path: path, stream: stream))
        guard let stream else {
            problem(path, "the journal's segment headers carry no journal id: its calls' ids on the wire cannot be derived; skipped")
            return nil
        }
        if let other = journalOfStream[stream] {
            problem(path, "the same journal (id \(stream.uuidString.lowercased())) as \(journals[other].path); read once")
            return nil
        }
        journalOfStream[stream] = number
        return JournalCursor(number: number, path: path, stream: stream, walk: try JournalWalk(reader: reader, decoding: .withoutDataValues, readsAhead: readsAhead))
    }

    /// The slots of `task`'s calls, registered, in the order of
    /// ``DeliveryTask/wireCallIDs(stream:)``: the task's own (none once it expired; nil for the
    /// SDK's own request), then its batch's.
    private func register(_ task: DeliveryTask, at time: JournalTime, in cursor: JournalCursor) {
        var owners: [CallID?] = []
        if let call = task.call { if !task.leadExpired { owners.append(call) } } else { owners.append(nil) }
        owners.append(contentsOf: task.batchCalls.map { Optional($0) })
        var entries: [Int] = []
        for (id, call) in zip(task.wireCallIDs(stream: cursor.stream), owners) {
            entries.append(entry(id, journal: cursor.number, call: call, task: task, at: time))
        }
        for slot in cursor.tasks[task.id] ?? [] { calls[slot].references -= 1 }
        for slot in entries { calls[slot].references += 1 }
        cursor.tasks[task.id] = entries
        knownProjects.insert(task.project)
    }

    /// Gives the calls of task `id` the outcome `outcome` names for each (by its index in the
    /// task and its slot; nil: still pending, kept in the task) at `time`, and queues them to
    /// be let go (streaming).
    private func settle(_ id: TaskID, in cursor: JournalCursor, at time: JournalTime,
                        outcome: (_ index: Int, _ slot: Int) -> UInt32?) {
        guard let slots = cursor.tasks[id] else { return }
        var kept: [Int] = []
        for (index, slot) in slots.enumerated() {
            guard let stored = outcome(index, slot) else { kept.append(slot); continue }
            calls[slot].outcome = stored
            calls[slot].outcomeAt = time
            calls[slot].references -= 1
            if streaming { retireQueue.append((time.microsecondsSince1970, slot, calls[slot].callID)) }
        }
        cursor.tasks[id] = kept
    }

    /// Reads one record of `cursor`'s journal.
    private func consume(_ record: DecodedRecord, of cursor: JournalCursor) {
        let number = cursor.number, path = cursor.path
        cursor.records += 1
        labels.learn(from: record)
        if let last = cursor.last, record.sequence > last.sequence + 1 {
            addHole(number, from: last.time, to: record.time,
                    what: "records \(last.sequence + 1)…\(record.sequence - 1) are missing from \(path)")
        } else if cursor.last == nil, record.sequence > 1 {
            // A journal's first record is number 1: a later first one means retention (or
            // deletion) dropped those before it.
            addHole(number, from: nil, to: record.time, what: "records before \(record.sequence) are not in \(path) (retention)")
        }
        cursor.last = (record.sequence, record.time)
        switch record.content {
        case .snapshot(let snapshot):
            for (id, queued) in snapshot.tasks where cursor.tasks[id] == nil { register(queued.task, at: queued.task.createdAt, in: cursor) }
        case .unreadable:
            break
        case .fact(let fact):
            switch fact {
            case .engineStarted(let start):
                cursor.ageLimit = .milliseconds(start.options.deliveryAgeLimitMilliseconds)
            case .taskQueued(let task):
                register(task, at: record.time, in: cursor)
            case .eventBatched(let id, let event, _):
                guard let first = cursor.tasks[id]?.first else { break }
                let project = calls[first].project
                let slot = entry(WireCallID(stream: cursor.stream, call: event.call), journal: number, call: event.call,
                                 project: project, endpoint: DeliveryTask.trackPath, task: id, at: record.time)
                calls[slot].references += 1
                cursor.tasks[id, default: []].append(slot)
            case .taskDispatched(let id, _):
                for slot in cursor.tasks[id] ?? [] { calls[slot].dispatched = true }
            case .transportCompleted(let completion):
                // A bulk's answer that refused some of its events: each of those calls fails
                // alone while the task is delivered (the SDK resolves them so).
                if !completion.refusedEvents.isEmpty { cursor.refusals[completion.task] = completion }
            case .taskCompleted(let id, let outcome):
                let stored = intern(outcome)
                let refusal = cursor.refusals.removeValue(forKey: id)
                settle(id, in: cursor, at: record.time) { index, _ in
                    if case .delivered(let status) = outcome, let refused = refusal?.refusedEvents.first(where: { $0.index == index }) {
                        return intern(.failed(.httpStatus(status, code: "EventRefused", message: refused.reason)))
                    }
                    return stored
                }
                cursor.tasks[id] = nil
            case .eventsExpired(let id, let expired):
                let ids = Set(expired.map { WireCallID(stream: cursor.stream, call: $0) })
                let stored = intern(.discarded(.expired(ageLimit: cursor.ageLimit)))
                settle(id, in: cursor, at: record.time) { _, slot in ids.contains(calls[slot].callID) ? stored : nil }
            case .journalGap(let gap):
                addHole(number, from: gap.from, to: gap.to,
                        what: "a gap of \(gap.lostFacts) fact(s) in \(path) (\(gap.reason))")
            case .localDataErased(let erasure):
                guard erasure.erased.records > 0 else { break }
                addHole(number, from: nil, to: record.time,
                        what: "records \(erasure.erased.firstSequence)…\(erasure.erased.lastSequence) of \(path) erased at \(record.time)")
            case .disableCoalesced:
                // The coalesced call rides on its task's own wire id: one request, one receipt.
                break
            // Facts that neither put a call on the wire nor end one there (a task's outcome is
            // its taskCompleted's; a call's resolution follows from it).
            case .callReceived, .callRejected, .switchRouted, .callResolved, .callsResolved, .timerFired,
                 .durabilityConfirmed, .moduleHookCompleted, .authTokenReceived, .callbacksDelivered, .notificationReceived,
                 .engineStopping, .linkResolved, .networkReachable, .clockJumped, .backgroundTaskBegan, .backgroundTaskExpired,
                 .backgroundFlushFinished, .backgroundTaskEnded, .storageWasUnavailable, .keyringWriteFailed, .initialized, .identityChanged,
                 .pushTokenChanged, .attributionChanged, .attributionRefused, .unknownUserEventHeld, .unknownUserSessionCounted,
                 .unknownUserEventsReleased, .linkResolutionStarted, .staleResultRefused, .retryScheduled, .timerSet,
                 .authRefreshRequested, .authRefreshFinished, .durabilityRequested, .moduleEventDelivered, .moduleHookStarted,
                 .moduleHookFinished, .messagesStored, .storageCleared, .gateDecided, .switchStarted, .teardownStepBegan,
                 .teardownStepFinished, .switchLanded, .switchCancelled, .unknown:
                break
            }
        }
    }

    /// The journal's end: what its walk could not read is named, a torn tail is a hole, and a
    /// call still pending, queued before a hole of it ended, is not judged (its outcome may be
    /// in the hole).
    private func finishJournal(_ cursor: JournalCursor) {
        let number = cursor.number, path = cursor.path, walk = cursor.walk
        journals[number].records = cursor.records
        for (sequence, reason) in walk.stream.unreadableSample { problem("\(path) record \(sequence)", "unreadable (\(reason)); skipped") }
        if walk.stream.unreadableCount > walk.stream.unreadableSample.count {
            problem(path, "\(walk.stream.unreadableCount - walk.stream.unreadableSample.count) more unreadable record(s) skipped")
        }
        if let torn = walk.stream.tornTail {
            addHole(number, from: cursor.last?.time, to: JournalTime(microsecondsSince1970: .max), what: "the torn tail of \(path) (\(torn))")
        }
        // Damage a reader going on past it skipped (`--salvage`): where it resumed, the numbers
        // jump and that is a hole already; damage nothing readable follows is one to the end.
        for skip in walk.stream.problems.skippedDamage {
            problem(path, StreamProblems.wentOnPast(skip))
            if skip.resumedAtSequence == nil {
                addHole(number, from: cursor.last?.time, to: JournalTime(microsecondsSince1970: .max),
                        what: "the records of \(path) lost to damage from \(skip.damage.sequence.map { "sequence \($0)" } ?? "its last readable record") on")
            }
        }
        for (holeIndex, hole) in holes.enumerated() where hole.journal == number {
            for (_, slots) in cursor.tasks {
                for slot in slots where calls[slot].outcome == 0 && calls[slot].hole == 0 && calls[slot].queuedAt <= hole.to {
                    calls[slot].hole = UInt32(holeIndex + 1)
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
        if let slot = index[id] {
            calls[slot].task = task
            calls[slot].project = project
            return slot
        }
        // Made again after the entry it shares was judged and let go: merged with it at the end.
        if retired.mayContain(id) { madeAgain.insert(id) }
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
        let stored = StoredCall(callID: id, call: call, task: task, project: project, queuedAt: time, outcomeAt: nil, receipt: nil,
                                journal: UInt32(journal), endpoint: endpointNumber)
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            calls[slot] = stored
        } else {
            slot = calls.count
            calls.append(stored)
        }
        index[id] = slot
        liveCount += 1
        return slot
    }

    /// The number ``StoredCall/outcome`` keeps for `outcome`.
    private func intern(_ outcome: TaskOutcome) -> UInt32 {
        if let known = outcomeIndex[outcome] { return known }
        outcomes.append(outcome)
        outcomeIndex[outcome] = UInt32(outcomes.count)
        return UInt32(outcomes.count)
    }

    /// The call in `slot` as the journal and the receipts tell it.
    private func view(_ slot: Int) -> JournalCall {
        view(calls[slot], more: calls[slot].hasMoreReceipts ? moreReceipts[slot] ?? [] : [])
    }

    private func view(_ stored: StoredCall, more: [Receipt]) -> JournalCall {
        var receipts: [Receipt] = []
        if let first = stored.receipt { receipts.append(first) }
        receipts.append(contentsOf: more)
        // In the order a log-by-log read finds them (a receipt matched at the end of a pass
        // may be an early line).
        if receipts.count > 1 { receipts.sort { ($0.file, $0.line) < ($1.file, $1.line) } }
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
        let file = openReceipts(path: path)
        while let line = try reader.next() { match(line, file: file) }
        finishReceipts(file)
    }

    /// Matches the receipt-log lines `lines` (a log held in memory, e.g. the simulator's
    /// backend's, numbered from 1) as ``addReceipts(path:)`` matches a file's, named `path`.
    package func addReceipts(_ lines: [ReceiptLine], path: String) {
        let file = openReceipts(path: path)
        for (offset, line) in lines.enumerated() { match(ReceiptLogReader.Line(number: offset + 1, result: .success(line)), file: file) }
        finishReceipts(file)
    }

    private func openReceipts(path: String) -> Int {
        receiptFiles.append(ReceiptFile(path: path))
        receiptChecks.append(ReceiptChecks())
        return receiptFiles.count - 1
    }

    /// Matches one line of receipt log `file`: with a call held, else (streaming) kept to be
    /// matched at the end, else named other installs', not judged, or unjournaled.
    private func match(_ line: ReceiptLogReader.Line, file: Int) {
        let path = receiptFiles[file].path
        receiptFiles[file].lines += 1
        let receiptLine: ReceiptLine
        switch line.result {
        case .failure(let error):
            receiptFiles[file].malformed += 1
            problem("\(path):\(line.number)", error.message + "; line skipped")
            return
        case .success(let read):
            receiptLine = read
        }
        let receipt = Receipt(project: receiptLine.project, status: receiptLine.status, duplicate: receiptLine.duplicate,
                              receivedAt: receiptLine.receivedAt, file: file, line: line.number)
        if let slot = index[receiptLine.callID] {
            attach(receipt, to: slot)
            return
        }
        guard let stream = receiptLine.stream, let journal = journalOfStream[stream] else {
            receiptFiles[file].foreign += 1
            if let stream = receiptLine.stream, receiptChecks[file].foreignStreams.count < 4 { receiptChecks[file].foreignStreams.insert(stream) }
            return
        }
        let unmatched = Unmatched(receipt: receipt, callID: receiptLine.callID, journal: journal, endpoint: receiptLine.endpoint)
        if streaming {
            // Its call may be read later, or judged and let go already: decided at the end.
            self.unmatched.append(unmatched)
        } else {
            classify(unmatched)
        }
    }

    /// Adds `receipt` to the call in `slot`.
    private func attach(_ receipt: Receipt, to slot: Int) {
        receiptFiles[receipt.file].matched += 1
        if calls[slot].receipt == nil {
            calls[slot].receipt = receipt
        } else {
            moreReceipts[slot, default: []].append(receipt)
            calls[slot].hasMoreReceipts = true
        }
        noteProject(of: receipt)
    }

    /// A receipt of a project no journal sent to is named, once per log and project (at the
    /// end when streaming: a journal may name it later).
    private func noteProject(of receipt: Receipt) {
        guard !knownProjects.contains(receipt.project), !receiptChecks[receipt.file].projects.contains(receipt.project) else { return }
        if streaming {
            if receiptChecks[receipt.file].unknownProjects[receipt.project] == nil {
                receiptChecks[receipt.file].unknownProjects[receipt.project] = receipt.line
            }
            return
        }
        receiptChecks[receipt.file].projects.insert(receipt.project)
        problem("\(receiptFiles[receipt.file].path):\(receipt.line)", "project \(receipt.project.hex) is no project the journals sent to")
    }

    /// A receipt of a journal's stream no call of it explains: not judged in a hole, else unjournaled.
    private func classify(_ unmatched: Unmatched) {
        let receipt = unmatched.receipt, journal = unmatched.journal
        if let hole = holes.lastIndex(where: { hole in
            hole.journal == journal && (hole.from.map { $0 <= receipt.receivedAt } ?? true) && receipt.receivedAt <= hole.to
        }) {
            receiptFiles[receipt.file].notJudged += 1
            notJudgedReceipts.append((hole, receipt, unmatched.callID))
            return
        }
        receiptFiles[receipt.file].unjournaled += 1
        unjournaled.append(Row(verdict: .unjournaled, call: nil, receipts: [receipt], journal: journal, endpoint: unmatched.endpoint,
                               receiptCallID: unmatched.callID))
    }

    /// The end of receipt log `file`: a log none of whose lines is of the journals given is
    /// named as another device's.
    private func finishReceipts(_ file: Int) {
        let stats = receiptFiles[file]
        if stats.lines > stats.malformed, stats.foreign == stats.lines - stats.malformed {
            let streams = receiptChecks[file].foreignStreams.map { $0.uuidString.lowercased() }.sorted()
            problem(stats.path, "none of its \(stats.foreign) receipt(s) is of the journals given"
                    + (streams.isEmpty ? "" : " (their idempotency keys name \(streams.prefix(3).joined(separator: ", "))\(streams.count > 3 ? ", …" : ""))")
                    + ": another device's log?")
        }
    }

    // MARK: - Streaming

    /// Where one receipt log being streamed is, with its next line read ahead.
    private struct LogCursor {
        let lines: LineSource
        let file: Int
        var head: ReceiptLogReader.Line?
    }

    /// Where a log's lines come from: its reader on this thread, or parsed ahead on another.
    private enum LineSource {
        case here(ReceiptLogReader)
        case ahead(ReadAheadReceipts)

        func next() throws(ReceiptLogError) -> ReceiptLogReader.Line? {
            switch self {
            case .here(let reader): try reader.next()
            case .ahead(let reader): try reader.next()
            }
        }
    }

    /// How far ahead of the receipts the journals are read, and how long after its outcome a
    /// call is held for more receipts (µs), unless told otherwise: a minute (the clock skew
    /// when it is longer).
    package static let streamingWindowMicroseconds: Int64 = 60_000_000

    /// Reconciles the journals at `journals` with the receipt logs at `receiptLogs` in one
    /// pass over both, in time order: a journal's records are read up to a window ahead of the
    /// receipts' `received_at`, a call is held from when it is queued until the receipts have
    /// passed its outcome by the window, then judged and let go (an agreed call's row goes to a
    /// temporary file, in order, others are kept). So memory is bounded by the calls in flight
    /// and the calls that did not agree, not by the journals' calls or the logs' lines.
    ///
    /// The window (`windowMicroseconds`, at least the clock skew) should cover how far the
    /// backend's clock and the devices' differ and how far a log strays from time order: what
    /// falls outside it costs memory until the end, never a verdict.
    ///
    /// What order the logs are in changes no verdict: a receipt whose call was let go already
    /// (later than the window, or out of order), or is read later, is kept and matched at the
    /// end, as is a call made again after it was let go. Throws the errors of
    /// ``addJournal(path:reader:)`` and ``addReceipts(path:)``; then the rows are read as after
    /// those (``forEachRow(_:)``). Call it once, on a new reconciler.
    package func reconcile(journals sources: [(path: String, reader: JournalReader)], receiptLogs: [String],
                           windowMicroseconds: Int64 = streamingWindowMicroseconds) throws {
        var readers: [(path: String, reader: ReceiptLogReader)] = []
        for path in receiptLogs {
            do throws(ReceiptLogError) {
                readers.append((path, try ReceiptLogReader(path: path)))
            } catch {
                throw ReceiptLogError(path: path, problem: error.problem)
            }
        }
        try reconcile(journals: sources, receiptReaders: readers, windowMicroseconds: windowMicroseconds, readsAhead: true)
    }

    /// ``reconcile(journals:receiptLogs:)`` over receipt logs opened already (a log in
    /// memory: ``ReceiptLogReader/init(bytes:)``), each named by its path. With `readsAhead`,
    /// each log is parsed, and each journal read, on a thread of its own (``ReadAheadReceipts``,
    /// ``FactStream``) when there are fewer of them than cores: for big files. Many journals
    /// and logs (a fleet's) are read here, as is a small log in memory: a thread for each of
    /// 10,000 would cost more than it overlaps.
    package func reconcile(journals sources: [(path: String, reader: JournalReader)],
                           receiptReaders: [(path: String, reader: ReceiptLogReader)],
                           windowMicroseconds: Int64 = streamingWindowMicroseconds, readsAhead: Bool = false) throws {
        precondition(journals.isEmpty && receiptFiles.isEmpty, "reconcile(journals:receiptLogs:) runs on a new reconciler")
        streaming = true
        let receiptLogs = receiptReaders.map(\.path)
        let window = max(clockSkewMicroseconds, windowMicroseconds, 0)
        var cursors: [JournalCursor] = []
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let journalsReadAhead = readsAhead && sources.count < cores
        for source in sources {
            guard let cursor = try openJournal(path: source.path, reader: source.reader, readsAhead: journalsReadAhead) else { continue }
            cursor.head = try cursor.walk.next()
            if cursor.head == nil { finishJournal(cursor) } else { cursors.append(cursor) }
        }
        var logs: [LogCursor] = []
        let logsReadAhead = readsAhead && receiptReaders.count < cores
        for (path, reader) in receiptReaders {
            logs.append(LogCursor(lines: logsReadAhead ? .ahead(ReadAheadReceipts(reader: reader)) : .here(reader), file: openReceipts(path: path)))
        }
        for index in logs.indices { try advance(&logs[index], path: receiptLogs[index]) }
        // The earliest receipt, and the earliest journal record, across every log and journal.
        var journalOrder = EarliestFirst()
        for (index, cursor) in cursors.enumerated() { journalOrder.insert(time: cursor.head!.time.microsecondsSince1970, index: index) }
        var logOrder = EarliestFirst()
        for index in logs.indices { if let head = logs[index].head { logOrder.insert(time: Self.time(of: head), index: index) } }
        while true {
            let nextLog = logOrder.first
            let receiptTime = nextLog?.time
            if let journal = journalOrder.first, receiptTime.map({ journal.time <= $0 &+ window }) ?? true {
                let cursor = cursors[journal.index]
                // Moved out, not copied: a copy would retain and release the fact's payload.
                consume(cursor.head.take()!, of: cursor)
                cursor.head = try cursor.walk.next()
                if let time = cursor.head?.time {
                    journalOrder.replaceFirst(time: time.microsecondsSince1970)
                } else {
                    journalOrder.removeFirst()
                    finishJournal(cursor)
                }
                // No receipt left: a call is let go as soon as it has its outcome.
                if receiptTime == nil { retire(before: .max) }
                continue
            }
            guard let log = nextLog?.index else { break }
            match(logs[log].head.take()!, file: logs[log].file)
            try advance(&logs[log], path: receiptLogs[log])
            if let head = logs[log].head { logOrder.replaceFirst(time: Self.time(of: head)) } else { logOrder.removeFirst() }
            if let receiptTime { retire(before: receiptTime &- window) }
        }
        for log in logs { finishReceipts(log.file) }
        settleStreaming()
    }

    /// Reads `cursor`'s next line.
    private func advance(_ cursor: inout LogCursor, path: String) throws {
        do throws(ReceiptLogError) {
            cursor.head = try cursor.lines.next()
        } catch {
            throw ReceiptLogError(path: path, problem: error.problem)
        }
    }

    /// When a line was received (a malformed line: at once).
    private static func time(of line: ReceiptLogReader.Line) -> Int64 {
        switch line.result {
        case .success(let receipt): receipt.receivedAt.microsecondsSince1970
        case .failure: .min
        }
    }

    /// Judges and lets go the calls whose outcome came before `time` (µs) and that no pending
    /// task holds: an agreed one's row to ``agreedRows``, any other kept in ``keptRows``.
    private func retire(before time: Int64) {
        while retireHead < retireQueue.count, retireQueue[retireHead].at < time {
            let (at, slot, id) = retireQueue[retireHead]
            retireHead += 1
            guard index[id] == slot, calls[slot].references == 0, calls[slot].outcome != 0,
                  calls[slot].outcomeAt?.microsecondsSince1970 == at else { continue }
            let verdict = verdict(at: slot)
            if verdict == .agreed {
                var stored = calls[slot]
                stored.receipt = nil
                if calls[slot].hasMoreReceipts {
                    agreedRows.append(stored, receipts: receiptsInOrder(slot))
                } else {
                    agreedRows.append(stored, receipt: calls[slot].receipt)
                }
            } else {
                let call = view(slot)
                keptRows.append(Row(verdict: verdict, call: call, receipts: call.receipts))
            }
            calls[slot].live = false
            retired.insert(id)
            index[id] = nil
            moreReceipts[slot] = nil
            freeSlots.append(slot)
            liveCount -= 1
            retiredCount += 1
        }
        if retireHead > 4096, retireHead * 2 > retireQueue.count {
            retireQueue.removeFirst(retireHead)
            retireHead = 0
        }
    }

    /// The receipts of the call in `slot` in the order a log-by-log read finds them: by log,
    /// then line.
    private func receiptsInOrder(_ slot: Int) -> [Receipt] {
        view(slot).receipts
    }

    /// The end of a streamed reconciliation: receipts kept unmatched find their calls (held,
    /// or let go), calls made again after they were let go are merged with what was let go,
    /// and what is left is classified as a log-by-log read would.
    private func settleStreaming() {
        var late: [Unmatched] = []
        for receipt in unmatched {
            if let slot = index[receipt.callID] { attach(receipt.receipt, to: slot) } else { late.append(receipt) }
        }
        unmatched = []
        // The ids to look for among the calls let go.
        var wanted = Set(late.map(\.callID))
        wanted.formUnion(madeAgain)
        if !wanted.isEmpty {
            // Calls let go that a late receipt or a later entry concerns are taken back.
            var taken: [WireCallID: (stored: StoredCall, receipts: [Receipt])] = [:]
            keptRows.removeAll { row in
                guard let call = row.call, wanted.contains(call.callID) else { return false }
                taken[call.callID] = (Self.stored(call, from: self), row.receipts)
                return true
            }
            agreedRows.take(where: { wanted.contains($0.callID) }) { stored, receipts in taken[stored.callID] = (stored, receipts) }
            retiredCount -= taken.count
            for receipt in late {
                guard var entry = taken[receipt.callID] else { continue }
                entry.receipts.append(receipt.receipt)
                taken[receipt.callID] = entry
                receiptFiles[receipt.receipt.file].matched += 1
                noteProject(of: receipt.receipt)
            }
            late.removeAll { taken[$0.callID] != nil }
            // Each taken back joins the entry made again, or comes back as it was.
            // In a total order (calls of different journals may share a time), so the rows come
            // out the same on every run.
            for (id, entry) in taken.sorted(by: { ($0.value.stored.queuedAt, $0.value.stored.journal, $0.key) < ($1.value.stored.queuedAt, $1.value.stored.journal, $1.key) }) {
                if let slot = index[id] {
                    var merged = entry.stored
                    let later = calls[slot]
                    merged.task = later.task
                    merged.project = later.project
                    if later.outcome != 0 { merged.outcome = later.outcome; merged.outcomeAt = later.outcomeAt }
                    merged.dispatched = merged.dispatched || later.dispatched
                    merged.hole = later.hole
                    merged.references = later.references
                    let receipts = (entry.receipts + (later.receipt.map { [$0] } ?? []) + (moreReceipts[slot] ?? []))
                        .sorted { ($0.file, $0.line) < ($1.file, $1.line) }
                    merged.receipt = receipts.first
                    merged.hasMoreReceipts = receipts.count > 1
                    calls[slot] = merged
                    moreReceipts[slot] = receipts.count > 1 ? Array(receipts.dropFirst()) : nil
                } else {
                    var stored = entry.stored
                    let receipts = entry.receipts.sorted { ($0.file, $0.line) < ($1.file, $1.line) }
                    stored.receipt = receipts.first
                    stored.hasMoreReceipts = receipts.count > 1
                    let slot = calls.count
                    calls.append(stored)
                    index[id] = slot
                    liveCount += 1
                    if receipts.count > 1 { moreReceipts[slot] = Array(receipts.dropFirst()) }
                }
            }
        }
        for receipt in late { classify(receipt) }
        for file in receiptChecks.indices {
            for (project, line) in receiptChecks[file].unknownProjects.sorted(by: { $0.value < $1.value }) where !knownProjects.contains(project) {
                problem("\(receiptFiles[file].path):\(line)", "project \(project.hex) is no project the journals sent to")
            }
        }
    }

    /// What a row of a call let go was made of.
    private static func stored(_ call: JournalCall, from reconciler: JournalReconciler) -> StoredCall {
        var stored = StoredCall(callID: call.callID, call: call.call, task: call.task, project: call.project, queuedAt: call.queuedAt,
                                outcomeAt: call.outcomeAt, receipt: nil, journal: UInt32(call.journal),
                                endpoint: reconciler.endpointIndex[call.endpoint] ?? 0)
        stored.outcome = call.outcome.flatMap { reconciler.outcomeIndex[$0] } ?? 0
        stored.dispatched = call.dispatched
        return stored
    }

    // MARK: - Verdicts

    /// Every call's verdict (calls not judged left out) and every unjournaled receipt, worst
    /// verdict first, then in journal order (streamed: in the order calls were let go, then
    /// those held at the end). ``forEachRow(_:)`` without the array.
    package func rows() -> [Row] {
        var rows: [Row] = []
        forEachRow { rows.append($0) }
        return rows
    }

    /// Hands out what ``rows()`` holds, one row at a time (one pass over the calls per verdict,
    /// nothing copied but the row at hand; a streamed reconciliation's agreed calls read back
    /// from their file).
    package func forEachRow(_ body: (Row) -> Void) {
        // Each held call's verdict, worked out once for the passes below.
        let heldVerdicts = calls.indices.map { slot in
            calls[slot].live && calls[slot].hole == 0 ? verdict(at: slot) : nil
        }
        for verdict in ReconcileVerdict.allCases {
            if verdict == .unjournaled {
                unjournaled.forEach(body)
                continue
            }
            for row in keptRows where row.verdict == verdict { body(row) }
            if verdict == .agreed {
                agreedRows.forEach { stored, receipts in
                    let call = view(stored, more: receipts)
                    body(Row(verdict: .agreed, call: call, receipts: call.receipts))
                }
            }
            for slot in calls.indices where heldVerdicts[slot] == verdict {
                let call = view(slot)
                body(Row(verdict: verdict, call: call, receipts: call.receipts))
            }
        }
    }

    /// Each public call's verdict (calls of the SDK's own and unjournaled receipts left out),
    /// and the calls not judged: what `replay audit --received` shows per call.
    package func verdictsByCall() -> (verdicts: [CallID: ReconcileVerdict], notJudged: Set<CallID>) {
        var verdicts: [CallID: ReconcileVerdict] = [:]
        var notJudged: Set<CallID> = []
        for row in keptRows { if let id = row.call?.call { verdicts[id] = row.verdict } }
        agreedRows.forEach { stored, _ in if let id = stored.call { verdicts[id] = .agreed } }
        for slot in calls.indices where calls[slot].live {
            guard let id = calls[slot].call else { continue }
            if calls[slot].hole != 0 { notJudged.insert(id) } else { verdicts[id] = verdict(at: slot) }
        }
        return (verdicts, notJudged)
    }

    /// The receipts no journal call explains (each an `unjournaled` row).
    package var unjournaledCount: Int { unjournaled.count }

    /// The calls not judged because their outcome may lie in a hole.
    package var callsInHoles: [JournalCall] {
        calls.indices.filter { calls[$0].live && calls[$0].hole != 0 }.map(view)
    }

    /// How many calls the journals hold.
    package var callCount: Int { liveCount + retiredCount }

    /// The verdict on `call` by its receipts.
    package func verdict(of call: JournalCall) -> ReconcileVerdict {
        let delivered = if case .delivered? = call.outcome { true } else { false }
        return Self.verdict(project: call.project, delivered: delivered, outcomeAt: call.outcomeAt, receipts: call.receipts,
                            skew: clockSkewMicroseconds)
    }

    private func verdict(at slot: Int) -> ReconcileVerdict {
        let stored = calls[slot]
        let delivered = if stored.outcome != 0, case .delivered = outcomes[Int(stored.outcome) - 1] { true } else { false }
        guard let first = stored.receipt else { return delivered ? .lost : .agreed }
        var tally = ReceiptTally(project: stored.project, outcomeAt: stored.outcomeAt, skew: clockSkewMicroseconds)
        tally.add(first)
        if stored.hasMoreReceipts { for receipt in moreReceipts[slot] ?? [] { tally.add(receipt) } }
        return tally.verdict(delivered: delivered)
    }

    /// The rules of docs/RECONCILE.md, section 3.
    private static func verdict(project: ProjectFingerprint, delivered: Bool, outcomeAt: JournalTime?, receipts: [Receipt],
                                skew: Int64) -> ReconcileVerdict {
        var tally = ReceiptTally(project: project, outcomeAt: outcomeAt, skew: skew)
        for receipt in receipts { tally.add(receipt) }
        return tally.verdict(delivered: delivered)
    }

    /// What a call's receipts say for its verdict, counted one receipt at a time.
    private struct ReceiptTally {
        let project: ProjectFingerprint
        let outcomeAt: JournalTime?
        let skew: Int64
        /// A receipt by another project than the journal's.
        var elsewhere = false
        /// Receipts the project took (2xx), and those of them not marked re-sends.
        var held = 0
        var heldFirstTime = 0
        /// A receipt the project took after the journal's outcome (plus the skew).
        var late = false

        init(project: ProjectFingerprint, outcomeAt: JournalTime?, skew: Int64) {
            self.project = project
            self.outcomeAt = outcomeAt
            self.skew = skew
        }

        mutating func add(_ receipt: Receipt) {
            if receipt.project != project { elsewhere = true }
            guard let status = receipt.status, (200..<300).contains(status) else { return }
            held += 1
            if !receipt.duplicate { heldFirstTime += 1 }
            if let outcomeAt, receipt.receivedAt.microsecondsSince1970 > outcomeAt.microsecondsSince1970 &+ skew { late = true }
        }

        func verdict(delivered: Bool) -> ReconcileVerdict {
            if elsewhere { return .elsewhere }
            if held == 0 { return delivered ? .lost : .agreed }
            if heldFirstTime > 1 { return .duplicate }
            if late { return .late }
            return delivered ? .agreed : .unconfirmed
        }
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
