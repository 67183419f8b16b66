import Journal
import SDK

extension SwitchDiagnosis: StateLooking {
    /// What the diagnosis takes in from a record: the parts of its fact that say something about
    /// a switch, with what it reads of the state before it (the live project before a switch is
    /// routed, the switch in flight before a call run inline, a clock jump, a background task's or
    /// the storage's fact), or nothing. Taken on the thread that folds the state
    /// (``SegmentFolds/walk(_:jobs:look:consume:passOver:consumeInOrder:onProgress:)``), so that
    /// the diagnosis, on the calling thread, never needs the state, and the one place that says
    /// which facts it reads is ``look(at:in:)``.
    package enum Look: Sendable {
        /// Nothing the diagnosis reads (a fact that names a project's label is taken in for it).
        case nothing
        /// A switch requested and routed by `call`, with the live project before it.
        indirect case routed(SwitchID, call: CallID, project: ProjectRef, routing: SwitchRouting, live: ProjectFingerprint?)
        case started(SwitchID, from: ProjectFingerprint?)
        case stepBegan(SwitchID, TeardownStepKind)
        indirect case stepFinished(SwitchID, TeardownStepKind, StepOutcome, elapsedMicroseconds: Int64)
        /// The outgoing device's disable asked to be made durable (durability request `request`).
        case disableDurabilityRequested(SwitchID, request: UInt64)
        /// The bound on that wait was set, and passed.
        case disableBoundSet(SwitchID, due: JournalTime)
        case disableBoundPassed(SwitchID)
        indirect case durabilityConfirmed(DurabilityConfirmation)
        /// The gate held a call (named `name`) for switch `by`, at `position` in its queue.
        case held(CallID, by: SwitchID, name: String, position: Int)
        /// The gate let a call go without running it.
        case refused(CallID)
        case replayed(CallID, by: SwitchID, on: ProjectFingerprint)
        /// A call run inline while switch `during` was in flight (its name, if it was pending).
        case inline(CallID, during: SwitchID, name: String?, on: ProjectFingerprint)
        indirect case landed(SwitchID, on: ProjectFingerprint, SwitchResult, reasons: [String])
        case callbacksDelivered(SwitchID)
        case cancelled(SwitchID, reason: String)
        case clockJumped(during: SwitchID, wall: JournalTime, jumpMicroseconds: Int64)
        /// A background task's fact, in words, while switch `during` was in flight.
        case background(during: SwitchID, String)
        /// The storage's fact (files or keyring unavailable), in words, while switch `during` was in flight.
        case storage(during: SwitchID, String)
    }

    /// Takes in every record of `reader` in order, its segments decoded and folded `jobs` at a
    /// time (``SegmentFolds/walk(_:jobs:look:consume:passOver:consumeInOrder:onProgress:)``); returns how
    /// the walk went (``finish()`` is the caller's).
    package func consume(_ reader: JournalReader, jobs: Int, onProgress: ((UInt64) -> Void)? = nil) throws -> SegmentFolds.Walked {
        try SegmentFolds.walk(reader, jobs: jobs, look: Self.lookUnlessPassedOver(at:in:), consume: { self.consume($0, looking: $1) },
                              passOver: { _ in }, consumeInOrder: { self.consume($0, before: $1) },
                              resume: { self.resume(after: $0) }, onProgress: onProgress)
    }

    /// Whether taking in `record`, which the diagnosis takes in as `look`, changes nothing,
    /// whatever the switches open: it says nothing about a switch and carries no project's label.
    static func passesOver(_ record: DecodedRecord, looking look: Look) -> Bool {
        guard case .nothing = look else { return false }
        return !ProjectLabels.namesProject(record)
    }

