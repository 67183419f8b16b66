import Journal

extension SDKState {
    /// A public call arrived: validate it, let the gate decide, run it or hold it.
    mutating func handleCall(_ received: ReceivedCall, _ log: inout Decisions) {
        if let problem = CallValidation.problem(in: received.call) {
            emit(.callRejected(call: received.id, reason: problem), &log)
            resolve(received.id, .failed(.rejected(problem)), &log)
            return
        }
        switch received.call.name.switchBehavior {
        case .control:
            handleControlCall(received, &log)
        case .gated:
            guard let live, instanceRunning || switching.inFlight != nil else {
                refuseUninitialized(received, &log)
                return
            }
            if let owner = switching.gateOwner {
                let bytes = FactCodec.payload(of: .callReceived(received)).count
                if switching.gate.count >= rules.gateCapacity || switching.gateBytes + bytes > rules.gateByteCapacity {
                    emit(.gateDecided(call: received.id, decision: .refused), &log)
                    resolve(received.id, .discarded(.gateFull(capacity: rules.gateCapacity)), &log)
                } else {
                    emit(.gateDecided(call: received.id, decision: .queued(switch: owner, position: switching.gate.count, call: received)), &log)
                }
            } else {
                emit(.gateDecided(call: received.id, decision: .executed(project: live.fingerprint)), &log)
                execute(received, on: live, &log)
            }
        case .inline:
            guard let live else {
                refuseUninitialized(received, &log)
                return
            }
            let decision: GateDecision = switching.inFlight == nil ? .executed(project: live.fingerprint) : .inline(project: live.fingerprint)
            emit(.gateDecided(call: received.id, decision: decision), &log)
            execute(received, on: live, &log)
        }
    }

    private mutating func refuseUninitialized(_ received: ReceivedCall, _ log: inout Decisions) {
        emit(.gateDecided(call: received.id, decision: .refused), &log)
        resolve(received.id, .failed(.notInitialized), &log)
    }

    /// Runs a call against `project` (the live project, or the one a switch just landed on):
    /// hands it to its family's `execute<Family>Call` (``CallFamily``).
    mutating func execute(_ received: ReceivedCall, on project: ProjectRef, _ log: inout Decisions) {
        switch received.call.name.family {
        case .identity: executeIdentityCall(received, on: project, &log)
        case .event: executeEventCall(received, on: project, &log)
        case .push: executePushCall(received, on: project, &log)
        case .message: executeMessageCall(received, on: project, &log)
        case .attribution: executeAttributionCall(received, on: project, &log)
        case .control: handleControlCall(received, &log)
        }
    }
}
