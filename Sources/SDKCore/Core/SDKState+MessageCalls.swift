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
        // Other families' calls: execute(_:on:_:) hands a call to its own family's function only.
        case .initialize, .switchProject, .flush,
             .setEmail, .setUserId, .updateEmail, .updateUser, .logoutUser,
             .updateCart, .trackPurchase, .track,
             .registerToken, .disableDevice, .trackPushOpen, .handlePush,
             .setAttribution, .handleUniversalLink,
             .oversized:
            break
        }
    }
}