    /// What the diagnosis takes in from `record` (``Look``), `state` the state before it: read
    /// from the record's fact in place (a fact taken out of its record is a copy of all its
    /// parts, and most records say nothing about a switch).
    package static func look(at record: DecodedRecord, in state: borrowing SDKState) -> Look {
        switch record.content {
        case .snapshot, .unreadable: return .nothing
        case .fact(.switchRouted(let id, let call, let project, let routing)):
            return .routed(id, call: call, project: project, routing: routing, live: state.live?.fingerprint)
        case .fact(.switchStarted(let id, let from, _)): return .started(id, from: from)
        case .fact(.teardownStepBegan(let id, let step)): return .stepBegan(id, step)
        case .fact(.teardownStepFinished(let id, let step, let outcome, let elapsed)):
            return .stepFinished(id, step, outcome, elapsedMicroseconds: elapsed)
        case .fact(.durabilityRequested(let request, .teardownDisable(let id))): return .disableDurabilityRequested(id, request: request)
        case .fact(.timerSet(.teardownBound(let id, .disablePush), let due)): return .disableBoundSet(id, due: due)
        case .fact(.timerFired(.teardownBound(let id, .disablePush))): return .disableBoundPassed(id)
        case .fact(.durabilityConfirmed(let confirmation)): return .durabilityConfirmed(confirmation)
        case .fact(.gateDecided(let call, let decision)):
            // (An eventBatched carries only an `executed` decision, which no switch reports.)
            switch decision {
            case .queued(let id, let position, let received):
                return .held(call, by: id, name: received.call.name.rawValue, position: position)
            // Refused while held: the gate let it go (shutdown).
            case .refused: return .refused(call)
            case .replayed(let id, let project): return .replayed(call, by: id, on: project)
            case .inline(let project):
                guard let run = state.switching.inFlight?.id else { return .nothing }
                return .inline(call, during: run, name: state.pendingCall(call)?.name.rawValue, on: project)
            // Run at once: no switch holds it.
            case .executed: return .nothing
            }
        case .fact(.switchLanded(let id, let project, let result, let reasons)): return .landed(id, on: project, result, reasons: reasons)
        case .fact(.callbacksDelivered(let id)): return .callbacksDelivered(id)
        case .fact(.switchCancelled(let id, let reason)): return .cancelled(id, reason: reason)
        case .fact(.clockJumped(let wall, let jump)):
            guard let run = state.switching.inFlight?.id else { return .nothing }
            return .clockJumped(during: run, wall: wall, jumpMicroseconds: jump)
        case .fact(.backgroundTaskBegan), .fact(.backgroundTaskExpired), .fact(.backgroundFlushFinished), .fact(.backgroundTaskEnded):
            guard let run = state.switching.inFlight?.id, let text = record.fact.flatMap(Describe.background) else { return .nothing }
            return .background(during: run, text)
        case .fact(.storageWasUnavailable), .fact(.keyringWriteFailed):
            guard let run = state.switching.inFlight?.id, let text = record.fact.flatMap(Describe.storage) else { return .nothing }
            return .storage(during: run, text)
        // Facts that say nothing about a switch (other timers and durability waits included).
        case .fact(.durabilityRequested), .fact(.timerSet), .fact(.timerFired), .fact(.engineStarted), .fact(.callReceived),
             .fact(.transportCompleted), .fact(.moduleHookCompleted), .fact(.authTokenReceived), .fact(.notificationReceived),
             .fact(.engineStopping), .fact(.linkResolved), .fact(.networkReachable), .fact(.localDataErased), .fact(.initialized),
             .fact(.callRejected), .fact(.callResolved), .fact(.callsResolved), .fact(.identityChanged), .fact(.pushTokenChanged),
             .fact(.attributionChanged), .fact(.attributionRefused), .fact(.unknownUserEventHeld),
             .fact(.unknownUserSessionCounted), .fact(.unknownUserEventsReleased), .fact(.linkResolutionStarted),
             .fact(.staleResultRefused), .fact(.taskQueued), .fact(.eventBatched), .fact(.taskDispatched), .fact(.retryScheduled),
             .fact(.taskCompleted), .fact(.eventsExpired), .fact(.disableCoalesced), .fact(.authRefreshRequested),
             .fact(.authRefreshFinished), .fact(.journalGap), .fact(.moduleEventDelivered), .fact(.moduleHookStarted),
             .fact(.moduleHookFinished), .fact(.messagesStored), .fact(.storageCleared), .fact(.unknown):
            return .nothing
        }
    }
}
