extension SDKState {
    /// The effects the facts of one batch ask for, in the order the facts were decided, given
    /// the state after the batch (`self`). Pure: the same facts and state give the same effects.
    package func effects(of facts: [Fact]) -> [Effect] {
        var effects: [Effect] = []
        forEachEffect(of: facts) { effects.append($0) }
        return effects
    }

    /// ``effects(of:)`` one at a time, without collecting them.
    package func forEachEffect(of facts: [Fact], _ body: (consuming Effect) -> Void) {
        Self.forEachEffect(of: facts, after: effectContext, body)
    }

    /// The little of the state after a batch that its effects depend on.
    package var effectContext: EffectContext {
        EffectContext(live: live?.fingerprint, leaving: switching.inFlight?.from?.fingerprint, generation: generation)
    }

    /// ``effects(of:)`` one at a time, given only the ``effectContext`` of the state after the
    /// batch (the engine's path: it neither allocates nor copies the state per input). Each
    /// effect is handed over to `body` (consumed), so what it carries is moved on, not copied.
    package static func forEachEffect(of facts: [Fact], after context: EffectContext, _ body: (consuming Effect) -> Void) {
        var landing: Effect.Landing?
        // A link resolution is an input that resolves at most one call, its own, in the same batch.
        var linkDestination: String?
        for fact in facts {
            switch fact {
            case .taskDispatched(let id, let attempt):
                body(.send(id, attempt: attempt))
            case .timerSet(let purpose, let due):
                body(.armTimer(purpose, due: due))
            case .retryScheduled(let task, let attempt, let due, _):
                body(.armTimer(.retry(task, attempt: attempt), due: due))
            case .callResolved(let call, let outcome):
                // A link's destination goes with a resolution that applied it only.
                let destination = if case .applied = outcome { linkDestination } else { String?.none }
                body(.complete(call, outcome, landing: landing, linkDestination: destination))
            case .callsResolved(_, let calls, let outcome):
                for call in calls { body(.complete(call, outcome, landing: landing, linkDestination: linkDestination)) }
            case .switchLanded(let id, _, let result, _):
                landing = Effect.Landing(id: id, result: result)
                body(.beginLanding(id))
            case .durabilityRequested(let request, _):
                body(.requestDurability(request))
            case .authRefreshRequested(let project, let request):
                body(.refreshToken(project, request: request))
            case .moduleEventDelivered(let module, let signal, let project, let generation):
                body(.deliverModuleSignal(signal, module: module, project: project, generation: generation))
            case .moduleHookStarted(let hook, let module, let signal):
                // Hooks run for the instance the SDK is on (or, mid-teardown, the one it leaves).
                if let project = context.hookProject {
                    body(.runHook(hook, signal, module: module, project: project, generation: context.generation))
                } else {
                    body(.completeHookAtOnce(hook))
                }
            case .moduleHookFinished(let hook, _):
                body(.abandonHook(hook))
            case .identityChanged(let email, let userID):
                body(.identityChanged(user: UserIdentity(email: email, userID: userID)))
            case .storageCleared(_, .identity), .storageCleared(_, .personalData):
                body(.identityChanged(user: nil))
            case .callReceived(let received):
                if case .control(.eraseLocalData) = received.call { body(.eraseLocalData(call: received.id)) }
            case .initialized(_, let generation):
                body(.instanceStarted(generation: generation))
            case .linkResolutionStarted(let job, _, let url, _, _):
                body(.resolveLink(job: job, url: url))
            case .linkResolved(let resolution):
                linkDestination = resolution.destination
            // Facts that ask nothing of the world.
            case .engineStarted, .transportCompleted, .timerFired, .durabilityConfirmed, .moduleHookCompleted,
                 .authTokenReceived, .callbacksDelivered, .notificationReceived, .engineStopping, .networkReachable,
                 .localDataErased, .clockJumped, .backgroundTaskBegan, .backgroundTaskExpired, .backgroundFlushFinished, .backgroundTaskEnded, .storageWasUnavailable, .keyringWriteFailed,
                 .callRejected, .pushTokenChanged, .attributionChanged, .attributionRefused, .unknownUserEventHeld,
                 .unknownUserSessionCounted, .unknownUserEventsReleased, .staleResultRefused,
                 .taskQueued, .eventBatched, .taskCompleted, .eventsExpired, .disableCoalesced, .authRefreshFinished, .journalGap,
                 .messagesStored, .storageCleared,
                 .gateDecided, .switchRouted, .switchStarted, .teardownStepBegan, .teardownStepFinished, .switchCancelled,
                 .unknown:
                break
            }
        }
        if let landing { body(.armLanding(landing.id)) }
    }
}

/// What the effects of a batch read of the state after it (``SDKState/effectContext``).
package struct EffectContext: Sendable, Equatable {
    /// The project module hooks run for: the live one, or, mid-teardown, the one being left.
    package var hookProject: ProjectFingerprint?
    /// The instance running.
    package var generation: UInt64

    /// The context of a state made of its parts: the live project, the one a switch in flight
    /// leaves, the instance. The engine reads them from its stored state one by one (a getter
    /// of the state, called there, copies all of it).
    package init(live: ProjectFingerprint?, leaving: ProjectFingerprint?, generation: UInt64) {
        hookProject = live ?? leaving
        self.generation = generation
    }
}
