import Foundation
import Journal
import Locking

extension EngineLoop {
    /// Starts what the just-journaled facts ask for. Nothing here waits: results come back as
    /// inputs through the mailbox.
    func runEffects(of facts: [Fact]) {
        var landing: (id: SwitchID, result: SwitchResult, callbacks: LandingCallbacks)?
        // A link resolution is an input that resolves at most one call, its own, in the same batch.
        var linkDestination: String?
        for fact in facts {
            switch fact {
            case .taskDispatched(let id, let attempt):
                send(id, attempt: attempt)
            case .timerSet(let purpose, let due):
                schedule(purpose, at: due)
            case .callResolved(let call, let outcome):
                complete(call, outcome, landing: landing.map { ($0.result, $0.callbacks) }, linkDestination: linkDestination)
            case .switchLanded(let id, _, let result, _):
                activity.begin()
                let callbacks = LandingCallbacks { [self] in finishEffect(with: .callbacksDelivered(id)) }
                landing = (id, result, callbacks)
            case .durabilityRequested(let request, _):
                requestDurability(request)
            case .authRefreshRequested(let project, let request):
                requestToken(for: project, request: request)
            case .moduleEventDelivered(let module, let event, let project, let generation):
                moduleRunner.submit(.deliver(event, ModuleContext(project: project, generation: generation)), to: module)
            case .moduleHookStarted(let hook, let module, let event):
                runHook(hook, module: module, event: event)
            case .moduleHookFinished(let hook, _):
                // Finished in the journal; a hook still running overran its bound: stop it.
                moduleRunner.hookAbandoned(hook)
            case .identityChanged, .storageCleared(_, .identity), .initialized:
                forgetTokens()
            case .linkResolutionStarted(let job, _, let url, _, _):
                resolveLink(job, url: url)
            case .linkResolved(let resolution):
                linkDestination = resolution.destination
            default:
                break
            }
        }
        // The next switch may start once every completion of the landing has returned.
        landing?.callbacks.arm()
    }

    // MARK: - Requests

    private func send(_ id: TaskID, attempt: Int) {
        guard let task = state.tasks[id]?.task else { return }
        activity.begin()
        guard let key = keys[task.project] ?? keyring.entry(for: task.project)?.apiKey else {
            finishEffect(with: .transportCompleted(TransportCompletion(
                task: id, attempt: attempt, outcome: .networkError("no API key for project \(task.project) in the keyring"))))
            return
        }
        guard var request = Self.request(for: task, apiKey: key, sentAt: configuration.clock.now(), sdkVersion: configuration.sdkVersion,
                                         idempotencyKey: task.idempotencyKey(stream: recorder.streamID)) else {
            finishEffect(with: .transportCompleted(TransportCompletion(
                task: id, attempt: attempt, outcome: .networkError("invalid endpoint \(task.endpoint)"))))
            return
        }
        let transport = configuration.transport
        let finish: @Sendable (TransportResult) -> Void = { [self] result in
            finishEffect(with: .transportCompleted(TransportCompletion(task: id, attempt: attempt, outcome: Self.outcome(of: result, apiKey: key))))
        }
        guard state.projects[task.project]?.usesJWT == true else {
            transport.send(request, completion: finish)
            return
        }
        if let token = tokens[task.project] {
            request.headers.append((name: "Authorization", value: "Bearer \(token)"))
            transport.send(request, completion: finish)
        } else if let provider = authProviders[task.project] {
            let mailbox = mailbox
            let project = task.project
            let epoch = tokenEpoch
            let unauthenticated = request
            askProvider(provider) { result in
                switch result {
                case .success(let token):
                    var request = unauthenticated
                    request.headers.append((name: "Authorization", value: "Bearer \(token)"))
                    // Kept for the next request, unless the user or the instance changed meanwhile.
                    mailbox.post(.cacheToken(project, token, epoch: epoch))
                    transport.send(request, completion: finish)
                case .failure(let problem):
                    // No request without the JWT it needs: the attempt fails and is retried.
                    finish(.networkError("no JWT: \(problem.reason)"))
                }
            }
        } else {
            transport.send(request, completion: finish)
        }
    }

