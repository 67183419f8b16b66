import Journal
import Locking
import SDK

extension SimulatedEngine {
    /// `EngineLoop.runEffects`: starts what the just-journaled facts ask for; results come back
    /// as world events and then as inputs through the mailbox.
    func runEffects(of facts: [Fact]) {
        var landing: (id: SwitchID, result: SwitchResult, callbacks: SimulatedLandingCallbacks)?
        for fact in facts {
            switch fact {
            case .taskDispatched(let id, let attempt):
                send(id, attempt: attempt)
            case .timerSet(let purpose, let due):
                schedule(purpose, at: due)
            case .callResolved(let call, let outcome):
                complete(call, outcome, landing: landing.map { ($0.result, $0.callbacks) })
            case .switchLanded(let id, _, let result, _):
                let callbacks = SimulatedLandingCallbacks { [unowned self] in finishEffect(with: .callbacksDelivered(id)) }
                landing = (id, result, callbacks)
            case .durabilityRequested(let request, _):
                requestDurability(request)
            case .authRefreshRequested(let project, let request):
                requestToken(for: project, request: request)
            case .moduleEventDelivered(let module, let event, _, let generation):
                moduleRunner.submit(.deliver(event, generation: generation), to: module)
            case .moduleHookStarted(let hook, let module, let event):
                runHook(hook, module: module, event: event)
            case .moduleHookFinished(let hook, _):
                // Finished in the journal; a hook still running overran its bound: stop it.
                moduleRunner.hookAbandoned(hook)
            case .identityChanged(let email, let userID):
                effectsIdentity.user = email ?? userID
                forgetTokens()
            case .storageCleared(_, .identity):
                effectsIdentity.user = nil
                forgetTokens()
            case .initialized(_, let generation):
                effectsIdentity.instance = generation
                forgetTokens()
            case .linkResolutionStarted(let job, let call, let url, let project, _):
                linkCalls[job] = call
                resolveLink(job, url: url, project: project)
            case .linkResolved(let resolution):
                if let call = linkCalls.removeValue(forKey: resolution.job), let destination = resolution.destination {
                    linkDestinations[call] = destination
                }
            default:
                break
            }
        }
        // The next switch may start once every completion of the landing has returned.
        landing?.callbacks.arm()
    }

    // MARK: - Requests

    /// `EngineLoop.send`: the key from memory or the keyring, a token for JWT projects (cached,
    /// or asked of the auth provider first; no JWT, no request), then the transport.
    private func send(_ id: TaskID, attempt: Int) {
        guard let task = state.tasks[id]?.task else { return }
        guard let key = keys[task.project] ?? world.keyring[task.project] else {
            finishEffect(with: .transportCompleted(TransportCompletion(
                task: id, attempt: attempt, outcome: .networkError("no API key for project \(task.project) in the keyring"))))
            return
        }
        var request = SimulatedRequest(task: id, attempt: attempt, project: task.project, idempotencyKey: task.idempotencyKey(stream: writer.journalID),
                                       apiKey: key, endpoint: task.endpoint, path: task.path, body: task.body, token: nil,
                                       user: effectsIdentity.user, instance: effectsIdentity.instance)
        guard state.projects[task.project]?.usesJWT == true else {
            world.transmit(request, launch: launch)
            return
        }
        if let token = tokens[task.project] {
            request.token = token
            world.transmit(request, launch: launch)
        } else if authProviders.contains(task.project) {
            askProvider(.send(request, epoch: tokenEpoch))
        } else {
            world.transmit(request, launch: launch)
        }
    }

    /// `EngineLoop.forgetTokens`: a JWT belongs to one user on one project instance.
    private func forgetTokens() {
        tokens.removeAll()
        tokenEpoch &+= 1
    }

    /// `EngineLoop.askProvider`: asks the app's auth provider (the world answers after its
    /// latency, with a token for the user and instance the app is on now, or a failure, or
    /// never in time), taking its first answer only; the bound answers with a failure.
    private func askProvider(_ ask: ProviderAsk) {
        nextProviderAsk += 1
        let number = nextProviderAsk
        providerAsks[number] = ask
        let bound = state.rules.authProviderBoundMilliseconds
        world.askAuthProvider(number, project: ask.project, user: effectsIdentity.user, instance: effectsIdentity.instance,
                              launch: launch, bound: bound)
        world.schedule(.providerBound(launch: launch, ask: number, milliseconds: bound), after: bound)
    }

    /// The auth provider answered ask `number` (or its bound passed: `token` nil with `problem`).
    func providerAnswered(_ number: UInt64, token: String?, problem: String) {
        guard let ask = providerAsks.removeValue(forKey: number) else { return }
        switch ask {
        case .send(var request, let epoch):
            if let token {
                request.token = token
                // Kept for the next request, unless the user or the instance changed meanwhile.
                post(.cacheToken(request.project, token, epoch: epoch))
                world.transmit(request, launch: launch)
            } else {
                // No request without the JWT it needs: the attempt fails and is retried.
                finishEffect(with: .transportCompleted(TransportCompletion(task: request.task, attempt: request.attempt,
                                                                           outcome: .networkError("no JWT: \(problem)"))))
            }
        case .refresh(let project, let request, let epoch):
            if let token {
                finishEffect(with: .authTokenReceived(AuthTokenReceipt(request: request, project: project, failure: nil)), .token(token, epoch: epoch))
            } else {
                finishEffect(with: .authTokenReceived(AuthTokenReceipt(request: request, project: project, failure: problem)))
            }
        }
    }

