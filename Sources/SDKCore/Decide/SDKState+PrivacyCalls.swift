import Journal

extension SDKState {
    /// `setConsent`: declining drops every queued request but disables (kept, and sent once the
    /// user agrees again); no request leaves while declined. The identity and the events held
    /// for an unknown user stay on the device (``PublicCall/eraseLocalData`` removes them).
    /// Agreeing again sends what waits. The choice itself was folded as the call was received
    /// (``receiveCall(_:at:)``).
    mutating func changeConsent(granted: Bool, _ received: ReceivedCall, _ decisions: inout InputDecisions) {
        if granted {
            for project in taskOrder.keys.sorted() { dispatchIfIdle(project, &decisions) }
        } else {
            purgeQueue(keepingDisables: true, reason: .consentDeclined, projects: nil, &decisions)
        }
        resolve(received.id, .applied(project: live?.fingerprint), &decisions)
    }

    /// `eraseLocalData`: every request (disables too) and every call a switch holds is dropped,
    /// and the device forgets its user. A request on the wire goes at once too: its calls
    /// resolve `discarded(erased)` (only a request the server already answered counts as
    /// delivered), its task leaves the state, so no snapshot from here holds it, and whatever
    /// its answer says, it is never sent again. The call stays pending until the journal is
    /// erased (an effect of the call's fact) and ``Fact/localDataErased(_:)`` comes back.
    mutating func eraseLocalData(_ decisions: inout InputDecisions) {
        purgeQueue(keepingDisables: false, reason: .erased, projects: nil, onTheWire: true, &decisions)
        // Calls a switch holds carry their arguments into every snapshot: they go too, as at a
        // shutdown.
        releaseGate(as: .erased, &decisions)
        // A landed switch that was still replaying its held calls is done with them: the
        // switches queued behind it go on.
        startNextSwitchIfReady(&decisions)
        if let live {
            emit(.storageCleared(project: live.fingerprint, scope: .personalData), &decisions)
        } else {
            if email != nil || userID != nil { emit(.identityChanged(email: nil, userID: nil), &decisions) }
            if pushToken != nil { emit(.pushTokenChanged(nil), &decisions) }
        }
    }

    /// The journal was erased (or could not be): the `eraseLocalData` call resolves.
    mutating func handleLocalDataErased(_ erasure: LocalDataErasure, _ decisions: inout InputDecisions) {
        let outcome: CallOutcome = if let failure = erasure.erased.failure {
            .failed(.rejected("the journal could not be erased: \(failure)"))
        } else {
            .applied(project: live?.fingerprint)
        }
        resolve(erasure.call, outcome, &decisions)
    }
}
