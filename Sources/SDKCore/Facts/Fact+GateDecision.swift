extension Fact {
    /// The gate's decision this fact records, and for which call: a `gateDecided`'s, or the
    /// `executed` one an `eventBatched` carries since format 1.3 (``eventBatched(task:event:executedOn:)``,
    /// whose call then has no `gateDecided` of its own). Nil for every other fact. What a reader
    /// of the gate's decisions looks at, whichever of the two records a journal holds.
    package var gateDecision: (call: CallID, decision: GateDecision)? {
        switch self {
        case .gateDecided(let call, let decision): (call, decision)
        case .eventBatched(_, let event, let project?): (event.call, .executed(project: project))
        case .eventBatched(_, _, nil): nil
        case .engineStarted, .callReceived, .transportCompleted, .timerFired, .durabilityConfirmed,
             .moduleHookCompleted, .authTokenReceived, .callbacksDelivered, .notificationReceived, .engineStopping,
             .linkResolved, .networkReachable, .localDataErased, .clockJumped, .backgroundTaskBegan, .backgroundTaskExpired, .backgroundFlushFinished, .backgroundTaskEnded, .storageWasUnavailable, .keyringWriteFailed, .initialized, .callRejected, .identityChanged, .pushTokenChanged,
             .attributionChanged, .attributionRefused, .unknownUserEventHeld, .unknownUserEventsReleased,
             .unknownUserSessionCounted, .taskQueued, .taskDispatched, .retryScheduled, .taskCompleted, .eventsExpired, .disableCoalesced, .timerSet,
             .callResolved, .callsResolved, .authRefreshRequested, .authRefreshFinished, .moduleEventDelivered,
             .moduleHookStarted, .moduleHookFinished, .messagesStored, .storageCleared, .durabilityRequested,
             .journalGap, .linkResolutionStarted, .staleResultRefused, .switchRouted, .switchStarted,
             .teardownStepBegan, .teardownStepFinished, .switchLanded, .switchCancelled, .unknown:
            nil
        }
    }
}
