import Journal

extension SDKState {
    /// Runs `registerToken(token)` (``CallFamily/push``; part of ``execute(_:on:_:)``): sent
    /// for a known user, else registered with the user once they are known.
    mutating func executeRegisterToken(_ token: String, _ received: ReceivedCall, on project: ProjectRef, _ decisions: inout InputDecisions) {
        let identity = requestIdentity
        if token != pushToken { emit(.pushTokenChanged(token), &decisions) }
        if identity.isKnown {
            enqueue(received.call, call: received.id, on: project, identity: identity, &decisions)
        } else {
            // Registered with the user once they are known.
            resolve(received.id, .applied(project: project.fingerprint), &decisions)
        }
    }

    /// Runs `disableDevice` (``CallFamily/push``; part of ``execute(_:on:_:)``): refused
    /// without a push token.
    mutating func executeDisableDevice(_ received: ReceivedCall, on project: ProjectRef, _ decisions: inout InputDecisions) {
        guard pushToken != nil else {
            resolve(received.id, .failed(.rejected("no push token registered")), &decisions)
            return
        }
        enqueue(received.call, call: received.id, on: project, identity: requestIdentity, &decisions)
    }

    /// Runs `trackPushOpen(open)` (``CallFamily/push``; part of ``execute(_:on:_:)``): the open
    /// is sent, and its campaign and template become the attribution.
    mutating func executeTrackPushOpen(_ open: PushOpen, _ received: ReceivedCall, on project: ProjectRef, _ decisions: inout InputDecisions) {
        enqueue(received.call, call: received.id, on: project, identity: requestIdentity, &decisions)
        if let campaign = open.campaignID, let template = open.templateID {
            writeAttribution(AttributionInfo(campaignID: campaign, templateID: template, messageID: open.messageID), for: project.fingerprint, &decisions)
        }
    }

    /// Runs `handlePush(payload)` (``CallFamily/push``; part of ``execute(_:on:_:)``): a push of
    /// the platform's (`itbl.messageId`) is tracked as opened; any other is applied as it is.
    mutating func executeHandlePush(_ payload: [String: DataValue], _ id: CallID, on project: ProjectRef, _ decisions: inout InputDecisions) {
        guard case .object(let itbl)? = payload["itbl"], case .string(let messageID)? = itbl["messageId"] else {
            resolve(id, .applied(project: project.fingerprint), &decisions)
            return
        }
        let campaign = Self.integer(itbl["campaignId"])
        let template = Self.integer(itbl["templateId"])
        let open = PushOpen(campaignID: campaign, templateID: template, messageID: messageID, appAlreadyRunning: false)
        enqueue(.trackPushOpen(open), call: id, on: project, identity: requestIdentity, &decisions)
        if let campaign, let template {
            writeAttribution(AttributionInfo(campaignID: campaign, templateID: template, messageID: messageID), for: project.fingerprint, &decisions)
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