    /// A JWT belongs to one user on one project instance: forget every cached token when the
    /// identity changes, at logout and when an instance starts; answers to requests made before
    /// are not kept either.
    private func forgetTokens() {
        tokens.removeAll()
        tokenEpoch &+= 1
    }

    /// Asks the app's auth provider for a token, taking its first answer only and answering
    /// with a failure if none came within ``EngineRules/authProviderBoundMilliseconds``.
    private func askProvider(_ provider: any AuthProvider, _ answer: @escaping @Sendable (Result<String, ProviderProblem>) -> Void) {
        let bound = state.rules.authProviderBoundMilliseconds
        let once = OneShotCompletion(answer)
        let due = configuration.clock.now().advanced(byMilliseconds: bound)
        // Asked first: a provider that answers at once is never beaten by its bound.
        provider.requestToken { result in
            once.deliver(result.mapError { ProviderProblem(reason: "\($0)") })
        }
        configuration.clock.schedule(at: due) {
            once.deliver(.failure(ProviderProblem(reason: "the auth provider did not answer within \(bound) ms")))
        }
    }

    /// The HTTP request for a task: its endpoint and path, the key, the platform's headers.
    static func request(for task: DeliveryTask, apiKey: String, sentAt: JournalTime, sdkVersion: String,
                        idempotencyKey: String) -> TransportRequest? {
        var address = task.endpoint
        if !address.hasSuffix("/") { address += "/" }
        address += task.path
        if let query = task.query, !query.isEmpty { address += "?" + query }
        guard let url = URL(string: address) else { return nil }
        var headers: [(name: String, value: String)] = [
            ("Api-Key", apiKey),
            ("SDK-Version", sdkVersion),
            ("SDK-Platform", "Swift"),
            ("Sent-At", String(sentAt.microsecondsSince1970 / 1_000_000)),
            ("Idempotency-Key", idempotencyKey),
        ]
        if task.method == .post { headers.append(("Content-Type", "application/json")) }
        return TransportRequest(method: task.method == .get ? .get : .post, url: url, headers: headers,
                                body: task.method == .post ? Data(task.body) : nil)
    }

    /// What decisions need from a response: status, the API's `code` and (for a failure) its
    /// `msg`, with the request's API key masked should the server quote it, fetched message ids.
    static func outcome(of result: TransportResult, apiKey: String) -> TransportOutcome {
        switch result {
        case .networkError(let reason):
            return .networkError(reason)
        case .response(let status, _, let body):
            let json = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
            var ids: [String] = []
            if let messages = json?["inAppMessages"] as? [[String: Any]] {
                ids = messages.compactMap { $0["messageId"] as? String }
            } else if let placements = json?["placements"] as? [[String: Any]] {
                for placement in placements {
                    for message in placement["embeddedMessages"] as? [[String: Any]] ?? [] {
                        if let id = (message["metadata"] as? [String: Any])?["messageId"] as? String { ids.append(id) }
                    }
                }
            }
            var message: String?
            if !(200..<300).contains(status), let said = json?["msg"] as? String, !said.isEmpty {
                message = String(said.replacingOccurrences(of: apiKey, with: "<api key>").prefix(Self.serverMessageLimit))
            }
            return .response(status: status, code: json?["code"] as? String, messageIDs: ids, message: message)
        }
    }

    /// The most characters of a server's error message the journal keeps.
    static let serverMessageLimit = 300

    private func requestToken(for project: ProjectFingerprint, request: UInt64) {
        tokens[project] = nil
        activity.begin()
        guard let provider = authProviders[project] else {
            finishEffect(with: .authTokenReceived(AuthTokenReceipt(request: request, project: project, failure: "no auth provider for the project")))
            return
        }
        let epoch = tokenEpoch
        askProvider(provider) { [self] result in
            switch result {
            case .success(let token):
                finishEffect(with: .authTokenReceived(AuthTokenReceipt(request: request, project: project, failure: nil)),
                             .token(token, epoch: epoch))
            case .failure(let problem):
                finishEffect(with: .authTokenReceived(AuthTokenReceipt(request: request, project: project, failure: problem.reason)))
            }
        }
    }

