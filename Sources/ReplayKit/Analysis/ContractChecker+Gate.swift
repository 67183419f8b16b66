import SDK

/// The gate's rules: `fifo-replay` (held calls replay in the order they were queued) and
/// `delivery-target` (a gated call goes where it belongs).
extension ContractChecker {
    /// A call is received: a gated call belongs to the live project, or, made while a switch
    /// is in flight, to the next landing.
    func callReceived(_ call: CallID, gated: Bool, switching: Bool, live: ProjectFingerprint?, at sequence: UInt64) {
        received[call] = sequence
        guard gated else { return }
        if switching {
            targets[call] = (.nextLanding, sequence)
        } else if let live {
            targets[call] = (.project(live, because: lastLive?.sequence ?? sequence), sequence)
        }
    }

    /// The gate decides a call's way: queued in order, replayed in order, run where it belongs.
    func gateDecided(_ call: CallID, _ decision: GateDecision, at sequence: UInt64) {
        switch decision {
        case .queued(_, let position, _):
            if position != gateQueue.count {
                report(.fifoReplay, "call \(call) was queued at position \(position) while the gate held \(gateQueue.count) call(s)", [sequence])
            }
            gateQueue.append((call, sequence))
        case .replayed(_, let project):
            if let head = gateQueue.first, head.call != call {
                let queuedAt = gateQueue.first { $0.call == call }?.sequence
                report(.fifoReplay, "call \(call) was replayed before call \(head.call), which was queued earlier",
                       [head.sequence, queuedAt, sequence].compactMap { $0 })
            } else if gateQueue.isEmpty {
                report(.fifoReplay, "call \(call) was replayed but was never queued", [sequence])
            }
            gateQueue.removeAll { $0.call == call }
            expect(call, deliveredTo: project, at: sequence, what: "replayed")
        case .executed(let project):
            expect(call, deliveredTo: project, at: sequence, what: "executed")
        case .refused:
            // Only the SDK's shutdown refuses a call it held, from the front of the gate: it
            // leaves it. (A full gate refuses calls it never held: nothing to scan for.)
            if gateQueue.first?.call == call { gateQueue.removeFirst() }
            targets[call] = nil
        case .inline:
            break
        }
    }

    /// Reports a gated call that went to a project other than the one it belonged to (`what`
    /// it went through, made only then).
    func expect(_ call: CallID, deliveredTo project: ProjectFingerprint, at sequence: UInt64, what: @autoclosure () -> String) {
        guard let entry = targets[call] else { return }
        switch entry.target {
        case .project(let expected, let because) where expected != project:
            report(.deliveryTarget, "gated call \(call) \(what()) on \(labels.name(project)), but it belonged to \(labels.name(expected))",
                   [entry.received, because, sequence].filter { $0 != 0 })
        case .nextLanding:
            report(.deliveryTarget, "gated call \(call), made during a switch, \(what()) on \(labels.name(project)) before any switch landed",
                   [entry.received, sequence].filter { $0 != 0 })
        case .project:
            // Went where it belonged.
            break
        }
    }
}
