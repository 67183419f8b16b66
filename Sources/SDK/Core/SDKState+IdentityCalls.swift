import Journal

extension SDKState {
    /// Runs an identity call (``CallFamily/identity``; part of ``execute(_:on:_:)``).
    mutating func executeIdentityCall(_ received: ReceivedCall, on project: ProjectRef, _ log: inout Decisions) {
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
        case .logoutUser:
            logout(on: project, &log)
            resolve(id, .applied(project: project.fingerprint), &log)
        default:
            break
        }
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
