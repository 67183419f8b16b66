import Journal

extension SDKState {
    /// A public call arrived: validate it, let the gate decide, run it or hold it.
    mutating func handleCall(_ received: ReceivedCall, _ log: inout Decisions) {
        if let problem = CallValidation.problem(in: received.call) {
            emit(.callRejected(call: received.id, reason: problem), &log)
            resolve(received.id, .failed(.rejected(problem)), &log)
            return
        }
        switch received.call.name.switchBehavior {
        case .control:
            handleControlCall(received, &log)
        case .gated:
            guard let live, instanceRunning || switching.inFlight != nil else {
                refuseUninitialized(received, &log)
                return
            }
            if let owner = switching.gateOwner {
                let bytes = FactCodec.payload(of: .callReceived(received)).count
                if switching.gate.count >= rules.gateCapacity || switching.gateBytes + bytes > rules.gateByteCapacity {
                    emit(.gateDecided(call: received.id, decision: .refused), &log)
                    resolve(received.id, .discarded(.gateFull(capacity: rules.gateCapacity)), &log)
                } else {
                    emit(.gateDecided(call: received.id, decision: .queued(switch: owner, position: switching.gate.count, call: received)), &log)
                }
            } else {
                emit(.gateDecided(call: received.id, decision: .executed(project: live.fingerprint)), &log)
                execute(received, on: live, &log)
            }
        case .inline:
            guard let live else {
                refuseUninitialized(received, &log)
                return
            }
            let decision: GateDecision = switching.inFlight == nil ? .executed(project: live.fingerprint) : .inline(project: live.fingerprint)
            emit(.gateDecided(call: received.id, decision: decision), &log)
            execute(received, on: live, &log)
        }
    }

    private mutating func refuseUninitialized(_ received: ReceivedCall, _ log: inout Decisions) {
        emit(.gateDecided(call: received.id, decision: .refused), &log)
        resolve(received.id, .failed(.notInitialized), &log)
    }

    /// Runs a call against `project` (the live project, or the one a switch just landed on).
    mutating func execute(_ received: ReceivedCall, on project: ProjectRef, _ log: inout Decisions) {
        let id = received.id
        let identity = RequestBody.Identity(email: email, userID: userID)
        switch received.call {
        case .setEmail(let newEmail):
            if newEmail != email || userID != nil {
                emit(.identityChanged(email: newEmail, userID: nil), &log)
                if newEmail != nil { userBecameKnown(on: project, &log) }
            }
            resolve(id, .applied(project: project.fingerprint), &log)
        case .setUserId(let newUserID):
            if newUserID != userID || email != nil {
                emit(.identityChanged(email: nil, userID: newUserID), &log)
                if newUserID != nil { userBecameKnown(on: project, &log) }
            }
            resolve(id, .applied(project: project.fingerprint), &log)
        case .updateEmail(let newEmail):
            guard identity.isKnown else {
                resolve(id, .failed(.rejected("no user identity: call setEmail or setUserId first")), &log)
                return
            }
            enqueue(received.call, call: id, on: project, identity: identity, &log)
            // The SDK follows the new email at once (the platform applies it on delivery).
            emit(.identityChanged(email: newEmail, userID: nil), &log)
        case .updateUser:
            guard identity.isKnown else {
                resolve(id, .failed(.rejected("no user identity: call setEmail or setUserId first")), &log)
                return
            }
            enqueue(received.call, call: id, on: project, identity: identity, &log)
        case .track, .trackPurchase, .updateCart:
            guard identity.isKnown else {
                holdForUnknownUser(received, on: project, &log)
                return
            }
            enqueue(received.call, call: id, on: project, identity: identity, &log)
        case .registerToken(let token):
            if token != pushToken { emit(.pushTokenChanged(token), &log) }
            if identity.isKnown {
                enqueue(received.call, call: id, on: project, identity: identity, &log)
            } else {
                // Registered with the user once they are known.
                resolve(id, .applied(project: project.fingerprint), &log)
            }
        case .disableDevice:
            guard pushToken != nil else {
                resolve(id, .failed(.rejected("no push token registered")), &log)
                return
            }
            enqueue(received.call, call: id, on: project, identity: identity, &log)
        case .logoutUser:
            logout(on: project, &log)
            resolve(id, .applied(project: project.fingerprint), &log)
        case .trackPushOpen(let open):
            enqueue(received.call, call: id, on: project, identity: identity, &log)
            if let campaign = open.campaignID, let template = open.templateID {
                writeAttribution(AttributionInfo(campaignID: campaign, templateID: template, messageID: open.messageID), for: project.fingerprint, &log)
            }
        case .handlePush(let payload):
            guard case .object(let itbl)? = payload["itbl"], case .string(let messageID)? = itbl["messageId"] else {
                resolve(id, .applied(project: project.fingerprint), &log)
                return
            }
            let campaign = Self.integer(itbl["campaignId"])
            let template = Self.integer(itbl["templateId"])
            let open = PushOpen(campaignID: campaign, templateID: template, messageID: messageID, appAlreadyRunning: false)
            enqueue(.trackPushOpen(open), call: id, on: project, identity: identity, &log)
            if let campaign, let template {
                writeAttribution(AttributionInfo(campaignID: campaign, templateID: template, messageID: messageID), for: project.fingerprint, &log)
            }
        case .setAttribution(let info):
            if writeAttribution(info, for: project.fingerprint, &log) {
                resolve(id, .applied(project: project.fingerprint), &log)
            } else {
                resolve(id, .failed(.rejected("attribution refused: the project's storage was cleared by a switch")), &log)
            }
        case .inAppFetch, .inAppOpen, .inAppClick, .inAppClose, .inAppDelivery, .inAppConsume,
             .embeddedFetch, .embeddedReceived, .embeddedClick:
            enqueue(received.call, call: id, on: project, identity: identity, &log)
        case .handleUniversalLink(let url):
            guard Self.isTrackedLink(url) else {
                // Not a tracked link: the app opens it as it is.
                resolve(id, .applied(project: project.fingerprint), &log)
                return
            }
            emit(.linkResolutionStarted(job: takeRequestNumber(), call: id, url: url, project: project.fingerprint, generation: generation), &log)
        case .initialize, .switchProject, .flush:
            handleControlCall(received, &log)
        }
    }

