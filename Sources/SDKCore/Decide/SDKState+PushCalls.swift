import Journal

extension SDKState {
    /// Runs a push call (``CallFamily/push``; part of ``execute(_:on:_:)``).
    mutating func executePushCall(_ received: ReceivedCall, on project: ProjectRef, _ decisions: inout Decisions) {
        let id = received.id
        let identity = requestIdentity
        switch received.call {
        case .registerToken(let token):
            if token != pushToken { emit(.pushTokenChanged(token), &decisions) }
            if identity.isKnown {
                enqueue(received.call, call: id, on: project, identity: identity, &decisions)
            } else {
                // Registered with the user once they are known.
                resolve(id, .applied(project: project.fingerprint), &decisions)
            }
        case .disableDevice:
            guard pushToken != nil else {
                resolve(id, .failed(.rejected("no push token registered")), &decisions)
                return
            }
            enqueue(received.call, call: id, on: project, identity: identity, &decisions)
        case .trackPushOpen(let open):
            enqueue(received.call, call: id, on: project, identity: identity, &decisions)
            if let campaign = open.campaignID, let template = open.templateID {
                writeAttribution(AttributionInfo(campaignID: campaign, templateID: template, messageID: open.messageID), for: project.fingerprint, &decisions)
            }
        case .handlePush(let payload):
            guard case .object(let itbl)? = payload["itbl"], case .string(let messageID)? = itbl["messageId"] else {
                resolve(id, .applied(project: project.fingerprint), &decisions)
                return
            }
            let campaign = Self.integer(itbl["campaignId"])
            let template = Self.integer(itbl["templateId"])
            let open = PushOpen(campaignID: campaign, templateID: template, messageID: messageID, appAlreadyRunning: false)
            enqueue(.trackPushOpen(open), call: id, on: project, identity: identity, &decisions)
            if let campaign, let template {
                writeAttribution(AttributionInfo(campaignID: campaign, templateID: template, messageID: messageID), for: project.fingerprint, &decisions)
            }
        default:
            // A default is right: execute(_:on:_:) sends only this family's calls here, and
            // CallName.family, which lists every call, gives a new call its family (and this function).
            break
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
}
