import Journal
import SDK

extension ContractChecker: StateLooking {
    /// What the rules read of the state before a record: all of it before a snapshot (compared
    /// with it, or taken over) and before a journal gap or an erasure (taken over again), a few
    /// answers before the facts that need them, nothing before the others. Taken on the thread
    /// that folds the state (``SegmentFolds/walk(_:jobs:look:consume:passOver:consumeInOrder:onProgress:)``),
    /// so that the checker, on the calling thread, never needs the state itself.
    package enum Look: Sendable {
        /// Nothing: no rule reads the state before this record.
        case nothing
        /// The whole state (boxed: a look is otherwise a few words).
        indirect case state(SDKState)
        /// Before a `callReceived`: whether a switch was in flight, and the live project.
        case gate(switching: Bool, live: ProjectFingerprint?)
        /// Before an `eventBatched`: the project of the task the event joined, if it was queued.
        case batchedInto(ProjectFingerprint?)
        /// Before a `callResolved`: whether the call was pending.
        case pending(Bool)
        /// Before a `callsResolved`: whether each call listed was pending.
        case pendingEach([Bool])
    }

    /// Takes in every record of `reader` in order, its segments decoded and folded `jobs` at a
    /// time (``SegmentFolds/walk(_:jobs:look:consume:passOver:consumeInOrder:onProgress:)``); returns how
    /// the walk went (``finish(state:)`` is the caller's, with the walk's final state).
    package func consume(_ reader: JournalReader, jobs: Int, onProgress: ((UInt64) -> Void)? = nil) throws -> SegmentFolds.Walked {
        try SegmentFolds.walk(reader, jobs: jobs, look: Self.lookUnlessPassedOver(at:in:), consume: { self.consume($0, looking: $1) },
                              passOver: { self.passOver($0) }, consumeInOrder: { self.consume($0, before: $1) },
                              resume: { _ in self.resumeAfterSkip() }, onProgress: onProgress)
    }

    /// Whether taking in `fact` changes nothing but the count of records: no rule reads it
    /// (``check(_:at:look:)`` lets it by), and it carries no project's label.
    static func passesOver(_ fact: Fact) -> Bool {
        switch fact {
        case .engineStarted, .transportCompleted, .timerFired, .durabilityConfirmed, .moduleHookCompleted, .authTokenReceived,
             .callbacksDelivered, .notificationReceived, .engineStopping, .linkResolved, .networkReachable, .clockJumped,
             .backgroundTaskBegan, .backgroundTaskExpired, .backgroundFlushFinished, .backgroundTaskEnded, .storageWasUnavailable,
             .keyringWriteFailed, .callRejected, .identityChanged, .pushTokenChanged, .attributionRefused, .unknownUserEventHeld,
             .unknownUserSessionCounted, .unknownUserEventsReleased, .linkResolutionStarted, .staleResultRefused,
             .taskDispatched, .retryScheduled, .eventsExpired, .disableCoalesced, .timerSet, .authRefreshRequested,
             .authRefreshFinished, .durabilityRequested, .moduleHookFinished, .messagesStored,
             .teardownStepBegan, .teardownStepFinished, .unknown:
            return ProjectLabels.project(namedBy: fact) == nil
        case .callReceived, .gateDecided, .taskQueued, .taskCompleted, .eventBatched, .callResolved, .callsResolved,
             .switchRouted, .switchCancelled, .switchStarted, .switchLanded, .journalGap, .localDataErased, .initialized,
             .storageCleared, .attributionChanged, .moduleEventDelivered, .moduleHookStarted:
            return false
        }
    }


    /// What the rules read of `state` (the state before `record`) when they take in `record`.
    package static func look(at record: DecodedRecord, in state: borrowing SDKState) -> Look {
        look(at: record, fact: record.fact, in: state)
    }

    /// ``look(at:in:)`` given the fact `record` holds, already taken out of it
    /// (``JournalWalk/fold(_:lookingBeforeWithFact:)``).
    package static func look(at record: DecodedRecord, fact: Fact?, in state: borrowing SDKState) -> Look {
        guard let fact else {
            if case .snapshot = record.content { return .state(copy state) }
            return .nothing
        }
        switch fact {
        case .journalGap, .localDataErased: return .state(copy state)
        case .callReceived: return .gate(switching: state.switching.isSwitching, live: state.live?.fingerprint)
        case .eventBatched(let task, _, _): return .batchedInto(state.tasks[task]?.task.project)
        case .callResolved(let call, _): return .pending(state.pendingCall(call) != nil)
        case .callsResolved(_, let calls, _): return .pendingEach(calls.map { state.pendingCall($0) != nil })
        // Facts whose rules read nothing of the state.
        case .engineStarted, .gateDecided, .taskQueued, .taskCompleted, .switchRouted, .switchCancelled, .switchStarted,
             .switchLanded, .initialized, .storageCleared, .attributionChanged, .moduleEventDelivered, .moduleHookStarted,
             .transportCompleted, .timerFired, .durabilityConfirmed, .moduleHookCompleted, .authTokenReceived,
             .callbacksDelivered, .notificationReceived, .engineStopping, .linkResolved, .networkReachable, .clockJumped,
             .backgroundTaskBegan, .backgroundTaskExpired, .backgroundFlushFinished, .backgroundTaskEnded,
             .storageWasUnavailable, .keyringWriteFailed, .callRejected, .identityChanged, .pushTokenChanged,
             .attributionRefused, .unknownUserEventHeld, .unknownUserSessionCounted, .unknownUserEventsReleased,
             .linkResolutionStarted, .staleResultRefused, .taskDispatched, .retryScheduled, .eventsExpired,
             .disableCoalesced, .timerSet, .authRefreshRequested, .authRefreshFinished, .durabilityRequested,
             .moduleHookFinished, .messagesStored, .teardownStepBegan, .teardownStepFinished, .unknown:
            return .nothing
        }
    }
}
