import Journal

extension SDKState {
    /// A public call arrived: rejected when its arguments have a `problem`
    /// (``CallValidation``), else the gate decides: run it or hold it.
    mutating func handleCall(_ received: ReceivedCall, problem: CallProblem?, _ decisions: inout InputDecisions) {
        if let problem {
            emit(.callRejected(call: received.id, reason: problem.reason), &decisions)
            resolve(received.id, .failed(.rejected(problem.reason)), &decisions)
            return
        }
        if case .control(let control) = received.call {
            handleControlCall(control, received, &decisions)
            return
        }
        switch received.call.name.switchBehavior {
        case .control:
            // Only a ``ControlCall``'s name is a control call's: handled above.
            break
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
                    decisions.deferGateDecision(executing: received.id, on: live.fingerprint)
                    execute(received, on: live, &decisions)
                    decisions.recordDeferredGateDecision()
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

    private mutating func refuseUninitialized(_ received: ReceivedCall, _ decisions: inout InputDecisions) {
        emit(.gateDecided(call: received.id, decision: .refused), &decisions)
        resolve(received.id, .failed(.notInitialized), &decisions)
    }

    /// Runs a call against `project` (the live project, or the one a switch just landed on).
    ///
    /// One exhaustive switch, no `default:`: a new call does not build until it says what it
    /// does. The cases are grouped by ``CallFamily``; each family's calls run in
    /// `SDKState+<Family>Calls.swift`.
    mutating func execute(_ received: ReceivedCall, on project: ProjectRef, _ decisions: inout InputDecisions) {
        let id = received.id
        switch received.call {
        // Identity (SDKState+IdentityCalls.swift)
        case .setEmail(let email): executeSetEmail(email, id, on: project, &decisions)
        case .setUserId(let userID): executeSetUserID(userID, id, on: project, &decisions)
        case .updateEmail(let email): executeUpdateEmail(email, received, on: project, &decisions)
        case .updateUser: executeUpdateUser(received, on: project, &decisions)
        case .logoutUser: executeLogout(id, on: project, &decisions)
        // Events and commerce (SDKState+EventCalls.swift)
        case .track, .trackPurchase, .updateCart: executeEventCall(received, on: project, &decisions)
        // Push (SDKState+PushCalls.swift)
        case .registerToken(let token): executeRegisterToken(token, received, on: project, &decisions)
        case .disableDevice: executeDisableDevice(received, on: project, &decisions)
        case .trackPushOpen(let open): executeTrackPushOpen(open, received, on: project, &decisions)
        case .handlePush(let payload): executeHandlePush(payload, id, on: project, &decisions)
        // Messages (SDKState+MessageCalls.swift)
        case .inAppFetch, .inAppOpen, .inAppClick, .inAppClose, .inAppDelivery, .inAppConsume,
             .embeddedFetch, .embeddedReceived, .embeddedClick:
            executeMessageCall(received, on: project, &decisions)
        // Attribution (SDKState+AttributionCalls.swift)
        case .setAttribution(let info): executeSetAttribution(info, id, on: project, &decisions)
        case .handleUniversalLink(let url): executeHandleUniversalLink(url, id, on: project, &decisions)
        // Control calls run at once in ``handleCall(_:problem:_:)``, never gated or replayed.
        case .control(let control): handleControlCall(control, received, &decisions)
        // Rejected before it runs (``handleCall(_:problem:_:)``): an over-limit call does nothing.
        case .oversized: break
        }
    }
}