    /// Whether `url` is a tracked link (`https://<links host>/a/<code>`): its redirect carries
    /// the destination and the campaign, template and message it was sent for.
    static func isTrackedLink(_ url: String) -> Bool {
        (url.hasPrefix("https://") || url.hasPrefix("http://")) && url.split(separator: "/", omittingEmptySubsequences: false).dropFirst(3).first == "a"
    }

    /// A tracked link's resolution came back (`job`, looked up before the input was applied).
    /// Refused when the instance that asked is gone; otherwise its attribution is written (and
    /// refused, as any write, when the project's storage was cleared).
    mutating func handleLinkResolution(_ resolution: LinkResolution, job: LinkJob?, _ log: inout Decisions) {
        guard let job else { return }
        guard job.generation == generation, live?.fingerprint == job.project else {
            emit(.staleResultRefused(job: resolution.job, what: "resolution of link \(job.url)", startedIn: job.generation, current: generation), &log)
            resolve(job.call, .failed(.rejected("the link resolved after the instance that asked for it was replaced (generation \(job.generation), now \(generation)); its attribution was not applied")), &log)
            return
        }
        if let failure = resolution.failure {
            resolve(job.call, .failed(.retriesExhausted("the link could not be resolved: \(failure)")), &log)
        } else if let attribution = resolution.attribution, !writeAttribution(attribution, for: job.project, &log) {
            resolve(job.call, .failed(.rejected("attribution refused: the project's storage was cleared by a switch")), &log)
        } else {
            resolve(job.call, .applied(project: job.project), &log)
        }
    }

    private static func integer(_ value: DataValue?) -> Int64? {
        switch value {
        case .integer(let number): number
        case .number(let number) where number == number.rounded() && abs(number) < 9e15: Int64(number)
        case .string(let text): Int64(text)
        default: nil
        }
    }

    /// Writes attribution for `project`; refused (and journaled so) when that project's storage
    /// was already cleared by a switch, or it is no longer the project the SDK is on. The write
    /// and the clear are ordered by the mailbox: there is no check-then-act.
    @discardableResult
    mutating func writeAttribution(_ info: AttributionInfo?, for project: ProjectFingerprint, _ log: inout Decisions) -> Bool {
        if clearedProjects.contains(project) || live?.fingerprint != project {
            emit(.attributionRefused(project: project, reason: "the project's storage was cleared by a switch"), &log)
            return false
        }
        emit(.attributionChanged(project: project, info: info), &log)
        return true
    }

    /// An event made with no identity: held in the project's storage until the user is known.
    private mutating func holdForUnknownUser(_ received: ReceivedCall, on project: ProjectRef, _ log: inout Decisions) {
        if heldEvents.count >= 100 {
            resolve(received.id, .discarded(.queueFull(capacity: 100)), &log)
            return
        }
        emit(.unknownUserEventHeld(project: project.fingerprint, call: received.id, event: received.call), &log)
        resolve(received.id, .applied(project: project.fingerprint), &log)
    }

    /// The user became known: register the push token for them and send the held events.
    private mutating func userBecameKnown(on project: ProjectRef, _ log: inout Decisions) {
        let identity = RequestBody.Identity(email: email, userID: userID)
        if let pushToken {
            enqueue(.registerToken(pushToken), call: nil, on: project, identity: identity, &log)
        }
        let held = heldEvents
        if !held.isEmpty {
            emit(.unknownUserEventsReleased(project: project.fingerprint), &log)
            for event in held {
                // Linked to the call that made it (already resolved as applied), for the audit.
                enqueue(event.event, call: event.call, on: project, identity: identity, &log)
            }
        }
    }

    /// Logout: disable the device for the user, purge queued requests but disableDevice ones,
    /// forget the user. Modules hear `willLogout` (awaited with a bound, journaled).
    private mutating func logout(on project: ProjectRef, _ log: inout Decisions) {
        for module in moduleDescriptors { startHook(module.name, .willLogout, &log) }
        let identity = RequestBody.Identity(email: email, userID: userID)
        if pushToken != nil && identity.isKnown {
            enqueue(.disableDevice, call: nil, on: project, identity: identity, &log)
        }
        purgeQueue(keepingDisables: true, reason: .purgedByLogout, projects: nil, &log)
        emit(.identityChanged(email: nil, userID: nil), &log)
    }
}
