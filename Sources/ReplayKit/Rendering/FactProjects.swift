import SDK

/// The projects a fact is about, for `--project` filters.
package enum FactProjects {
    /// The projects `fact` names, looking up tasks, calls and switches in `state` (the state
    /// before the fact); empty when it names none.
    package static func mentioned(by fact: Fact, in state: SDKState) -> [ProjectFingerprint] {
        mentions(by: fact, in: state).all
    }

    /// The one or two projects a fact names, the one it is about first (a switch's destination,
    /// then where it comes from), without making an array.
    package struct Mentions {
        package let first: ProjectFingerprint?
        package let second: ProjectFingerprint?

        static let none = Mentions(nil)

        init(_ first: ProjectFingerprint?, _ second: ProjectFingerprint? = nil) {
            self.first = first ?? second
            self.second = first == nil ? nil : second
        }

        package var all: [ProjectFingerprint] {
            switch (first, second) {
            case let (first?, second?): [first, second]
            case let (first?, nil): [first]
            default: []
            }
        }
    }

    /// What ``mentioned(by:in:)`` gives, as ``Mentions``.
    package static func mentions(by fact: Fact, in state: SDKState) -> Mentions {
        switch fact {
        case .callReceived(let received):
            // An initialize or switchProject names its project; any other call is made on the live
            // project, and its later facts name where it went.
            return Mentions(received.call.carriedProject?.fingerprint)
        case .transportCompleted(let completion): return task(completion.task, state)
        case .timerFired(let timer), .timerSet(let timer, _):
            switch timer {
            case .retry(let id, _): return task(id, state)
            case .teardownBound(let id, _): return switchProjects(id, state)
            case .moduleHookBound: return .none
            }
        case .authTokenReceived(let receipt): return Mentions(receipt.project)
        case .callbacksDelivered(let id): return switchProjects(id, state)
        case .initialized(let project, _): return Mentions(project.fingerprint)
        case .gateDecided(let call, let decision):
            switch decision {
            case .executed(let project), .inline(let project), .replayed(_, let project): return Mentions(project)
            case .queued, .refused: return Mentions(state.pendingCall(call)?.projectAtCall)
            }
        case .callRejected(let call, _): return Mentions(state.pendingCall(call)?.projectAtCall)
        case .attributionChanged(let project, _), .attributionRefused(let project, _),
             .unknownUserEventHeld(let project, _, _), .unknownUserEventsReleased(let project),
             .unknownUserSessionCounted(let project), .authRefreshRequested(let project, _),
             .authRefreshFinished(let project, _, _), .moduleEventDelivered(_, _, let project, _),
             .messagesStored(_, let project, _), .storageCleared(let project, _):
            return Mentions(project)
        case .taskQueued(let queued): return Mentions(queued.project)
        case .taskDispatched(let id, _), .retryScheduled(let id, _, _, _), .taskCompleted(let id, _), .eventBatched(let id, _, _),
             .eventsExpired(let id, _), .disableCoalesced(let id, _): return task(id, state)
        case .callResolved(let call, let outcome):
            switch outcome {
            case .delivered(let project, _): return Mentions(project)
            case .applied(let project?): return Mentions(project)
            case .applied(nil), .failed, .discarded: return Mentions(state.pendingCall(call)?.projectAtCall)
            }
        case .callsResolved(let id, let calls, let outcome):
            switch outcome {
            case .delivered(let project, _): return Mentions(project)
            case .applied(let project?): return Mentions(project)
            case .applied(nil), .failed, .discarded:
                if let project = calls.first.flatMap({ state.pendingCall($0)?.projectAtCall }) { return Mentions(project) }
                return task(id, state)
            }
        case .moduleHookStarted(_, _, let event):
            if case .willSwitchProject(let to) = event { return Mentions(to, state.live?.fingerprint) }
            return .none
        case .switchRouted(_, _, let project, _): return Mentions(project.fingerprint)
        case .switchStarted(_, let from, let to): return Mentions(to.fingerprint, from)
        case .teardownStepBegan(let id, _), .teardownStepFinished(let id, _, _, _): return switchProjects(id, state)
        case .switchLanded(_, let project, _, _): return Mentions(project)
        case .switchCancelled(let id, _): return switchProjects(id, state)
        case .linkResolutionStarted(_, _, _, let project, _): return Mentions(project)
        case .linkResolved(let resolution): return Mentions(state.linkJobs[resolution.job]?.project)
        case .durabilityRequested(_, .teardownDisable(let id)): return switchProjects(id, state)
        // A confirmation is about what its request was about.
        case .durabilityConfirmed(let confirmation):
            guard case .teardownDisable(let id)? = state.durabilityWaits[confirmation.request] else { return .none }
            return switchProjects(id, state)
        case .keyringWriteFailed(let project, _): return Mentions(project)
        // Facts that name no project: none to mention (a durability wait other than a teardown's included).
        case .engineStarted, .moduleHookCompleted, .notificationReceived, .engineStopping,
             .networkReachable, .localDataErased, .clockJumped, .backgroundTaskBegan, .backgroundTaskExpired, .backgroundFlushFinished, .backgroundTaskEnded, .storageWasUnavailable,
             .identityChanged, .pushTokenChanged, .staleResultRefused,
             .durabilityRequested, .journalGap,
             .moduleHookFinished,
             .unknown: return .none
        }
    }

    private static func task(_ id: TaskID, _ state: SDKState) -> Mentions {
        Mentions(state.tasks[id]?.task.project)
    }

    /// A switch's projects: where it goes, then where it comes from, while it runs; where it
    /// goes, while it is queued or, landed, replays its held calls or waits for its callbacks
    /// (the SDK is on that project then).
    private static func switchProjects(_ id: SwitchID, _ state: SDKState) -> Mentions {
        let switching = state.switching
        if let run = switching.inFlight, run.id == id { return Mentions(run.to.fingerprint, run.from?.fingerprint) }
        if switching.releasingHeldCalls == id || switching.awaitingCallbacks == id { return Mentions(state.live?.fingerprint) }
        return Mentions(switching.queue.first { $0.id == id }?.project.fingerprint)
    }
}
