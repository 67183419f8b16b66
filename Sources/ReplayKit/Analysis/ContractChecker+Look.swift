import Journal
import SDK

extension ContractChecker: StateLooking {
    /// What the rules take in from a record: the parts of its fact they read, with what they read
    /// of the state before it (all of it before a snapshot, compared with it or taken over, and
    /// before a journal gap or an erasure, taken over again), or nothing for a record no rule
    /// reads. Taken on the thread that folds the state
    /// (``SegmentFolds/walk(_:jobs:look:consume:passOver:consumeInOrder:onProgress:)``), so that
    /// the checker, on the calling thread, never needs the state, and the one place that says
    /// which facts the rules read is ``look(at:in:)``.
    package enum Look: Sendable {
        /// No rule reads the record (a fact that names a project's label is taken in for it).
        case nothing
        /// The whole state (boxed: a look is otherwise a few words).
        indirect case state(SDKState)
        /// A call received: whether the gate holds calls of its name, whether a switch was in
        /// flight, and the live project.
        case received(CallID, gated: Bool, switching: Bool, live: ProjectFingerprint?)
        /// The gate's decision for a call (a `gateDecided`).
        case decided(CallID, GateDecision)
        /// An event joined task `task`: the project its call was executed on, when the record
        /// carries the gate's decision (format 1.3), and the project of the task, if it was queued.
        case batched(CallID, task: TaskID, executedOn: ProjectFingerprint?, into: ProjectFingerprint?)
        /// A task queued, with its own call (none for the SDK's own request).
        case taskQueued(TaskID, path: String, call: CallID?, project: ProjectFingerprint)
        case taskCompleted(TaskID, TaskOutcome)
        /// A call resolved, and whether it was pending.
        case resolved(CallID, CallOutcome, wasPending: Bool)
        /// A bulk's calls resolved, and whether each was pending.
        indirect case resolvedEach([CallID], CallOutcome, pending: [Bool])
        case switchRouted(SwitchID, to: ProjectFingerprint, SwitchRouting)
        case switchCancelled(SwitchID)
        case switchStarted(SwitchID, to: ProjectFingerprint)
        case switchLanded(SwitchID, on: ProjectFingerprint)
        case wentLive(ProjectFingerprint)
        case storageCleared(ProjectFingerprint, StorageScope)
        case attributionWritten(ProjectFingerprint)
        /// A module heard a signal (delivered), in its generation.
        case moduleSignal(module: String, ModuleSignal, generation: UInt64)
        /// A hook of a module started.
        case hookStarted(module: String, ModuleSignal)
    }

    /// Takes in every record of `reader` in order, its segments decoded and folded `jobs` at a
    /// time (``SegmentFolds/walk(_:jobs:look:consume:passOver:consumeInOrder:onProgress:)``); returns how
    /// the walk went (``finish(state:)`` is the caller's, with the walk's final state).
    package func consume(_ reader: JournalReader, jobs: Int, onProgress: ((UInt64) -> Void)? = nil) throws -> SegmentFolds.Walked {
        try SegmentFolds.walk(reader, jobs: jobs, look: Self.lookUnlessPassedOver(at:in:), consume: { self.consume($0, looking: $1) },
                              passOver: { self.passOver($0) }, consumeInOrder: { self.consume($0, before: $1) },
                              resume: { _ in self.resumeAfterSkip() }, onProgress: onProgress)
    }

    /// Whether taking in `record`, which the rules take in as `look`, changes nothing but the
    /// count of records: no rule reads it, and it carries no project's label.
    static func passesOver(_ record: DecodedRecord, looking look: Look) -> Bool {
        guard case .nothing = look else { return false }
        return !ProjectLabels.namesProject(record)
    }

    /// What the rules take in from `record` (``Look``), `state` the state before it: read from
    /// the record's fact in place (a fact taken out of its record is a copy of all its parts,
    /// and most records' parts are not read).
    package static func look(at record: DecodedRecord, in state: borrowing SDKState) -> Look {
        switch record.content {
        case .snapshot: return .state(copy state)
        case .unreadable: return .nothing
        case .fact(.callReceived(let call)):
            return .received(call.id, gated: call.call.name.isGated, switching: state.switching.isSwitching, live: state.live?.fingerprint)
        case .fact(.gateDecided(let call, let decision)): return .decided(call, decision)
        case .fact(.eventBatched(let task, let event, let executedOn)):
            return .batched(event.call, task: task, executedOn: executedOn, into: state.tasks[task]?.task.project)
        case .fact(.taskQueued(let task)): return .taskQueued(task.id, path: task.path, call: task.call, project: task.project)
        case .fact(.taskCompleted(let task, let outcome)): return .taskCompleted(task, outcome)
        case .fact(.callResolved(let call, let outcome)): return .resolved(call, outcome, wasPending: state.pendingCall(call) != nil)
        case .fact(.callsResolved(_, let calls, let outcome)):
            return .resolvedEach(calls, outcome, pending: calls.map { state.pendingCall($0) != nil })
        case .fact(.switchRouted(let id, _, let project, let routing)): return .switchRouted(id, to: project.fingerprint, routing)
        case .fact(.switchCancelled(let id, _)): return .switchCancelled(id)
        case .fact(.switchStarted(let id, _, let to)): return .switchStarted(id, to: to.fingerprint)
        case .fact(.switchLanded(let id, let project, _, _)): return .switchLanded(id, on: project)
        // Facts are missing here (lost, or erased on request): the rules take the state over again.
        case .fact(.journalGap), .fact(.localDataErased): return .state(copy state)
        case .fact(.initialized(let project, _)): return .wentLive(project.fingerprint)
        case .fact(.storageCleared(let project, let scope)): return .storageCleared(project, scope)
        case .fact(.attributionChanged(let project, _)): return .attributionWritten(project)
        case .fact(.moduleEventDelivered(let module, let signal, _, let generation)):
            return .moduleSignal(module: module, signal, generation: generation)
        case .fact(.moduleHookStarted(_, let module, let signal)): return .hookStarted(module: module, signal)
        // Facts no rule reads.
        case .fact(.engineStarted), .fact(.transportCompleted), .fact(.timerFired), .fact(.durabilityConfirmed),
             .fact(.moduleHookCompleted), .fact(.authTokenReceived), .fact(.callbacksDelivered), .fact(.notificationReceived),
             .fact(.engineStopping), .fact(.linkResolved), .fact(.networkReachable), .fact(.clockJumped),
             .fact(.backgroundTaskBegan), .fact(.backgroundTaskExpired), .fact(.backgroundFlushFinished),
             .fact(.backgroundTaskEnded), .fact(.storageWasUnavailable), .fact(.keyringWriteFailed), .fact(.callRejected),
             .fact(.identityChanged), .fact(.pushTokenChanged), .fact(.attributionRefused), .fact(.unknownUserEventHeld),
             .fact(.unknownUserSessionCounted), .fact(.unknownUserEventsReleased), .fact(.linkResolutionStarted),
             .fact(.staleResultRefused), .fact(.taskDispatched), .fact(.retryScheduled), .fact(.eventsExpired),
             .fact(.disableCoalesced), .fact(.timerSet), .fact(.authRefreshRequested), .fact(.authRefreshFinished),
             .fact(.durabilityRequested), .fact(.moduleHookFinished), .fact(.messagesStored), .fact(.teardownStepBegan),
             .fact(.teardownStepFinished), .fact(.unknown):
            return .nothing
        }
    }
}
