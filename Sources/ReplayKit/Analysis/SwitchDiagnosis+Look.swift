import Journal
import SDK

extension SwitchDiagnosis {
    /// What the diagnosis reads of the state before a record: the live project before a switch
    /// is routed, the switch in flight before the facts a switch's window collects. Taken on the
    /// thread that folds the state (``SegmentFolds/walk(_:jobs:look:consume:consumeInOrder:onProgress:)``),
    /// so that the diagnosis, on the calling thread, never needs the state itself.
    package enum Look: Sendable {
        /// Nothing: the diagnosis reads nothing of the state before this record.
        case nothing
        /// Before a `switchRouted`: the live project.
        case live(ProjectFingerprint?)
        /// Before a clock jump, a background task's or the storage's fact: the switch in flight.
        case inFlight(SwitchID?)
        /// Before a call run inline: the switch in flight, and the name of the call if pending.
        case inline(during: SwitchID?, name: String?)
    }

    /// What the diagnosis reads of `state` (the state before `record`) when it takes in `record`.
    package static func look(at record: DecodedRecord, in state: borrowing SDKState) -> Look {
        guard let fact = record.fact else { return .nothing }
        switch fact {
        case .switchRouted: return .live(state.live?.fingerprint)
        case .gateDecided(let call, .inline):
            return .inline(during: state.switching.inFlight?.id, name: state.pendingCall(call)?.name.rawValue)
        case .clockJumped, .backgroundTaskBegan, .backgroundTaskExpired, .backgroundFlushFinished, .backgroundTaskEnded,
             .storageWasUnavailable, .keyringWriteFailed:
            return .inFlight(state.switching.inFlight?.id)
        // Facts the diagnosis reads no state for.
        case .gateDecided, .switchStarted, .teardownStepBegan, .teardownStepFinished, .durabilityRequested, .timerSet,
             .timerFired, .durabilityConfirmed, .switchLanded, .callbacksDelivered, .switchCancelled,
             .engineStarted, .callReceived, .transportCompleted, .moduleHookCompleted, .authTokenReceived,
             .notificationReceived, .engineStopping, .linkResolved, .networkReachable, .localDataErased,
             .initialized, .callRejected, .callResolved, .callsResolved, .identityChanged, .pushTokenChanged,
             .attributionChanged, .attributionRefused, .unknownUserEventHeld, .unknownUserSessionCounted,
             .unknownUserEventsReleased, .linkResolutionStarted, .staleResultRefused,
             .taskQueued, .eventBatched, .taskDispatched, .retryScheduled, .taskCompleted, .eventsExpired, .disableCoalesced,
             .authRefreshRequested, .authRefreshFinished, .journalGap,
             .moduleEventDelivered, .moduleHookStarted, .moduleHookFinished, .messagesStored, .storageCleared,
             .unknown:
            return .nothing
        }
    }
}
