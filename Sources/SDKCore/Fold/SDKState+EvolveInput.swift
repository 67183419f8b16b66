import Journal

extension SDKState {
    /// Applies an input fact (``FactFamily/input``; part of ``evolve(_:at:)``): what the world
    /// told the SDK. Most inputs change the state only through the decisions they lead to.
    mutating func evolveInput(_ fact: Fact, at time: JournalTime) {
        switch fact {
        case .engineStarted(let start):
            rules = start.options
            moduleDescriptors = start.modules
            sdkVersion = start.sdkVersion
            clockAnchor = start.clock.map { ClockAnchor(monotonic: $0, time: time) }
            // Requests on the wire when the process ended never answered: they go again.
            for (id, queued) in tasks {
                if case .inFlight(let attempt) = queued.status { tasks[id]?.status = .retrying(nextAttempt: attempt &+ 1) }
            }
            for project in auth.keys { auth[project]?.refreshing = nil }
            // The completions of a switch that landed in the previous process died with it:
            // nothing will report them run, so the next switch must not wait for them.
            switching.awaitingCallbacks = nil
            instanceRunning = false
        case .callReceived(let received):
            receiveCall(received, at: time)
            // Kept for the input's later facts: an eventBatched that carries no body is this
            // track's (decide has the call at hand, and builds the body itself).
            if case .track(let event, let dataFields) = received.call {
                input.track = (received.id, event, dataFields)
            } else {
                input.track = nil
            }
        case .timerFired(let purpose):
            timers[purpose] = nil
        case .durabilityConfirmed(let confirmation):
            durabilityWaits[confirmation.request] = nil
        case .moduleHookCompleted:
            break
        case .callbacksDelivered(let id):
            if switching.awaitingCallbacks == id { switching.awaitingCallbacks = nil }
        case .transportCompleted, .authTokenReceived, .notificationReceived, .engineStopping, .networkReachable:
            break
        // Reports of the storage: nothing in the state follows from them.
        case .storageWasUnavailable, .keyringWriteFailed:
            break
        case .linkResolved(let resolution):
            linkJobs[resolution.job] = nil
        case .clockJumped(let wall, _):
            clockOffsetMicroseconds = wall.microsecondsSince1970 &- time.microsecondsSince1970
        default:
            // A default is right: evolve(_:at:) sends only this family's facts here, and
            // Each kind's declaration gives it its family (and so this function).
            break
        }
    }

    /// What folding `callReceived(received)` at `time` changes in the state's value (also
    /// applied by `decide`, from the call it bound): the call is pending.
    mutating func receiveCall(_ received: ReceivedCall, at time: JournalTime) {
        pendingCalls[received.id] = PendingCall(
            name: received.call.name, madeAt: time, caller: received.caller, projectAtCall: live?.fingerprint)
        if case .setConsent(let granted) = received.call { consentDeclined = !granted }
    }
}
