import Journal

extension SDKState {
    /// A public call arrived: rejected when its arguments have a `problem`
    /// (``CallValidation``), else the gate decides: run it or hold it.
    mutating func handleCall(_ received: ReceivedCall, problem: CallProblem?, _ decisions: inout Decisions) {
        if let problem {
            emit(.callRejected(call: received.id, reason: problem.reason), &decisions)
            resolve(received.id, .failed(.rejected(problem.reason)), &decisions)
            return
        }
        switch received.call.name.switchBehavior {
        case .control:
            handleControlCall(received, &decisions)
        case .gated:
            guard let live, instanceRunning || switching.isSwitching else {
                refuseUninitialized(received, &decisions)
                return
            }
            if let owner = switching.gateOwner {
                let bytes = FactCodec.gateBytes(of: received)
                if switching.gate.count >= rules.gateCapacity || switching.gateBytes + bytes > rules.gateByteCapacity {
                    emit(.gateDecided(call: received.id, decision: .refused), &decisions)
                    resolve(received.id, .discarded(.gateFull(capacity: rules.gateCapacity)), &decisions)
                } else {
                    emit(.gateDecided(call: received.id, decision: .queued(switch: owner, position: switching.gate.count, call: received)), &decisions)
                }
            } else {
                let executed = Fact.gateDecided(call: received.id, decision: .executed(project: live.fingerprint))
                if case .track = received.call {
                    // Applied now, recorded with the call's next decision: in its eventBatched
                    // when its event joins a bulk (one record for both), else on its own first.
                    evolve(executed, at: decisions.time)
                    decisions.holdGateDecision(executing: received.id, on: live.fingerprint)
                    execute(received, on: live, &decisions)
                    decisions.recordHeldGateDecision()
                } else {
                    emit(executed, &decisions)
                    execute(received, on: live, &decisions)
                }
            }
        case .inline:
            guard let live else {
                refuseUninitialized(received, &decisions)
                return
            }
            let decision: GateDecision = switching.isSwitching ? .inline(project: live.fingerprint) : .executed(project: live.fingerprint)
            emit(.gateDecided(call: received.id, decision: decision), &decisions)
            execute(received, on: live, &decisions)
        }
    }

    private mutating func refuseUninitialized(_ received: ReceivedCall, _ decisions: inout Decisions) {
        emit(.gateDecided(call: received.id, decision: .refused), &decisions)
        resolve(received.id, .failed(.notInitialized), &decisions)
    }

    /// Runs a call against `project` (the live project, or the one a switch just landed on):
    /// hands it to its family's `execute<Family>Call` (``CallFamily``).
    mutating func execute(_ received: ReceivedCall, on project: ProjectRef, _ decisions: inout Decisions) {
        switch received.call.name.family {
        case .identity: executeIdentityCall(received, on: project, &decisions)
        case .event: executeEventCall(received, on: project, &decisions)
        case .push: executePushCall(received, on: project, &decisions)
        case .message: executeMessageCall(received, on: project, &decisions)
        case .attribution: executeAttributionCall(received, on: project, &decisions)
        case .control: handleControlCall(received, &decisions)
        }
    }
}
