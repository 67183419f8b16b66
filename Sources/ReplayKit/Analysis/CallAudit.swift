import Journal
import SDK

/// Follows every public call from `callReceived` to `callResolved`: the gate's decision, the
/// tasks that carried it and the project each went to.
///
/// Streams with bounded memory: only unresolved calls and queued tasks are kept. A row is handed
/// to `emit` when its call resolves, so rows come in resolution order; calls still pending at
/// the end come last, from ``finish()``. `emit` is called while the audit takes in a record: it
/// must not call back into the audit.
package final class CallAudit {
    /// Requests delivered per project: for calls, and the SDK's own (no call).
    package struct Deliveries: Sendable {
        package var forCalls = 0
        package var ownRequests = 0
    }

    /// What the audit keeps between records. One stored property of the class, changed in place
    /// once per record: every access to a class's stored property is checked for exclusivity at
    /// run time, and a record touches the rows, the tasks and the labels several times.
    struct Ledger {
        var open: [CallID: AuditRow] = [:]
        var taskCalls: [TaskID: TaskCarrier] = [:]
        var deliveries: [ProjectFingerprint: Deliveries] = [:]
        var statusCounts = StatusCounts()
        /// The projects' labels learned so far (rows render with them).
        var labels = ProjectLabels()
        /// Set when this audit reads one segment on its own (``ofOneSegment()``): what it cannot
        /// know of the segments before is kept aside for the join (``CallAuditJoin``).
        var segment: SegmentPart?
        /// Set when the walk went on past damage (``CallAudit/resume(after:)``) until the
        /// snapshot it resumes at is taken in.
        var resumingAfterLoss = false
    }

    private let emit: (AuditRow) -> Void
    /// Its exclusive access is not checked at run time: only this audit's methods touch it,
    /// one at a time (`emit` must not call back into the audit, and an audit is not Sendable);
    /// the check would cost two a record.
    @exclusivity(unchecked) var ledger = Ledger()

    package var deliveries: [ProjectFingerprint: Deliveries] { ledger.deliveries }
    /// Rows handed out, by status (``AuditRow/status``).
    package var statusCounts: [String: Int] { ledger.statusCounts.byName }
    /// The projects' labels learned so far (rows render with them).
    package var labels: ProjectLabels { ledger.labels }

    package init(emit: @escaping (AuditRow) -> Void) {
        self.emit = emit
    }

    /// What an audit reads of records: no call's data values (its rows name calls, never their
    /// data), about a tenth of a walk's work left out. A walk that feeds other readers too (the
    /// report's) decodes whole.
    package static let decoding = RecordDecoding.withoutDataValues

    /// Takes in one record; `state` is the state before it.
    package func consume(_ record: DecodedRecord, before state: SDKState) {
        ledger.consume(record, fact: record.fact, before: state, emit: emit)
    }

    /// ``consume(_:before:)`` given the fact `record` holds (nil for a snapshot or an unreadable
    /// record), already taken out of it (``JournalWalk/fold(_:lookingBeforeWithFact:)``).
    package func consume(_ record: DecodedRecord, fact: Fact?, before state: SDKState) {
        ledger.consume(record, fact: fact, before: state, emit: emit)
    }

    /// Starts mid-journal from `state`, as from a snapshot: its projects' labels and queued
    /// tasks are known from then on (`replay serve` audits one call from its moment).
    package func begin(at state: SDKState) {
        ledger.labels.learn(from: state)
        for (id, queued) in state.tasks where ledger.taskCalls[id] == nil {
            ledger.taskCalls[id] = TaskCarrier(calls: queued.task.calls, project: queued.task.project)
        }
    }

    /// The walk went on past damage (`--salvage`): at the snapshot it resumes at, each open
    /// call that snapshot no longer holds as pending ended in the lost records, and is handed
    /// out as `lost`, oldest first; each call it holds as pending goes on (one received in the
    /// lost records with a row from the snapshot, its sequence unknown), its row saying that part
    /// of its history was lost (``AuditRow/historyLostBefore``) and its tasks those the snapshot
    /// gives it. Call it before that snapshot is taken in.
    package func resume(after skip: SkippedRange) {
        ledger.resumingAfterLoss = true
    }

    /// Hands out the calls still pending, oldest first.
    package func finish() {
        ledger.finish(emit: emit)
    }
}

extension CallAudit.Ledger {
    /// ``CallAudit/consume(_:fact:before:)``, handing rows to `emit`.
    mutating func consume(_ record: DecodedRecord, fact: Fact?, before state: SDKState, emit: (AuditRow) -> Void) {
        guard let fact else { return consumeOther(record, emit: emit) }
        labels.learn(from: record)
        consumeFact(fact, record, before: state, emit: emit)
    }

