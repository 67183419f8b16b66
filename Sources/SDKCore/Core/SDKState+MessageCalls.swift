import Journal

extension SDKState {
    /// Runs an in-app or embedded message call (``CallFamily/message``; part of
    /// ``execute(_:on:_:)``): each is a request to the project.
    mutating func executeMessageCall(_ received: ReceivedCall, on project: ProjectRef, _ decisions: inout Decisions) {
        let id = received.id
        let identity = RequestBody.Identity(email: email, userID: userID)
        switch received.call {
        case .inAppFetch, .inAppOpen, .inAppClick, .inAppClose, .inAppDelivery, .inAppConsume,
             .embeddedFetch, .embeddedReceived, .embeddedClick:
            enqueue(received.call, call: id, on: project, identity: identity, &decisions)
        default:
            // A default is right: execute(_:on:_:) sends only this family's calls here, and
            // CallName.family, which lists every call, gives a new call its family (and this function).
            break
        }
    }
}
