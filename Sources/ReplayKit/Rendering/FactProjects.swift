import SDK

/// The projects a fact is about, for `--project` filters.
package enum FactProjects {
    /// The projects `fact` names, looking up tasks, calls and switches in `state` (the state
    /// before the fact); empty when it names none.
    package static func mentioned(by fact: Fact, in state: SDKState) -> [ProjectFingerprint] {
        switch fact {
        case .callReceived(let received):
            switch received.call {
            case .initialize(let project), .switchProject(let project): return [project.fingerprint]
            default: return []
            }
        case .transportCompleted(let completion): return task(completion.task, state)
        case .timerFired(let timer), .timerSet(let timer, _):
            switch timer {
            case .retry(let id, _): return task(id, state)
            case .teardownBound(let id, _): return switchProjects(id, state)
            case .moduleHookBound: return []
            }
        case .authTokenReceived(let receipt): return [receipt.project]
        case .callbacksDelivered(let id): return switchProjects(id, state)
        case .initialized(let project, _): return [project.fingerprint]
        case .gateDecided(let call, let decision):
            switch decision {
            case .executed(let project), .inline(let project), .replayed(_, let project): return [project]
            case .queued, .refused: return state.pendingCalls[call]?.projectAtCall.map { [$0] } ?? []
            }
        case .callRejected(let call, _): return state.pendingCalls[call]?.projectAtCall.map { [$0] } ?? []
        case .attributionChanged(let project, _), .attributionRefused(let project, _),
             .unknownUserEventHeld(let project, _, _), .unknownUserEventsReleased(let project),
             .unknownUserSessionCounted(let project), .authRefreshRequested(let project, _),
             .authRefreshFinished(let project, _, _), .moduleEventDelivered(_, _, let project, _),
             .messagesStored(_, let project, _), .storageCleared(let project, _):
            return [project]
        case .taskQueued(let queued): return [queued.project]
        case .taskDispatched(let id, _), .taskCompleted(let id, _), .eventBatched(let id, _): return task(id, state)
        case .callResolved(let call, let outcome):
            switch outcome {
            case .delivered(let project, _): return [project]
            case .applied(let project?): return [project]
            default: return state.pendingCalls[call]?.projectAtCall.map { [$0] } ?? []
            }
        case .moduleHookStarted(_, _, let event):
            if case .willSwitchProject(let to) = event { return [to] + (state.live.map { [$0.fingerprint] } ?? []) }
            return []
        case .switchRouted(_, _, let project, _): return [project.fingerprint]
        case .switchStarted(_, let from, let to): return [to.fingerprint] + (from.map { [$0] } ?? [])
        case .teardownStepBegan(let id, _), .teardownStepFinished(let id, _, _, _): return switchProjects(id, state)
        case .switchLanded(_, let project, _, _): return [project]
        case .switchCancelled(let id, _): return switchProjects(id, state)
        case .linkResolutionStarted(_, _, _, let project, _): return [project]
        case .linkResolved(let resolution): return state.linkJobs[resolution.job].map { [$0.project] } ?? []
        case .durabilityRequested(_, .teardownDisable(let id)): return switchProjects(id, state)
        default: return []
        }
    }

    private static func task(_ id: TaskID, _ state: SDKState) -> [ProjectFingerprint] {
        state.tasks[id].map { [$0.task.project] } ?? []
    }

    private static func switchProjects(_ id: SwitchID, _ state: SDKState) -> [ProjectFingerprint] {
        guard let run = state.switching.inFlight, run.id == id else {
            return state.switching.queue.first { $0.id == id }.map { [$0.project.fingerprint] } ?? []
        }
        return [run.to.fingerprint] + (run.from.map { [$0.fingerprint] } ?? [])
    }
}
