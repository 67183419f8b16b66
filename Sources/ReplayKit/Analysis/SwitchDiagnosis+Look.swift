import Journal
import SDK

extension SwitchDiagnosis: StateLooking {
    /// What the diagnosis reads of the state before a record: the live project before a switch
    /// is routed, the switch in flight before the facts a switch's window collects. Taken on the
    /// thread that folds the state (``SegmentFolds/walk(_:jobs:look:consume:passOver:consumeInOrder:onProgress:)``),
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

    /// Takes in every record of `reader` in order, its segments decoded and folded `jobs` at a
    /// time (``SegmentFolds/walk(_:jobs:look:consume:passOver:consumeInOrder:onProgress:)``); returns how
    /// the walk went (``finish()`` is the caller's).
    package func consume(_ reader: JournalReader, jobs: Int, onProgress: ((UInt64) -> Void)? = nil) throws -> SegmentFolds.Walked {
        try SegmentFolds.walk(reader, jobs: jobs, look: Self.lookUnlessPassedOver(at:in:), consume: { self.consume($0, looking: $1) },
                              passOver: { _ in }, consumeInOrder: { self.consume($0, before: $1) },
                              resume: { self.resume(after: $0) }, onProgress: onProgress)
    }

    /// Whether taking in `fact` changes nothing, whatever the switches open: it says nothing
    /// about a switch (``consume(_:looking:)`` lets it by: a call executed at once, a timer or
    /// a durability request not a teardown's) and carries no project's label.
    static func passesOver(_ fact: Fact, looking look: Look) -> Bool {
        switch fact {
        case .switchRouted, .switchStarted, .teardownStepBegan, .teardownStepFinished, .durabilityRequested(_, .teardownDisable),
             .timerSet(.teardownBound(_, .disablePush), _), .timerFired(.teardownBound(_, .disablePush)), .durabilityConfirmed,
             .switchLanded, .callbacksDelivered, .switchCancelled, .clockJumped,
             .backgroundTaskBegan, .backgroundTaskExpired, .backgroundFlushFinished, .backgroundTaskEnded,
             .storageWasUnavailable, .keyringWriteFailed:
            return false
        case .gateDecided(_, let decision):
            if case .executed = decision { return true }
            return false
        case .durabilityRequested, .timerSet, .timerFired,
             .engineStarted, .callReceived, .transportCompleted, .moduleHookCompleted, .authTokenReceived,
             .notificationReceived, .engineStopping, .linkResolved, .networkReachable, .localDataErased,
             .initialized, .callRejected, .callResolved, .callsResolved, .identityChanged, .pushTokenChanged,
             .attributionChanged, .attributionRefused, .unknownUserEventHeld, .unknownUserSessionCounted,
             .unknownUserEventsReleased, .linkResolutionStarted, .staleResultRefused,
             .taskQueued, .eventBatched, .taskDispatched, .retryScheduled, .taskCompleted, .eventsExpired, .disableCoalesced,
             .authRefreshRequested, .authRefreshFinished, .journalGap,
             .moduleEventDelivered, .moduleHookStarted, .moduleHookFinished, .messagesStored, .storageCleared,
             .unknown:
            return ProjectLabels.project(namedBy: fact) == nil
        }
    }

    /// What the diagnosis reads of `state` (the state before `record`) when it takes in `record`.
    package static func look(at record: DecodedRecord, in state: borrowing SDKState) -> Look {
        look(fact: record.fact, in: state)
    }

    /// ``look(at:in:)`` given the fact the record holds (nil for a snapshot or an unreadable
    /// record), already taken out of it (``JournalWalk/fold(_:lookingBeforeWithFact:)``).
    package static func look(fact: Fact?, in state: borrowing SDKState) -> Look {
        guard let fact else { return .nothing }
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
