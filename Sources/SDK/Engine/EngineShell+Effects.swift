import Foundation
import Journal
import SDKCore

extension EngineShell {
    /// Starts what the just-journaled facts ask for (``SDKState/effects(of:)``, derived purely
    /// from the facts and the state after them). Nothing here waits: results come back as
    /// events through the inbox.
    func runEffects(of facts: [Fact]) {
        // The context, not the state: a method or getter of `state` called here copies all of
        // it (it is a class's stored property), so the context is made of its stored parts.
        let context = EffectContext(live: projected.live?.fingerprint, leaving: projected.switching.inFlight?.from?.fingerprint,
                                    generation: projected.generation)
        SDKState.forEachEffect(of: facts, after: context) { perform($0) }
        environment.callbacksHandedOver()
    }

    /// Performs one effect through the environment. Consumed: a completion's outcome is moved
    /// into its delivery.
    private func perform(_ effect: consuming Effect) {
        switch consume effect {
        case .send(let id, let attempt):
            send(id, attempt: attempt)
        case .armTimer(let purpose, let due):
            schedule(purpose, at: due)
        case .refreshToken(let project, let request):
            requestToken(for: project, request: request)
        case .requestDurability(let request):
            requestDurability(request)
        case .deliverModuleSignal(let signal, let module, let project, let generation):
            moduleRunner.submit(.deliver(signal, ModuleContext(project: project, generation: generation)), to: module, core: self)
        case .runHook(let hook, let signal, let module, let project, let generation):
            moduleRunner.submit(.hook(hook, signal, ModuleContext(project: project, generation: generation)), to: module, core: self)
        case .completeHookAtOnce(let hook):
            inbox.post(.input(.moduleHookCompleted(ModuleHookCompletion(hook: hook)), .none))
        case .abandonHook(let hook):
            moduleRunner.hookAbandoned(hook, core: self)
        case .identityChanged(let user):
            owner.user = user
        case .instanceStarted(let generation):
            owner.instance = generation
            forgetTokens()
        case .resolveLink(let job, let url):
            resolveLink(job, url: url)
        case .beginLanding(let id):
            landings[id] = LandingCallbacks()
        case .complete(let call, let outcome, let landing, let linkDestination):
            complete(call, consume outcome, landing: landing, linkDestination: linkDestination)
        case .armLanding(let id):
            // The next switch may start once every completion of the landing has returned.
            if landings[id]?.arm() == true { landingCallbacksDone(id) }
        case .eraseLocalData(let call):
            eraseLocalData(call: call)
        }
    }

    func landingCallbackReturned(_ id: SwitchID) {
        if landings[id]?.finished() == true { landingCallbacksDone(id) }
    }

    private func landingCallbacksDone(_ id: SwitchID) {
        landings[id] = nil
        inbox.post(.input(.callbacksDelivered(id), .none))
    }

    // MARK: - Requests

