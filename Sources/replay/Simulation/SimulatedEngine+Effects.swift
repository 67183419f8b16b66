import Journal
import Locking
import SDK

extension SimulatedEngine {
    /// `EngineLoop.runEffects`: starts what the just-journaled facts ask for; results come back
    /// as world events and then as inputs through the mailbox.
    func runEffects(of facts: [Fact]) {
        var landing: (id: SwitchID, result: SwitchResult)?
        for fact in facts {
            switch fact {
            case .taskDispatched(let id, let attempt):
                send(id, attempt: attempt)
            case .timerSet(let purpose, let due):
                schedule(purpose, at: due)
            case .callResolved(let call, let outcome):
                complete(call, outcome, switchResult: landing?.result ?? .switchedCleanly)
            case .switchLanded(let id, _, let result, _):
                landing = (id, result)
            case .durabilityRequested(let request, _):
                requestDurability(request)
            case .authRefreshRequested(let project, let request):
                requestToken(for: project, request: request)
            case .moduleEventDelivered(let module, let event, _, _):
                deliver(event, to: module)
            case .moduleHookStarted(let hook, let module, let event):
                runHook(hook, module: module, event: event)
            default:
                break
            }
        }
        if let landing { enqueueCallback(.callbacksRan(landing.id)) }
    }

    // MARK: - Requests

    /// `EngineLoop.send`: the key from memory or the keyring, a token for JWT projects (cached,
    /// or asked of the auth provider first), then the transport.
    private func send(_ id: TaskID, attempt: Int) {
        guard let task = state.tasks[id]?.task else { return }
        guard let key = keys[task.project] ?? world.keyring[task.project] else {
            finishEffect(with: .transportCompleted(TransportCompletion(
                task: id, attempt: attempt, outcome: .networkError("no API key for project \(task.project) in the keyring"))))
            return
        }
        var request = SimulatedRequest(task: id, attempt: attempt, project: task.project, idempotencyKey: task.idempotencyKey(stream: writer.journalID),
                                       apiKey: key, endpoint: task.endpoint, path: task.path, body: task.body, token: nil)
        guard state.projects[task.project]?.usesJWT == true else {
            world.transmit(request, launch: launch)
            return
        }
        if let token = tokens[task.project] {
            request.token = token
            world.transmit(request, launch: launch)
        } else if authProviders.contains(task.project) {
            world.schedule(.tokenForRequest(launch: launch, request), after: world.draw(world.profile.authLatencyMilliseconds))
        } else {
            world.transmit(request, launch: launch)
        }
    }

    /// The auth provider answered the token request `send` made: cache the token through the
    /// mailbox and send (with the token, or without when the provider failed).
    func tokenArrived(for request: SimulatedRequest, project: ProjectFingerprint, token: String?) {
        var request = request
        if let token {
            request.token = token
            post(.cacheToken(project, token))
        }
        world.transmit(request, launch: launch)
    }

    /// `EngineLoop.requestToken`: forget the cached token and ask the provider for a new one.
    private func requestToken(for project: ProjectFingerprint, request: UInt64) {
        tokens[project] = nil
        guard authProviders.contains(project) else {
            finishEffect(with: .authTokenReceived(AuthTokenReceipt(request: request, project: project, failure: "no auth provider for the project")))
            return
        }
        world.schedule(.refreshAnswer(launch: launch, project: project, request: request), after: world.draw(world.profile.authLatencyMilliseconds))
    }

    // MARK: - Durability

    /// `EngineLoop.requestDurability`: the journal's flush, answered when the (slow) disk has
    /// synchronized; see ``durabilityDue(_:)``.
    private func requestDurability(_ request: UInt64) {
        world.schedule(.durabilityDue(launch: launch, request: request), after: world.draw(world.profile.syncDelayMilliseconds))
    }

    /// The disk finished (or failed) the flush of `request`: everything appended so far is
    /// durable, and the confirmation enters the mailbox.
    func durabilityDue(_ request: UInt64) {
        if world.chance(world.profile.syncFailure) { world.storage.armSyncFailure() }
        // Without a group-commit thread the writer's flush completes on this thread, before it returns.
        let failure = Locked<String?>(nil)
        writer.flush { result in
            if case .failure(let error) = result { failure.withLock { $0 = error.description } }
        }
        finishEffect(with: .durabilityConfirmed(DurabilityConfirmation(request: request, failure: failure.withLock { $0 })))
    }

    // MARK: - Completions

    /// `EngineLoop.complete`: the call's completion runs on the callback queue.
    private func complete(_ call: CallID, _ outcome: CallOutcome, switchResult: SwitchResult) {
        guard let completion = completions.removeValue(forKey: call) else { return }
        enqueueCallback(.completion(call, outcome, switchResult, completion))
    }

    private func enqueueCallback(_ work: CallbackWork) {
        let wasIdle = callbackQueueHead == callbackQueue.count
        callbackQueue.append(work)
        if wasIdle { world.schedule(.callbackRuns(launch: launch), after: world.draw(world.profile.callbackDelayMilliseconds)) }
    }

    /// Runs the callback queue's next item; schedules the one after it.
    func runNextCallback() {
        guard callbackQueueHead < callbackQueue.count else { return }
        let work = callbackQueue[callbackQueueHead]
        callbackQueueHead += 1
        if callbackQueueHead == callbackQueue.count {
            callbackQueue.removeAll(keepingCapacity: true)
            callbackQueueHead = 0
        } else {
            world.schedule(.callbackRuns(launch: launch), after: world.draw(world.profile.callbackDelayMilliseconds))
        }
        switch work {
        case .completion(let call, let outcome, let result, let completion):
            world.completionRan(call, outcome: outcome, switchResult: completion.isSwitch ? result : nil)
            if let reaction = completion.reaction { world.makeCall(.sdk(reaction), caller: SimulationWorld.callbackCaller) }
        case .callbacksRan(let id):
            finishEffect(with: .callbacksDelivered(id))
        }
    }

    // MARK: - Modules

    /// `EngineLoop.deliver`: the module handles the event at once; a failure is kept for the
    /// start hook to report.
    private func deliver(_ event: ModuleEvent, to name: String) {
        guard moduleNames.contains(name) else { return }
        if world.chance(world.profile.moduleFailure) { moduleFailures[name] = "simulated failure handling \(event)" }
    }

    /// `EngineLoop.runHook`: awaited events run for a while (maybe past their bound); others
    /// finish at once.
    private func runHook(_ hook: UInt64, module name: String, event: ModuleEvent) {
        guard moduleNames.contains(name), state.live?.fingerprint ?? state.switching.inFlight?.from?.fingerprint != nil else {
            post(.input(.moduleHookCompleted(ModuleHookCompletion(hook: hook)), .none))
            return
        }
        if event.isAwaited {
            let failure: String? = world.chance(world.profile.moduleFailure) ? "simulated failure of \(name)" : nil
            world.schedule(.hookReturns(launch: launch, ModuleHookCompletion(hook: hook, failure: failure)),
                           after: world.draw(world.profile.hookMilliseconds))
            return
        }
        var failure: String?
        if event == .start {
            failure = moduleFailures.removeValue(forKey: name)
        } else if world.chance(world.profile.moduleFailure) {
            failure = "simulated failure handling \(event)"
        }
        post(.input(.moduleHookCompleted(ModuleHookCompletion(hook: hook, failure: failure)), .none))
    }
}
