import Journal

extension SDKState {
    /// The state after `fact`, journaled at `time`. Total, pure and deterministic: no clock, no
    /// I/O, no randomness. Facts of unknown kinds change nothing.
    public func evolved(by fact: Fact, at time: JournalTime) -> SDKState {
        var next = self
        next.evolve(fact, at: time)
        return next
    }

    /// Applies `fact`, journaled at `time` (see ``evolved(by:at:)``); a fact of an unknown kind
    /// only moves the time.
    ///
    /// One exhaustive switch, no `default:`: a new fact does not build until it says what it
    /// changes (or that it changes nothing). The cases are grouped by ``FactFamily``; a fold
    /// longer than a few lines is its family's `fold…` in `SDKState+Evolve<Family>.swift`.
    public mutating func evolve(_ fact: Fact, at time: JournalTime) {
        self.time = time
        switch fact {
        // MARK: Inputs (SDKState+EvolveInput.swift)
        case .engineStarted(let start):
            foldEngineStarted(start, at: time)
        case .callReceived(let received):
            foldCallReceived(received, at: time)
        case .timerFired(let purpose):
            timers[purpose] = nil
        case .durabilityConfirmed(let confirmation):
            durabilityWaits[confirmation.request] = nil
        case .callbacksDelivered(let id):
            if switching.awaitingCallbacks == id { switching.awaitingCallbacks = nil }
        case .linkResolved(let resolution):
            linkJobs[resolution.job] = nil
        case .clockJumped(let wall, _):
            clockOffsetMicroseconds = wall.microsecondsSince1970 &- time.microsecondsSince1970
        // Inputs that change the state only through the decisions they lead to.
        case .transportCompleted, .moduleHookCompleted, .authTokenReceived, .notificationReceived, .engineStopping,
             .networkReachable, .localDataErased, .backgroundTaskBegan, .backgroundTaskExpired, .backgroundFlushFinished,
             .backgroundTaskEnded:
            break
        // Reports of the storage: nothing in the state follows from them.
        case .storageWasUnavailable, .keyringWriteFailed:
            break

        // MARK: Call decisions (SDKState+EvolveCall.swift)
        case .initialized(let project, let generation):
            foldInitialized(project, generation: generation)
        case .identityChanged(let email, let userID):
            self.email = email
            self.userID = userID
        case .pushTokenChanged(let token):
            pushToken = token
        case .attributionChanged(_, let info):
            attribution = info
        case .unknownUserEventHeld(_, let call, let event):
            heldEvents.append(HeldEvent(call: call, event: event))
        case .unknownUserSessionCounted:
            unknownUserSessions &+= 1
        case .unknownUserEventsReleased:
            heldEvents = []
            unknownUserSessions = 0
        case .callResolved, .callsResolved:
            fact.forEachResolution { call, _ in
                if let index = pendingCalls.index(forKey: call) { removePendingCall(at: index) }
            }
        case .linkResolutionStarted(let job, let call, let url, let project, let generation):
            linkJobs[job] = LinkJob(call: call, url: url, project: project, generation: generation)
            nextRequestNumber = max(nextRequestNumber, job &+ 1)
        // Refusals: what was refused changes nothing.
        case .callRejected, .attributionRefused, .staleResultRefused:
            break

        // MARK: Delivery decisions (SDKState+EvolveDelivery.swift)
        case .taskQueued(let task):
            foldTaskQueued(task)
        case .eventBatched(let id, let event, let executedOn):
            foldEventBatched(id, event, executedOn: executedOn, at: time)
        case .taskDispatched(let id, let attempt):
            foldTaskDispatched(id, attempt: attempt)
        case .retryScheduled(let id, let attempt, let due, let reason):
            foldRetryScheduled(id, attempt: attempt, due: due, reason: reason, at: time)
        case .taskCompleted(let id, _):
            removeTask(id)
        case .disableCoalesced(let id, let call):
            guard tasks[id] != nil else { break }
            tasks[id]?.task.coalesce(call)
            queueFootprint += DeliveryTask.eventAllowance
            queuedEvents += 1
        case .eventsExpired(let id, let calls):
            foldEventsExpired(id, calls: calls)
        case .timerSet(let purpose, let due):
            timers[purpose] = due
            if case .retry(let id, let attempt) = purpose { tasks[id]?.status = .retrying(nextAttempt: attempt) }
        case .authRefreshRequested(let project, let request):
            foldAuthRefreshRequested(project, request: request)
        case .authRefreshFinished(let project, _, _):
            auth[project]?.refreshing = nil
        case .durabilityRequested(let request, let purpose):
            durabilityWaits[request] = purpose
            nextRequestNumber = max(nextRequestNumber, request &+ 1)
        // A gap reports facts that are missing: the state cannot know what they changed.
        case .journalGap:
            break

        // MARK: Module decisions (SDKState+EvolveModule.swift)
        case .moduleEventDelivered(let module, let signal, _, let generation):
            foldModuleSignal(signal, module: module, generation: generation)
        case .moduleHookStarted(let hook, let module, let signal):
            hooks[hook] = PendingHook(module: module, signal: signal, startedAt: time)
            nextRequestNumber = max(nextRequestNumber, hook &+ 1)
        case .moduleHookFinished(let hook, let problem):
            if let problem, switching.inFlight?.step != nil { switching.inFlight?.stepProblems.append(problem) }
            hooks[hook] = nil
            timers[.moduleHookBound(hook: hook)] = nil
        case .messagesStored(let kind, _, let ids):
            switch kind {
            case .inApp: inAppMessageIDs = ids
            case .embedded: embeddedMessageIDs = ids
            }
        case .storageCleared(let project, let scope):
            foldStorageCleared(project, scope: scope)

        // MARK: Switch decisions (SDKState+EvolveSwitch.swift)
        case .gateDecided(let call, let decision):
            foldGateDecision(decision, of: call, at: time)
        case .switchRouted(let id, let call, let project, let routing):
            foldSwitchRouted(id, call: call, project: project, routing: routing)
        case .switchStarted(let id, let from, let to):
            foldSwitchStarted(id, from: from, to: to, at: time)
        case .teardownStepBegan(_, let step):
            switching.inFlight?.step = step
            switching.inFlight?.stepStartedAt = time
            switching.inFlight?.stepProblems = []
        case .teardownStepFinished(let id, let step, let outcome, _):
            timers[.teardownBound(id, step)] = nil
            if case .warning(let reason) = outcome { switching.inFlight?.warnings.append(reason) }
            switching.inFlight?.step = nil
            switching.inFlight?.stepProblems = []
        case .switchLanded(let id, _, _, _):
            switching.inFlight = nil
            switching.awaitingCallbacks = id
            switching.releasingHeldCalls = switching.gate.isEmpty ? nil : id
        case .switchCancelled(let id, _):
            switching.queue.removeAll { $0.id == id }

        // A fact written by a newer SDK: kept, never applied.
        case .unknown:
            break
        }
    }
}
