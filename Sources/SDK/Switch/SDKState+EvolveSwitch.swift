import Journal

extension SDKState {
    /// Applies a switch fact (part of ``evolve(_:at:)``).
    mutating func evolveSwitch(_ fact: Fact, at time: JournalTime) {
        switch fact {
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
            if case .noisy(let reason) = outcome { switching.inFlight?.warnings.append(reason) }
            switching.inFlight?.step = nil
            switching.inFlight?.stepProblems = []
        case .switchLanded(let id, _, _, _):
            switching.inFlight = nil
            switching.awaitingCallbacks = id
            switching.replaying = switching.gate.isEmpty ? nil : id
        case .switchCancelled(let id, _):
            switching.queue.removeAll { $0.id == id }
        default:
            break
        }
    }
}
