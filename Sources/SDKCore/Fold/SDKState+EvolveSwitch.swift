import Journal

extension SDKState {
    /// Applies a switch fact (``FactFamily/switch``; part of ``evolve(_:at:)``): what the gate
    /// did with a call, routing, teardown steps, landing.
    mutating func evolveSwitch(_ fact: Fact, at time: JournalTime) {
        switch fact {
        case .gateDecided(let call, let decision):
            switch decision {
            case .queued(_, _, let received):
                let bytes = FactCodec.gateBytes(of: received)
                switching.gate.append(GatedCall(call: received, madeAt: time, bytes: bytes))
                switching.gateBytes += bytes
            case .replayed:
                if let index = switching.gate.firstIndex(where: { $0.call.id == call }) {
                    switching.gateBytes -= switching.gate[index].bytes
                    switching.gate.remove(at: index)
                }
                if switching.gate.isEmpty { switching.releasingHeldCalls = nil }
            case .refused:
                // A refused call was never held (a full gate refuses thousands in a burst: no
                // scan of the gate for them), except when the SDK lets the gate go at shutdown,
                // which it does from the front.
                if let head = switching.gate.first, head.call.id == call {
                    switching.gateBytes -= head.bytes
                    switching.gate.removeFirst()
                    if switching.gate.isEmpty { switching.releasingHeldCalls = nil }
                }
            // A call run at once was never held.
            case .executed, .inline:
                break
            }
        case .switchRouted(let id, let call, let project, let routing):
            switching.nextSwitchNumber = max(switching.nextSwitchNumber, id.number &+ 1)
            // A request for another configuration of a known key must not change how that key's
            // tasks are sent before the switch lands: `initialized` records the new one.
            if projects[project.fingerprint] == nil { projects[project.fingerprint] = project }
            switch routing {
            case .started, .enqueued, .initialization:
                switching.queue.append(SwitchRequest(id: id, project: project, calls: [call]))
            case .moved(let entry):
                if let index = switching.queue.firstIndex(where: { $0.id == entry }) {
                    var moved = switching.queue.remove(at: index)
                    moved.project = project
                    moved.calls.append(call)
                    switching.queue.append(moved)
                }
            case .absorbed(let target):
                if switching.inFlight?.id == target {
                    switching.inFlight?.calls.append(call)
                } else if let index = switching.queue.firstIndex(where: { $0.id == target }) {
                    switching.queue[index].calls.append(call)
                }
            case .noop:
                break
            }
        case .switchStarted(let id, let from, let to):
            let request = switching.queue.first { $0.id == id }
            switching.queue.removeAll { $0.id == id }
            switching.inFlight = SwitchRun(
                id: id, from: from.flatMap { projects[$0] }, to: to, calls: request?.calls ?? [],
                startedAt: time, step: nil, stepStartedAt: time, firstTaskOfWindow: nextTaskNumber)
        case .teardownStepBegan(_, let step):
            switching.inFlight?.step = step
            switching.inFlight?.stepStartedAt = time
            switching.inFlight?.stepProblems = []
        case .teardownStepFinished(let id, let step, let outcome, _):
            timers[.teardownBound(id, step)] = nil
            if case .warning(let reason) = outcome { switching.inFlight?.warnings.append(reason) }
            switching.inFlight?.step = nil
            switching.inFlight?.stepProblems = []
        case .switchLanded(let id, _, _, _):
            switching.inFlight = nil
            switching.awaitingCallbacks = id
            switching.releasingHeldCalls = switching.gate.isEmpty ? nil : id
        case .switchCancelled(let id, _):
            switching.queue.removeAll { $0.id == id }
        default:
            // A default is right: evolve(_:at:) sends only this family's facts here, and
            // Each kind's declaration gives it its family (and so this function).
            break
        }
    }
}
