import Journal

extension SDKState {
    /// Runs an identity call (``CallFamily/identity``; part of ``execute(_:on:_:)``).
    mutating func executeIdentityCall(_ received: ReceivedCall, on project: ProjectRef, _ decisions: inout Decisions) {
        let id = received.id
        let identity = requestIdentity
        switch received.call {
        case .setEmail(let newEmail):
            if newEmail != email || userID != nil {
                emit(.identityChanged(email: newEmail, userID: nil), &decisions)
                if newEmail != nil { userBecameKnown(on: project, &decisions) }
            }
            resolve(id, .applied(project: project.fingerprint), &decisions)
        case .setUserId(let newUserID):
            if newUserID != userID || email != nil {
                emit(.identityChanged(email: nil, userID: newUserID), &decisions)
                if newUserID != nil { userBecameKnown(on: project, &decisions) }
            }
            resolve(id, .applied(project: project.fingerprint), &decisions)
        case .updateEmail(let newEmail):
            guard identity.isKnown else {
                resolve(id, .failed(.rejected("no user identity: call setEmail or setUserId first")), &decisions)
                return
            }
            enqueue(received.call, call: id, on: project, identity: identity, &decisions)
            // The SDK follows the new email at once (the platform applies it on delivery).
            emit(.identityChanged(email: newEmail, userID: nil), &decisions)
        case .updateUser:
            guard identity.isKnown else {
                resolve(id, .failed(.rejected("no user identity: call setEmail or setUserId first")), &decisions)
                return
            }
            enqueue(received.call, call: id, on: project, identity: identity, &decisions)
        case .logoutUser:
            logout(on: project, &decisions)
            resolve(id, .applied(project: project.fingerprint), &decisions)
        default:
            // A default is right: execute(_:on:_:) sends only this family's calls here, and
            // CallName.family, which lists every call, gives a new call its family (and this function).
            break
        }
    }

    /// The user became known: register the push token for them and send the held events.
    private mutating func userBecameKnown(on project: ProjectRef, _ decisions: inout Decisions) {
        let identity = requestIdentity
        if let pushToken {
            enqueue(.registerToken(pushToken), call: nil, on: project, identity: identity, &decisions)
        }
        let held = heldEvents
        if !held.isEmpty {
            emit(.unknownUserEventsReleased(project: project.fingerprint), &decisions)
            for event in held {
                // Linked to the call that made it (already resolved as applied), for the audit.
                // Its room was reserved while it was held.
                enqueue(event.event, call: event.call, on: project, identity: identity, roomReserved: true, &decisions)
            }
        }
    }

    /// Logout: disable the device for the user, purge queued requests but disableDevice ones,
    /// forget the user. Modules hear `willLogout` (awaited with a bound, journaled).
    private mutating func logout(on project: ProjectRef, _ decisions: inout Decisions) {
        for module in moduleDescriptors { startHook(module.name, .willLogout, &decisions) }
        let identity = requestIdentity
        if pushToken != nil && identity.isKnown {
            enqueue(.disableDevice, call: nil, on: project, identity: identity, &decisions)
        }
        purgeQueue(keepingDisables: true, reason: .purgedByLogout, projects: nil, &decisions)
        emit(.identityChanged(email: nil, userID: nil), &decisions)
    }
}
