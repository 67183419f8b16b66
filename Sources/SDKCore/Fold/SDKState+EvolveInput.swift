import Journal

extension SDKState {
    /// What folding `engineStarted(start)` at `time` changes (part of ``evolve(_:at:)``): the
    /// process's options and modules; what the previous process left on the wire goes again.
    mutating func foldEngineStarted(_ start: EngineStart, at time: JournalTime) {
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
    }

    /// What folding `callReceived(received)` at `time` changes (part of ``evolve(_:at:)``).
    mutating func foldCallReceived(_ received: ReceivedCall, at time: JournalTime) {
        receiveCall(received, at: time)
        // Kept for the input's later facts: an eventBatched that carries no body is this
        // track's (decide has the call at hand, and builds the body itself).
        if case .track(let event, let dataFields) = received.call {
            input.track = (received.id, event, dataFields)
        } else {
            input.track = nil
        }
    }

    /// What folding `callReceived(received)` at `time` changes in the state's value (also
    /// applied by `decide`, from the call it bound): the call is pending.
    mutating func receiveCall(_ received: ReceivedCall, at time: JournalTime) {
        pendingCalls[received.id] = PendingCall(
            name: received.call.name, madeAt: time, caller: received.caller, projectAtCall: live?.fingerprint)
        if case .control(.setConsent(let granted)) = received.call { consentDeclined = !granted }
    }
}
