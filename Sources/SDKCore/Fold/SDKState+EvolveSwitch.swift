import Journal

extension SDKState {
    /// What folding `gateDecided(call, decision)` at `time` changes (part of
    /// ``evolve(_:at:)``): the calls the gate holds.
    mutating func foldGateDecision(_ decision: GateDecision, of call: CallID, at time: JournalTime) {
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
    }

    /// What folding `switchRouted` changes (part of ``evolve(_:at:)``): the queue of switches.
    mutating func foldSwitchRouted(_ id: SwitchID, call: CallID, project: ProjectRef, routing: SwitchRouting) {
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
    }

    /// What folding `switchStarted(id, from, to)` at `time` changes (part of
    /// ``evolve(_:at:)``): the switch leaves the queue and runs.
    mutating func foldSwitchStarted(_ id: SwitchID, from: ProjectFingerprint?, to: ProjectRef, at time: JournalTime) {
        let request = switching.queue.first { $0.id == id }
        switching.queue.removeAll { $0.id == id }
        switching.inFlight = SwitchRun(
            id: id, from: from.flatMap { projects[$0] }, to: to, calls: request?.calls ?? [],
            startedAt: time, step: nil, stepStartedAt: time, firstTaskOfWindow: nextTaskNumber)
    }
}
