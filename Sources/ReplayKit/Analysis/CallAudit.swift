import Journal
import SDK

/// Follows every public call from `callReceived` to `callResolved`: the gate's decision, the
/// tasks that carried it and the project each went to.
///
/// Streams with bounded memory: only unresolved calls and queued tasks are kept. A row is handed
/// to `emit` when its call resolves, so rows come in resolution order; calls still pending at
/// the end come last, from ``finish()``.
package final class CallAudit {
    /// Requests delivered per project: for calls, and the SDK's own (no call).
    package struct Deliveries: Sendable {
        package var forCalls = 0
        package var ownRequests = 0
    }

    /// A change to a call's row (kept, in a segment's audit, for a row an earlier segment holds).
    typealias Change = @Sendable (inout AuditRow) -> Void

    private let emit: (AuditRow) -> Void
    var open: [CallID: AuditRow] = [:]
    var taskCalls: [TaskID: TaskCarrier] = [:]
    package internal(set) var deliveries: [ProjectFingerprint: Deliveries] = [:]
    package internal(set) var statusCounts: [String: Int] = [:]
    /// The projects' labels learned so far (rows render with them).
    package internal(set) var labels = ProjectLabels()
    /// Set when this audit reads one segment on its own (``ofOneSegment()``): what it cannot
    /// know of the segments before is kept aside for the join (``CallAuditJoin``).
    var segment: SegmentPart?

    package init(emit: @escaping (AuditRow) -> Void) {
        self.emit = emit
    }

    /// Takes in one record; `state` is the state before it.
    package func consume(_ record: DecodedRecord, before state: SDKState) {
        labels.learn(from: record)
        if case .snapshot(let snapshot) = record.content {
            // Tasks queued before the walk's start, so their completions can be attributed.
            for (id, queued) in snapshot.tasks where taskCalls[id] == nil {
                taskCalls[id] = TaskCarrier(calls: queued.task.calls, project: queued.task.project)
            }
            // A segment's audit starts at its snapshot: its tasks are the ones it assumes.
            if segment != nil, segment?.snapshotTasks == nil { segment?.snapshotTasks = taskCalls }
            return
        }
        guard let fact = record.fact else { return }
        // A gateDecided's, or the one an eventBatched carries (format 1.3).
        if let (call, decision) = fact.gateDecision {
            update(call, state) { row in
                switch decision {
                case .replayed(let id, let project):
                    if let last = row.decisions.indices.last, row.decisionNames.last == "queued" {
                        row.decisions[last] = "queued \(id), replayed"
                    } else {
                        row.decisions.append("replayed by \(id) on \(project)")
                    }
                case .queued(let id, _, _): row.decisions.append("queued \(id)")
                case .executed, .inline, .refused: row.decisions.append(Describe.decisionName(decision))
                }
                row.decisionNames.append(Describe.decisionName(decision))
            }
        }
        switch fact {
        case .callReceived(let received):
            if segment != nil { segment?.received(received.id) }
            open[received.id] = AuditRow(call: received.id, name: received.call.name, received: (record.sequence, record.time),
                                         madeAt: record.time, liveAtCall: state.live?.fingerprint)
        case .callRejected(let call, _):
            update(call, state) { row in
                row.decisions.append("rejected")
                row.decisionNames.append("rejected")
            }
        case .switchRouted(let id, let call, _, let routing):
            update(call, state) { row in
                let text: String = switch routing {
                case .absorbed(let into): "absorbed into \(into)"
                case .enqueued(let behind): "\(id) behind \(behind)"
                case .noop: "noop"
                case .started: "\(id) started"
                case .initialization: "\(id) initialization"
                case .moved(let entry): "moved \(entry) to the tail"
                }
                row.decisions.append(text)
                row.decisionNames.append(Describe.routingName(routing))
            }
        case .taskQueued(let task):
            setTask(task.id, TaskCarrier(calls: task.calls, project: task.project))
            if let call = task.call {
                update(call, state) { $0.tasks.append(AuditRow.Task(id: task.id, project: task.project, path: task.path)) }
            }
        case .eventBatched(let id, let event, _):
            guard var carried = task(id) else { break }
            if carried.calls.count == 1, let first = carried.calls.first {
                // The task's own call now travels in a bulk request too.
                update(first, state) { row in
                    if let index = row.tasks.lastIndex(where: { $0.id == id }) { row.tasks[index].path = DeliveryTask.bulkTrackPath }
                }
            }
            carried.calls.append(event.call)
            setTask(id, carried)
            update(event.call, state) { [project = carried.project] in
                $0.tasks.append(AuditRow.Task(id: id, project: project, path: DeliveryTask.bulkTrackPath))
            }
        case .taskCompleted(let id, let outcome):
            guard let (calls, project) = task(id).map({ ($0.calls, $0.project) }) else { break }
            setTask(id, nil)
            if case .delivered = outcome {
                if calls.isEmpty { deliveries[project, default: Deliveries()].ownRequests += 1 }
                else { deliveries[project, default: Deliveries()].forCalls += 1 }
            }
            for call in calls {
                update(call, state) { row in
                    if let index = row.tasks.lastIndex(where: { $0.id == id }) { row.tasks[index].outcome = outcome }
                }
            }
        case .disableCoalesced(let id, let call):
            guard var carried = task(id) else { break }
            carried.calls.append(call)
            setTask(id, carried)
            update(call, state) { [project = carried.project] in
                $0.tasks.append(AuditRow.Task(id: id, project: project, path: DeliveryTask.disableDevicePath))
            }
        case .eventsExpired(let id, let expired):
            // Those calls' events left the task: its later outcome is no longer theirs.
            guard var carried = task(id) else { break }
            carried.calls.removeAll { expired.contains($0) }
            setTask(id, carried)
            let outcome = TaskOutcome.discarded(.expired(ageLimit: .milliseconds(state.rules.deliveryAgeLimitMilliseconds)))
            for call in expired {
                update(call, state) { row in
                    if let index = row.tasks.lastIndex(where: { $0.id == id }) { row.tasks[index].outcome = outcome }
                }
            }
        case .callResolved, .callsResolved:
            let resolved = (sequence: record.sequence, time: record.time)
            fact.forEachResolution { call, outcome in resolve(call, outcome, at: resolved, state) }
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
    private func resolve(_ call: CallID, _ outcome: CallOutcome, at resolved: (sequence: UInt64, time: JournalTime), _ state: SDKState) {
        update(call, state) { row in
            row.outcome = outcome
            row.resolved = resolved
        }
        if segment?.isSettled(call) == false {
            // A row an earlier segment may hold: the join resolves it, in this place in order.
            segment?.resolveCarried(call, labels: labels)
            return
        }
        if let row = open.removeValue(forKey: call) { deliver(row) }
    }

    /// Starts mid-journal from `state`, as from a snapshot: its projects' labels and queued
    /// tasks are known from then on (`replay serve` audits one call from its moment).
    package func begin(at state: SDKState) {
        labels.learn(from: state)
        for (id, queued) in state.tasks where taskCalls[id] == nil {
            taskCalls[id] = TaskCarrier(calls: queued.task.calls, project: queued.task.project)
        }
    }

    /// Hands out the calls still pending, oldest first.
    package func finish() {
        for row in open.values.sorted(by: { ($0.madeAt, $0.call) < ($1.madeAt, $1.call) }) { deliver(row) }
        open = [:]
    }

    private func deliver(_ row: AuditRow) {
        var row = row
        row.labels = labels
        if segment != nil {
            segment?.items.append(.row(row))
            return
        }
        statusCounts[row.status, default: 0] += 1
        emit(row)
    }

    /// Changes the row of `call`, creating it from the state for a call received before the
    /// walk began.
    private func update(_ call: CallID, _ state: SDKState, _ change: @escaping Change) {
        if segment?.isSettled(call) == false {
            segment?.change(call, change, pending: state.pendingCall(call).map { AuditRow(pending: $0, call: call) })
            return
        }
        if open[call] == nil, let pending = state.pendingCall(call) {
            open[call] = AuditRow(pending: pending, call: call)
        }
        // In place: a row copied out and written back would copy its arrays on every change.
        guard open[call] != nil else { return }
        change(&open[call]!)
    }
}