    // MARK: - Links

    /// Asks a tracked link for its redirect, without following it: its `Location` is the
    /// destination, its cookies the campaign, template and message it was sent for.
    private func resolveLink(_ job: UInt64, url: String) {
        activity.begin()
        guard let address = URL(string: url) else {
            finishEffect(with: .linkResolved(LinkResolution(job: job, destination: nil, attribution: nil, failure: "the URL does not parse")))
            return
        }
        let request = TransportRequest(method: .get, url: address, headers: [("SDK-Platform", "Swift")], body: nil, followsRedirects: false)
        configuration.transport.send(request) { [self] result in
            finishEffect(with: .linkResolved(Self.linkResolution(job, result)))
        }
    }

    /// What a tracked link's answer says: a redirect with its destination and attribution.
    static func linkResolution(_ job: UInt64, _ result: TransportResult) -> LinkResolution {
        switch result {
        case .networkError(let reason):
            return LinkResolution(job: job, destination: nil, attribution: nil, failure: reason)
        case .response(let status, let headers, _):
            guard (300..<400).contains(status), let location = headers["location"] else {
                return LinkResolution(job: job, destination: nil, attribution: nil, failure: "HTTP \(status) without a redirect")
            }
            let cookies = TrackedLinkCookies(headers["set-cookie"] ?? "")
            return LinkResolution(job: job, destination: location, attribution: cookies.attribution, failure: nil)
        }
    }

    // MARK: - Durability

    private func requestDurability(_ request: UInt64) {
        activity.begin()
        if let outage {
            finishEffect(with: .durabilityConfirmed(DurabilityConfirmation(request: request, failure: outage.description)))
            return
        }
        recorder.flush { [self] result in
            let failure: String? = switch result {
            case .success: nil
            case .failure(let error): error.description
            }
            finishEffect(with: .durabilityConfirmed(DurabilityConfirmation(request: request, failure: failure)))
        }
    }

    // MARK: - Completions

    /// Runs a call's completion on the callback queue. A landing's completions are counted, so
    /// the next switch waits until each of them returned.
    private func complete(_ call: CallID, _ outcome: CallOutcome, landing: (result: SwitchResult, callbacks: LandingCallbacks)?,
                          linkDestination: String?) {
        guard let completion = completions.removeValue(forKey: call) else { return }
        let switchResult: SwitchResult = switch outcome {
        case .discarded(.shutdown): interruptedSwitchCalls.contains(call) ? .interruptedByShutdown : .notPerformed
        default: landing?.result ?? .switchedCleanly
        }
        activity.begin()
        landing?.callbacks.dispatched()
        configuration.callbackQueue.async { [self] in
            switch completion {
            case .outcome(let body): body(outcome)
            case .switchResult(let body): body(switchResult)
            case .link(let body): body(UniversalLinkResult(outcome: outcome, destination: linkDestination))
            }
            landing?.callbacks.finished()
            // The engine looks again only when this was the last effect (settle waits for that).
            if activity.end() { mailbox.post(.wake) }
        }
    }

    // MARK: - Modules

    private func runHook(_ hook: UInt64, module name: String, event: ModuleEvent) {
        guard let project = state.live?.fingerprint ?? state.switching.inFlight?.from?.fingerprint else {
            mailbox.post(.input(.moduleHookCompleted(ModuleHookCompletion(hook: hook)), .none))
            return
        }
        moduleRunner.submit(.hook(hook, event, ModuleContext(project: project, generation: state.generation)), to: name)
    }
}

/// Why the auth provider gave no token.
struct ProviderProblem: Error {
    var reason: String
}
