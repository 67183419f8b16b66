import Foundation
import Journal

extension EngineLoop {
    /// Starts what the just-journaled facts ask for. Nothing here waits: results come back as
    /// inputs through the mailbox.
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
            case .moduleEventDelivered(let module, let event, let project, let generation):
                deliver(event, to: module, context: ModuleContext(project: project, generation: generation))
            case .moduleHookStarted(let hook, let module, let event):
                runHook(hook, module: module, event: event)
            default:
                break
            }
        }
        if let landing { confirmCallbacksRan(landing.id) }
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
            finishEffect(with: .transportCompleted(TransportCompletion(task: id, attempt: attempt, outcome: Self.outcome(of: result))))
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
            let unauthenticated = request
            provider.requestToken { result in
                var request = unauthenticated
                if case .success(let token) = result {
                    request.headers.append((name: "Authorization", value: "Bearer \(token)"))
                    // Kept for the next request; the engine thread owns the cache.
                    mailbox.post(.cacheToken(project, token))
                }
                transport.send(request, completion: finish)
            }
        } else {
            transport.send(request, completion: finish)
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

    /// What decisions need from a response: status, the API's `code`, fetched message ids.
    static func outcome(of result: TransportResult) -> TransportOutcome {
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
            return .response(status: status, code: json?["code"] as? String, messageIDs: ids)
        }
    }

    private func requestToken(for project: ProjectFingerprint, request: UInt64) {
        tokens[project] = nil
        activity.begin()
        guard let provider = authProviders[project] else {
            finishEffect(with: .authTokenReceived(AuthTokenReceipt(request: request, project: project, failure: "no auth provider for the project")))
            return
        }
        provider.requestToken { [self] result in
            switch result {
            case .success(let token):
                finishEffect(with: .authTokenReceived(AuthTokenReceipt(request: request, project: project, failure: nil)), .token(token))
            case .failure(let error):
                finishEffect(with: .authTokenReceived(AuthTokenReceipt(request: request, project: project, failure: "\(error)")))
            }
        }
    }

    // MARK: - Durability

    private func requestDurability(_ request: UInt64) {
        activity.begin()
        recorder.flush { [self] result in
            let failure: String? = switch result {
            case .success: nil
            case .failure(let error): error.description
            }
            finishEffect(with: .durabilityConfirmed(DurabilityConfirmation(request: request, failure: failure)))
        }
    }

    // MARK: - Completions

    private func complete(_ call: CallID, _ outcome: CallOutcome, switchResult: SwitchResult) {
        guard let completion = completions.removeValue(forKey: call) else { return }
        activity.begin()
        configuration.callbackQueue.async { [self] in
            switch completion {
            case .outcome(let body): body(outcome)
            case .switchResult(let body): body(switchResult)
            }
            // The engine looks again only when this was the last effect (settle waits for that).
            if activity.end() { mailbox.post(.wake) }
        }
    }

    /// After a switch's completions have run on the callback queue, the next switch may start.
    private func confirmCallbacksRan(_ id: SwitchID) {
        activity.begin()
        configuration.callbackQueue.async { [self] in
            finishEffect(with: .callbacksDelivered(id))
        }
    }

    // MARK: - Modules

    private func deliver(_ event: ModuleEvent, to name: String, context: ModuleContext) {
        guard let module = modules[name] else { return }
        do {
            try module.process(event: event, context: context)
        } catch {
            moduleFailures[name] = "\(error)"
        }
    }

    private func runHook(_ hook: UInt64, module name: String, event: ModuleEvent) {
        guard let module = modules[name], let project = state.live?.fingerprint ?? state.switching.inFlight?.from?.fingerprint else {
            mailbox.post(.input(.moduleHookCompleted(ModuleHookCompletion(hook: hook)), .none))
            return
        }
        let context = ModuleContext(project: project, generation: state.generation)
        if event.isAwaited {
            activity.begin()
            Task { [self] in
                var failure: String?
                do {
                    try await module.processAwaited(event: event, context: context)
                } catch {
                    failure = "\(error)"
                }
                finishEffect(with: .moduleHookCompleted(ModuleHookCompletion(hook: hook, failure: failure)))
            }
            return
        }
        var failure: String?
        if event == .start {
            failure = moduleFailures.removeValue(forKey: name)
        } else {
            do {
                try module.process(event: event, context: context)
            } catch {
                failure = "\(error)"
            }
        }
        mailbox.post(.input(.moduleHookCompleted(ModuleHookCompletion(hook: hook, failure: failure)), .none))
    }
}
