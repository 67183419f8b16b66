import Journal

extension SDKState {
    /// Runs an event or commerce call (``CallFamily/event``; part of ``execute(_:on:_:)``): held
    /// for an unknown user until they are identified.
    mutating func executeEventCall(_ received: ReceivedCall, on project: ProjectRef, _ decisions: inout Decisions) {
        let id = received.id
        let identity = RequestBody.Identity(email: email, userID: userID)
        switch received.call {
        case .track, .trackPurchase, .updateCart:
            guard identity.isKnown else {
                holdForUnknownUser(received, on: project, &decisions)
                return
            }
            enqueue(received.call, call: id, on: project, identity: identity, &decisions)
        default:
            break
        }
    }

    /// An event made with no identity: held in the project's storage until the user is known.
    private mutating func holdForUnknownUser(_ received: ReceivedCall, on project: ProjectRef, _ decisions: inout Decisions) {
        if heldEvents.count >= 100 {
            resolve(received.id, .discarded(.queueFull(capacity: 100)), &decisions)
            return
        }
        emit(.unknownUserEventHeld(project: project.fingerprint, call: received.id, event: received.call), &decisions)
        resolve(received.id, .applied(project: project.fingerprint), &decisions)
    }
}