    private func send(_ id: TaskID, attempt: Int) {
        guard let task = projected.tasks[id]?.task else { return }
        let inbox = inbox
        func notSent(_ reason: NotSentReason) {
            inbox.post(.input(.transportCompleted(TransportCompletion(task: id, attempt: attempt, outcome: .notSent(reason))), .none))
        }
        guard let key = apiKey(for: task.project) else { return notSent(.noAPIKey) }
        guard var request = DeliveryExchange.request(for: task, apiKey: key, sentAt: environment.readClock().wall, sdkVersion: sdkVersion,
                                                     stream: recorder.streamID) else {
            return notSent(.invalidEndpoint(FreeText.bounded(task.endpoint)))
        }
        // No request without the JWT it needs: a cached one for the task's user, else one asked
        // of the project's provider; without a provider the attempt is not made, and the core
        // sets the task aside until one is given.
        let jwt = JWTKey(project: task.project, user: task.user)
        var token: String?
        var provider: (any AuthProvider)?
        if projected.projects[task.project]?.usesJWT == true {
            token = tokens[jwt]
            if token == nil {
                guard let given = authProviders[task.project] else { return notSent(.noAuthProvider) }
                provider = given
            }
        }
        inbox.effectBegan()
        let usesJWT = token != nil || provider != nil
        let finish: @Sendable (TransportResult) -> Void = { result in
            let completion = DeliveryExchange.completion(of: result, task: task, attempt: attempt, apiKey: key)
            // A JWT the project refused is dropped from the cache with the answer that refused it.
            let refused = if usesJWT, case .response(401, "InvalidJwtPayload", _, _) = completion.outcome { true } else { false }
            inbox.finish(.input(.transportCompleted(completion), refused ? .refusedToken(jwt) : .none))
        }
        // The request acts for the user its task was made for, whoever is signed in now.
        let owner = EffectOwner(user: task.user, instance: self.owner.instance)
        guard let provider else {
            if let token { request.headers.append((name: "Authorization", value: "Bearer \(token)")) }
            environment.send(request, for: owner, completion: finish)
            return
        }
        let epoch = tokenEpoch
        let unauthenticated = request
        askProvider(provider, for: jwt, owner: owner) { result in
            switch result {
            case .success(let token):
                var request = unauthenticated
                request.headers.append((name: "Authorization", value: "Bearer \(token)"))
                // Sent from the engine's thread; the token is kept for the next request of
                // the same user, unless the instance changed meanwhile.
                inbox.post(.tokenIssued(jwt, token, epoch: epoch, task: id, request: request, owner: owner, completion: finish))
            case .failure(let problem):
                inbox.finish(.input(.transportCompleted(TransportCompletion(
                    task: id, attempt: attempt, outcome: .notSent(problem.refused ? .tokenRefused(problem.reason) : .noToken(problem.reason)))), .none))
            }
        }
    }

    /// The key for a project: from memory, else from the keyring (then kept).
    private func apiKey(for project: ProjectFingerprint) -> String? {
        if let key = keys[project] { return key }
        let stored = environment.storedKey(for: project)
        keys[project] = stored
        return stored
    }

    /// A JWT belongs to one user on one project instance: forget every cached token when an
    /// instance starts; answers to requests made before are not kept either. (A user's token
    /// outlives an identity change within the instance: the requests made for that user, a
    /// logout's disable among them, still go with it.)
    func forgetTokens() {
        tokens.removeAll()
        tokenEpoch &+= 1
    }

    /// Asks the app's auth provider for a token for `jwt`'s user, taking its first answer only
    /// and answering with a failure if none came within `EngineRules.authProviderBoundMilliseconds`.
    private func askProvider(_ provider: any AuthProvider, for jwt: JWTKey, owner: EffectOwner,
                             _ answer: @escaping @Sendable (Result<String, ProviderProblem>) -> Void) {
        let bound = projected.rules.authProviderBoundMilliseconds
        let once = OneShotCompletion(answer)
        let due = now().advanced(byMilliseconds: bound)
        // Asked first: a provider that answers at once is never beaten by its bound.
        environment.requestToken(for: jwt.project, from: provider, owner: owner) { result in
            once.deliver(result.mapError { error in
                ProviderProblem(reason: FreeText.bounded("\(error)"), refused: error as? AuthProviderError == .userSignedOut)
            })
        }
        schedule(at: due) {
            once.deliver(.failure(ProviderProblem(reason: "the auth provider did not answer within \(bound) ms")))
        }
    }