    /// A record that holds no fact: a snapshot (an unreadable record changes nothing).
    private mutating func consumeOther(_ record: DecodedRecord, emit: (AuditRow) -> Void) {
        switch record.content {
        case .snapshot(let snapshot):
            labels.learn(from: snapshot)
            if resumingAfterLoss {
                resumingAfterLoss = false
                resumeAfterLoss(at: record.sequence, snapshot: snapshot, emit: emit)
            }
            // Tasks queued before the walk's start, so their completions can be attributed.
            for (id, queued) in snapshot.tasks where taskCalls[id] == nil {
                taskCalls[id] = TaskCarrier(calls: queued.task.calls, project: queued.task.project)
            }
            // A segment's audit starts at its snapshot: its tasks are the ones it assumes.
            if segment != nil, segment?.snapshotTasks == nil { segment?.snapshotTasks = taskCalls }
        case .fact, .unreadable:
            break
        }
    }

    private mutating func consumeFact(_ fact: Fact, _ record: DecodedRecord, before state: SDKState, emit: (AuditRow) -> Void) {
        // A gateDecided's, or the one an eventBatched carries (format 1.3).
        if let (call, decision) = fact.gateDecision {
            update(call, state, .decided(decision))
        }
        switch fact {
        case .callReceived(let received):
            if segment != nil { segment?.received(received.id) }
            open[received.id] = AuditRow(call: received.id, name: received.call.name, received: (record.sequence, record.time),
                                         madeAt: record.time, liveAtCall: state.live?.fingerprint)
        case .callRejected(let call, _):
            update(call, state, .rejected)
        case .switchRouted(let id, let call, _, let routing):
            update(call, state, .routed(id, routing))
        case .taskQueued(let task):
            setTask(task.id, TaskCarrier(calls: task.calls, project: task.project))
            if let call = task.call {
                update(call, state, .taskAdded(AuditRow.Task(id: task.id, project: task.project, path: task.path)))
            }
        case .eventBatched(let id, let event, _):
            var soleCall: CallID?
            guard let project = changeTask(id, { carried in
                if carried.calls.count == 1 { soleCall = carried.calls.first }
                carried.calls.append(event.call)
            }) else { break }
            if let soleCall {
                // The task's own call now travels in a bulk request too.
                update(soleCall, state, .taskPath(id, DeliveryTask.bulkTrackPath))
            }
            update(event.call, state, .taskAdded(AuditRow.Task(id: id, project: project, path: DeliveryTask.bulkTrackPath)))
        case .taskCompleted(let id, let outcome):
            guard let (calls, project) = task(id).map({ ($0.calls, $0.project) }) else { break }
            setTask(id, nil)
            if case .delivered = outcome {
                if calls.isEmpty { deliveries[project, default: CallAudit.Deliveries()].ownRequests += 1 }
                else { deliveries[project, default: CallAudit.Deliveries()].forCalls += 1 }
            }
            for call in calls {
                update(call, state, .taskOutcome(id, outcome))
            }
        case .disableCoalesced(let id, let call):
            guard let project = changeTask(id, { $0.calls.append(call) }) else { break }
            update(call, state, .taskAdded(AuditRow.Task(id: id, project: project, path: DeliveryTask.disableDevicePath)))
        case .eventsExpired(let id, let expired):
            // Those calls' events left the task: its later outcome is no longer theirs.
            guard changeTask(id, { $0.calls.removeAll { expired.contains($0) } }) != nil else { break }
            let outcome = TaskOutcome.discarded(.expired(ageLimit: .milliseconds(state.rules.deliveryAgeLimitMilliseconds)))
            for call in expired {
                update(call, state, .taskOutcome(id, outcome))
            }
        case .callResolved, .callsResolved:
            let resolved = (sequence: record.sequence, time: record.time)
            fact.forEachResolution { call, outcome in resolve(call, outcome, at: resolved, state, emit: emit) }
        // Facts that change no call's row here (a gate decision is read above).
        case .engineStarted, .transportCompleted, .timerFired, .durabilityConfirmed, .moduleHookCompleted, .authTokenReceived,
             .callbacksDelivered, .notificationReceived, .engineStopping, .linkResolved, .networkReachable,
             .localDataErased, .clockJumped, .backgroundTaskBegan, .backgroundTaskExpired, .backgroundFlushFinished, .backgroundTaskEnded, .storageWasUnavailable, .keyringWriteFailed, .initialized, .identityChanged, .pushTokenChanged, .attributionChanged, .attributionRefused,
             .unknownUserEventHeld, .unknownUserSessionCounted, .unknownUserEventsReleased, .linkResolutionStarted,
             .staleResultRefused,
             .taskDispatched, .retryScheduled, .timerSet, .authRefreshRequested, .authRefreshFinished, .durabilityRequested,
             .journalGap,
             .moduleEventDelivered, .moduleHookStarted, .moduleHookFinished, .messagesStored, .storageCleared,
             .gateDecided, .switchStarted, .teardownStepBegan, .teardownStepFinished, .switchLanded, .switchCancelled,
             .unknown:
            break
        }
    }

