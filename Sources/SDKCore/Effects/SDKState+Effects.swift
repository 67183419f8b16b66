extension SDKState {
    /// The effects the facts of one batch ask for, in the order the facts were decided, given
    /// the state after the batch (`self`). Pure: the same facts and state give the same effects.
    package func effects(of facts: [Fact]) -> [Effect] {
        var effects: [Effect] = []
        effects.reserveCapacity(facts.count)
        var landing: Effect.Landing?
        // A link resolution is an input that resolves at most one call, its own, in the same batch.
        var linkDestination: String?
        for fact in facts {
            switch fact {
            case .taskDispatched(let id, let attempt):
                effects.append(.send(id, attempt: attempt))
            case .timerSet(let purpose, let due):
                effects.append(.armTimer(purpose, due: due))
            case .callResolved(let call, let outcome):
                effects.append(.complete(call, outcome, landing: landing, linkDestination: linkDestination))
            case .switchLanded(let id, _, let result, _):
                landing = Effect.Landing(id: id, result: result)
                effects.append(.beginLanding(id))
            case .durabilityRequested(let request, _):
                effects.append(.requestDurability(request))
            case .authRefreshRequested(let project, let request):
                effects.append(.refreshToken(project, request: request))
            case .moduleEventDelivered(let module, let event, let project, let generation):
                effects.append(.deliverModuleEvent(event, module: module, project: project, generation: generation))
            case .moduleHookStarted(let hook, let module, let event):
                // Hooks run for the instance the SDK is on (or, mid-teardown, the one it leaves).
                if let project = live?.fingerprint ?? switching.inFlight?.from?.fingerprint {
                    effects.append(.runHook(hook, event, module: module, project: project, generation: generation))
                } else {
                    effects.append(.completeHookAtOnce(hook))
                }
            case .moduleHookFinished(let hook, _):
                effects.append(.abandonHook(hook))
            case .identityChanged(let email, let userID):
                effects.append(.identityChanged(user: email ?? userID))
            case .storageCleared(_, .identity):
                effects.append(.identityChanged(user: nil))
            case .initialized(_, let generation):
                effects.append(.instanceStarted(generation: generation))
            case .linkResolutionStarted(let job, _, let url, _, _):
                effects.append(.resolveLink(job: job, url: url))
            case .linkResolved(let resolution):
                linkDestination = resolution.destination
            default:
                break
            }
        }
        if let landing { effects.append(.armLanding(landing.id)) }
        return effects
    }
}