    /// `EngineLoop.requestToken`: forget the cached token and ask the provider for a new one.
    private func requestToken(for project: ProjectFingerprint, request: UInt64) {
        tokens[project] = nil
        guard authProviders.contains(project) else {
            finishEffect(with: .authTokenReceived(AuthTokenReceipt(request: request, project: project, failure: "no auth provider for the project")))
            return
        }
        askProvider(.refresh(project: project, request: request, epoch: tokenEpoch))
    }

    // MARK: - Links

    /// `EngineLoop.resolveLink`: a GET of the tracked link that does not follow its redirect;
    /// the world's link host answers with the destination and the attribution cookies.
    private func resolveLink(_ job: UInt64, url: String, project: ProjectFingerprint) {
        world.resolveLink(job, url: url, launch: launch)
    }

    // MARK: - Durability

    /// `EngineLoop.requestDurability`: the journal's flush, answered when the (slow) disk has
    /// synchronized; see ``durabilityDue(_:)``. While the journal is out, answered at once.
    private func requestDurability(_ request: UInt64) {
        if let outage {
            finishEffect(with: .durabilityConfirmed(DurabilityConfirmation(request: request, failure: outage.description)))
            return
        }
        world.schedule(.durabilityDue(launch: launch, request: request), after: world.draw(world.profile.syncDelayMilliseconds))
    }

    /// The disk finished (or failed) the flush of `request`: everything appended so far is
    /// durable, and the confirmation enters the mailbox.
    func durabilityDue(_ request: UInt64) {
        world.maybeBreakDisk()
        if let outage {
            finishEffect(with: .durabilityConfirmed(DurabilityConfirmation(request: request, failure: outage.description)))
            return
        }
        // Without a group-commit thread the writer's flush completes on this thread, before it returns.
        let failure = Locked<String?>(nil)
        writer.flush { result in
            if case .failure(let error) = result { failure.withLock { $0 = error.description } }
        }
        finishEffect(with: .durabilityConfirmed(DurabilityConfirmation(request: request, failure: failure.withLock { $0 })))
    }

    // MARK: - Completions

    /// `EngineLoop.complete`: the call's completion runs on the callback queue; a landing's
    /// completions are counted, so the next switch waits until each of them returned.
    private func complete(_ call: CallID, _ outcome: CallOutcome, landing: (result: SwitchResult, callbacks: SimulatedLandingCallbacks)?) {
        guard let completion = completions.removeValue(forKey: call) else { return }
        let switchResult: SwitchResult = switch outcome {
        case .discarded(.shutdown): interruptedSwitchCalls.contains(call) ? .interruptedByShutdown : .notPerformed
        default: landing?.result ?? .switchedCleanly
        }
        linkDestinations[call] = nil
        landing?.callbacks.dispatched()
        enqueueCallback(CallbackWork(call: call, outcome: outcome, switchResult: switchResult, completion: completion, landing: landing?.callbacks))
    }

    private func enqueueCallback(_ work: CallbackWork) {
        let wasIdle = callbackQueueHead == callbackQueue.count
        callbackQueue.append(work)
        if wasIdle { world.schedule(.callbackRuns(launch: launch), after: world.draw(world.profile.callbackDelayMilliseconds)) }
    }

    /// Runs the callback queue's next item (with `FaultProfile.concurrentCallbacks`, any
    /// pending one, as a concurrent queue may); schedules the one after it.
    func runNextCallback() {
        guard callbackQueueHead < callbackQueue.count else { return }
        if world.profile.concurrentCallbacks && callbackQueue.count - callbackQueueHead > 1 {
            let pick = callbackQueueHead + Int(world.draw(0...Int64(callbackQueue.count - callbackQueueHead - 1)))
            callbackQueue.swapAt(callbackQueueHead, pick)
        }
        let work = callbackQueue[callbackQueueHead]
        callbackQueueHead += 1
        if callbackQueueHead == callbackQueue.count {
            callbackQueue.removeAll(keepingCapacity: true)
            callbackQueueHead = 0
        } else {
            world.schedule(.callbackRuns(launch: launch), after: world.draw(world.profile.callbackDelayMilliseconds))
        }
        run(work)
    }

    /// Runs every completion still on the callback queue (the app's queue outlives the SDK's
    /// stop); reactions are not made: the SDK they would call is shut down.
    func runRemainingCallbacks() {
        while callbackQueueHead < callbackQueue.count {
            let work = callbackQueue[callbackQueueHead]
            callbackQueueHead += 1
            run(work)
        }
        callbackQueue.removeAll()
        callbackQueueHead = 0
    }

    private func run(_ work: CallbackWork) {
        world.completionRan(work.call, outcome: work.outcome, switchResult: work.completion.isSwitch ? work.switchResult : nil)
        if let reaction = work.completion.reaction, !stopped {
            world.makeReaction(reaction, fromSwitch: work.call, landed: work.landing != nil)
        }
        work.landing?.finished()
    }

    // MARK: - Modules

    /// `EngineLoop.runHook`.
    private func runHook(_ hook: UInt64, module name: String, event: ModuleEvent) {
        guard state.live?.fingerprint ?? state.switching.inFlight?.from?.fingerprint != nil else {
            post(.input(.moduleHookCompleted(ModuleHookCompletion(hook: hook)), .none))
            return
        }
        moduleRunner.submit(.hook(hook, event, generation: state.generation), to: name)
    }
}

extension ProviderAsk {
    var project: ProjectFingerprint {
        switch self {
        case .send(let request, _): request.project
        case .refresh(let project, _, _): project
        }
    }
}