    /// The call's row ends with `outcome`, resolved by the record at `resolved`, and is handed
    /// out.
    private mutating func resolve(_ call: CallID, _ outcome: CallOutcome, at resolved: (sequence: UInt64, time: JournalTime),
                                  _ state: SDKState, emit: (AuditRow) -> Void) {
        let change = CallAudit.RowChange.resolved(outcome, at: resolved)
        // The row taken out with one look-up (or made from the state), changed, handed out. A
        // row the audit holds is of a settled call (a segment's audit holds no other), so the
        // look-up comes first and most calls need no other.
        var row: AuditRow
        if let index = open.index(forKey: call) {
            row = open.remove(at: index).value
        } else if segment?.isSettled(call) == false {
            changeCarried(call, state, change)
            // A row an earlier segment may hold: the join resolves it, in this place in order.
            segment?.resolveCarried(call, labels: labels)
            return
        } else if let pending = state.pendingCall(call) {
            row = AuditRow(pending: pending, call: call)
        } else {
            return
        }
        row.apply(change)
        deliver(&row, emit: emit)
    }

    /// At `snapshot`, read at `sequence` after a loss: hands out, as `lost`, the open rows whose
    /// calls it no longer holds as pending (they ended in the lost records); marks every call it
    /// holds as pending as having crossed the loss (a row opened for those received in the lost
    /// records), their tasks brought up to the snapshot's (a task made or sent elsewhere in the
    /// lost records, such as a held call's replay or an event joining a bulk).
    private mutating func resumeAfterLoss(at sequence: UInt64, snapshot: SDKState, emit: (AuditRow) -> Void) {
        let lost = open.values.filter { snapshot.pendingCall($0.call) == nil }
        for var row in lost.sorted(by: { ($0.madeAt, $0.call) < ($1.madeAt, $1.call) }) {
            open[row.call] = nil
            row.lostBefore = sequence
            deliver(&row, emit: emit)
        }
        // Every call the snapshot holds as pending crossed the loss: those received in the lost
        // records (or before the walk) get their row now, from the snapshot.
        for entry in snapshot.pendingCalls where open[entry.key] == nil {
            open[entry.key] = AuditRow(pending: entry.value, call: entry.key)
        }
        for index in open.indices { open.values[index].historyLostBefore = sequence }
        for (id, queued) in snapshot.tasks.sorted(by: { $0.key < $1.key }) {
            for call in queued.task.calls where open[call] != nil {
                open[call]?.bringTask(AuditRow.Task(id: id, project: queued.task.project, path: queued.task.wirePath))
            }
        }
    }

    /// Hands out the calls still pending, oldest first.
    mutating func finish(emit: (AuditRow) -> Void) {
        for var row in open.values.sorted(by: { ($0.madeAt, $0.call) < ($1.madeAt, $1.call) }) { deliver(&row, emit: emit) }
        open = [:]
    }

    private mutating func deliver(_ row: inout AuditRow, emit: (AuditRow) -> Void) {
        row.labels = labels
        if segment != nil {
            segment?.items.append(.row(row))
            return
        }
        statusCounts.count(row)
        emit(row)
    }

    /// Changes the row of `call`, creating it from the state for a call received before the
    /// walk began.
    private mutating func update(_ call: CallID, _ state: SDKState, _ change: CallAudit.RowChange) {
        // In place, with one look-up: a row copied out and written back would copy its arrays.
        // A row the audit holds is of a settled call (as in ``resolve``), so it comes first.
        if let index = open.index(forKey: call) {
            open.values[index].apply(change)
        } else if segment?.isSettled(call) == false {
            changeCarried(call, state, change)
        } else if let pending = state.pendingCall(call) {
            var row = AuditRow(pending: pending, call: call)
            row.apply(change)
            open[call] = row
        }
    }

    /// In a segment's audit, keeps `change` to a call the segment has not settled.
    private mutating func changeCarried(_ call: CallID, _ state: SDKState, _ change: CallAudit.RowChange) {
        segment?.change(call, change, pending: state.pendingCall(call).map { AuditRow(pending: $0, call: call) })
    }
}