    /// A refresh after a 401: a fresh token for the user of the request that got it (the one
    /// now waiting for a token).
    private func requestToken(for project: ProjectFingerprint, request: UInt64) {
        let user = projected.tokenWaiter(of: project).flatMap { projected.tasks[$0]?.task.user }
        let jwt = JWTKey(project: project, user: user)
        tokens[jwt] = nil
        let inbox = inbox
        guard let provider = authProviders[project] else {
            inbox.post(.input(.authTokenReceived(AuthTokenReceipt(request: request, project: project, failure: "no auth provider for the project")), .none))
            return
        }
        let epoch = tokenEpoch
        inbox.effectBegan()
        askProvider(provider, for: jwt, owner: EffectOwner(user: user, instance: self.owner.instance)) { result in
            switch result {
            case .success(let token):
                inbox.finish(.input(.authTokenReceived(AuthTokenReceipt(request: request, project: project, failure: nil)),
                                    .token(token, user: user, epoch: epoch)))
            case .failure(let problem):
                inbox.finish(.input(.authTokenReceived(AuthTokenReceipt(request: request, project: project, failure: problem.reason,
                                                                        refused: problem.refused)), .none))
            }
        }
    }

    // MARK: - Links

    /// Asks a tracked link for its redirect, without following it: its `Location` is the
    /// destination, its cookies the campaign, template and message it was sent for.
    private func resolveLink(_ job: UInt64, url: String) {
        let inbox = inbox
        guard let address = URL(string: url) else {
            inbox.post(.input(.linkResolved(LinkResolution(job: job, destination: nil, attribution: nil, failure: "the URL does not parse")), .none))
            return
        }
        let request = TransportRequest(method: .get, url: address, headers: [("SDK-Platform", "Swift")], body: nil, followsRedirects: false)
        inbox.effectBegan()
        environment.send(request, for: owner) { result in
            inbox.finish(.input(.linkResolved(DeliveryExchange.linkResolution(job, result)), .none))
        }
    }

    // MARK: - Durability

    private func requestDurability(_ request: UInt64) {
        let inbox = inbox
        if let outage = journalOutage {
            inbox.post(.input(.durabilityConfirmed(DurabilityConfirmation(request: request, failure: outage.description)), .none))
            return
        }
        inbox.effectBegan()
        recorder.flush { result in
            let failure: String? = switch result {
            case .success: nil
            case .failure(let error): error.description
            }
            inbox.finish(.input(.durabilityConfirmed(DurabilityConfirmation(request: request, failure: failure)), .none))
        }
    }

    // MARK: - Completions

    /// Runs a call's completion on the callback queue. A landing's completions are counted, so
    /// the next switch waits until each of them returned.
    private func complete(_ call: CallID, _ outcome: consuming CallOutcome, landing: Effect.Landing?, linkDestination: String?) {
        guard let completion = takeCompletion(for: call) else { return }
        let switchResult: SwitchResult = switch outcome {
        case .discarded(.shutdown): interruptedSwitchCalls.contains(call) ? .interruptedByShutdown : .notPerformed
        case .delivered, .applied: landing?.result ?? .switchedCleanly
        // A switch rejected (its project's rules out of range) or dropped (an erasure emptied
        // the gate holding it) never ran.
        case .failed, .discarded: landing?.result ?? .notPerformed
        }
        let inbox = inbox
        guard let landingID = landing?.id else {
            // Held as a value, without a closure of its own (the busiest case: every call).
            environment.runCompletion(CompletionDelivery(completion: consume completion, outcome: consume outcome, switchResult: switchResult,
                                                         linkDestination: linkDestination), inbox: inbox)
            return
        }
        let delivery = CompletionDelivery(completion: consume completion, outcome: consume outcome, switchResult: switchResult,
                                          linkDestination: linkDestination)
        landings[landingID]?.dispatched()
        inbox.effectBegan()
        environment.runCallback(landing: landingID) {
            delivery.run()
            inbox.post(.landingCallbackReturned(landingID))
            inbox.effectEnded()
        }
    }
}

/// Why the auth provider gave no token.
struct ProviderProblem: Error {
    var reason: String
    /// Whether the provider said none can ever be had for the user (``AuthProviderError/userSignedOut``).
    var refused = false
}
