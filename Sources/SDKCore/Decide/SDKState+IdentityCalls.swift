import Journal

extension SDKState {
    /// Runs `setEmail(newEmail)` (``CallFamily/identity``; part of ``execute(_:on:_:)``).
    mutating func executeSetEmail(_ newEmail: String?, _ id: CallID, on project: ProjectRef, _ decisions: inout InputDecisions) {
        if newEmail != email || userID != nil {
            emit(.identityChanged(email: newEmail, userID: nil), &decisions)
            if newEmail != nil { userBecameKnown(on: project, &decisions) }
        }
        resolve(id, .applied(project: project.fingerprint), &decisions)
    }

    /// Runs `setUserId(newUserID)` (``CallFamily/identity``; part of ``execute(_:on:_:)``).
    mutating func executeSetUserID(_ newUserID: String?, _ id: CallID, on project: ProjectRef, _ decisions: inout InputDecisions) {
        if newUserID != userID || email != nil {
            emit(.identityChanged(email: nil, userID: newUserID), &decisions)
            if newUserID != nil { userBecameKnown(on: project, &decisions) }
        }
        resolve(id, .applied(project: project.fingerprint), &decisions)
    }

    /// Runs `updateEmail(newEmail)` (``CallFamily/identity``; part of ``execute(_:on:_:)``):
    /// refused without a user.
    mutating func executeUpdateEmail(_ newEmail: String, _ received: ReceivedCall, on project: ProjectRef, _ decisions: inout InputDecisions) {
        let identity = requestIdentity
        guard identity.isKnown else {
            resolve(received.id, .failed(.rejected("no user identity: call setEmail or setUserId first")), &decisions)
            return
        }
        enqueue(received.call, call: received.id, on: project, identity: identity, &decisions)
        // The SDK follows the new email at once (the platform applies it on delivery).
        emit(.identityChanged(email: newEmail, userID: nil), &decisions)
    }

    /// Runs `updateUser` (``CallFamily/identity``; part of ``execute(_:on:_:)``): refused
    /// without a user.
    mutating func executeUpdateUser(_ received: ReceivedCall, on project: ProjectRef, _ decisions: inout InputDecisions) {
        let identity = requestIdentity
        guard identity.isKnown else {
            resolve(received.id, .failed(.rejected("no user identity: call setEmail or setUserId first")), &decisions)
            return
        }
        enqueue(received.call, call: received.id, on: project, identity: identity, &decisions)
    }

    /// Runs `logoutUser` (``CallFamily/identity``; part of ``execute(_:on:_:)``).
    mutating func executeLogout(_ id: CallID, on project: ProjectRef, _ decisions: inout InputDecisions) {
        logout(on: project, &decisions)
        resolve(id, .applied(project: project.fingerprint), &decisions)
    }

    /// The user became known: register the push token for them and send the held events.
    private mutating func userBecameKnown(on project: ProjectRef, _ decisions: inout InputDecisions) {
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
    private mutating func logout(on project: ProjectRef, _ decisions: inout InputDecisions) {
        for module in moduleDescriptors { startHook(module.name, .willLogout, &decisions) }
        let identity = requestIdentity
        if pushToken != nil && identity.isKnown {
            enqueue(.disableDevice, call: nil, on: project, identity: identity, &decisions)
        }
        purgeQueue(keepingDisables: true, reason: .purgedByLogout, projects: nil, &decisions)
        emit(.identityChanged(email: nil, userID: nil), &decisions)
    }
}
