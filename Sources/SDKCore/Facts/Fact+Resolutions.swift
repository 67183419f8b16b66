extension Fact {
    /// Calls `body` with each call this fact resolves and its outcome, in order: one for
    /// `callResolved`, every listed call for `callsResolved`, none for any other fact. What a
    /// reader that follows calls to their end looks at, whichever of the two records a journal
    /// holds.
    package func forEachResolution(_ body: (CallID, CallOutcome) throws -> Void) rethrows {
        switch self {
        case .callResolved(let call, let outcome): try body(call, outcome)
        case .callsResolved(_, let calls, let outcome): for call in calls { try body(call, outcome) }
        case .engineStarted, .callReceived, .transportCompleted, .timerFired, .durabilityConfirmed,
             .moduleHookCompleted, .authTokenReceived, .callbacksDelivered, .notificationReceived, .engineStopping,
             .linkResolved, .networkReachable, .localDataErased, .clockJumped, .backgroundTaskBegan, .backgroundTaskExpired, .backgroundFlushFinished, .backgroundTaskEnded, .storageWasUnavailable, .keyringWriteFailed, .initialized, .gateDecided, .callRejected, .identityChanged,
             .pushTokenChanged, .attributionChanged, .attributionRefused, .unknownUserEventHeld,
             .unknownUserEventsReleased, .unknownUserSessionCounted, .taskQueued, .eventBatched, .taskDispatched,
             .retryScheduled, .taskCompleted, .eventsExpired, .disableCoalesced, .timerSet, .authRefreshRequested, .authRefreshFinished,
             .moduleEventDelivered, .moduleHookStarted, .moduleHookFinished, .messagesStored, .storageCleared,
             .durabilityRequested, .journalGap, .linkResolutionStarted, .staleResultRefused, .switchRouted,
             .switchStarted, .teardownStepBegan, .teardownStepFinished, .switchLanded, .switchCancelled, .unknown:
            break
        }
    }

    /// ``forEachResolution(_:)``'s calls and outcomes, collected.
    package var resolutions: [(call: CallID, outcome: CallOutcome)] {
        var resolutions: [(call: CallID, outcome: CallOutcome)] = []
        forEachResolution { resolutions.append(($0, $1)) }
        return resolutions
    }
}
