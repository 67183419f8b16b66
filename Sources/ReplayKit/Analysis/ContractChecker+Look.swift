import Journal
import SDK

extension ContractChecker {
    /// What the rules read of the state before a record: all of it before a snapshot (compared
    /// with it, or taken over) and before a journal gap or an erasure (taken over again), a few
    /// answers before the facts that need them, nothing before the others. Taken on the thread
    /// that folds the state (``SegmentFolds/walk(_:jobs:look:consume:consumeInOrder:onProgress:)``),
    /// so that the checker, on the calling thread, never needs the state itself.
    package enum Look: Sendable {
        /// Nothing: no rule reads the state before this record.
        case nothing
        /// The whole state.
        case state(SDKState)
        /// Before a `callReceived`: whether a switch was in flight, and the live project.
        case gate(switching: Bool, live: ProjectFingerprint?)
        /// Before an `eventBatched`: the project of the task the event joined, if it was queued.
        case batchedInto(ProjectFingerprint?)
        /// Before a `callResolved`: whether the call was pending.
        case pending(Bool)
        /// Before a `callsResolved`: whether each call listed was pending.
        case pendingEach([Bool])
    }

    /// What the rules read of `state` (the state before `record`) when they take in `record`.
    package static func look(at record: DecodedRecord, in state: borrowing SDKState) -> Look {
        switch record.content {
        case .snapshot: return .state(copy state)
        case .unreadable: return .nothing
        case .fact(let fact):
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
}
