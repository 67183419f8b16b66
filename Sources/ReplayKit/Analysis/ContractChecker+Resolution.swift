import SDK

/// `resolved-once`: every call resolves at most once, and at the end is resolved or still
/// legitimately pending.
extension ContractChecker {
    /// The calls of a bulk resolve with one outcome: each must have been pending.
    /// `pending[i]`: whether `calls[i]` was pending in the state before the record.
    func checkResolutions(of calls: [CallID], _ outcome: CallOutcome, at sequence: UInt64, pending: [Bool]) {
        // The state is the one before the record: a call listed twice was pending only once.
        var seen = Set<CallID>(minimumCapacity: calls.count)
        for (call, wasPending) in zip(calls, pending) {
            let first = seen.insert(call).inserted
            checkResolution(of: call, outcome, at: sequence, wasPending: first && wasPending)
        }
    }

    /// A call resolves: it must have been pending (`wasPending`, in the state before the record).
    func checkResolution(of call: CallID, _ outcome: CallOutcome, at sequence: UInt64, wasPending: Bool) {
        if !wasPending {
            let first = resolvedAt[call] ?? resolvedBefore[call]
            report(.resolvedOnce, first.map { "call \(call) was resolved again (first at seq \($0))" }
                   ?? "call \(call) was resolved but was not pending (resolved before, or never received)",
                   [first, sequence].compactMap { $0 })
        }
        switch outcome {
        case .delivered(let project, _), .applied(let project?):
            expect(call, deliveredTo: project, at: sequence, what: "resolved")
        case .applied(nil), .failed, .discarded:
            // Took effect on no project: nothing to check its target against.
            break
        }
        targets[call] = nil
        received[call] = nil
        remember(call, resolvedAt: sequence)
    }

    /// At the end: every call still pending is held by something that will resolve it.
    func finishResolutions(state: SDKState) {
        for (call, pending) in state.pendingCalls.sorted(by: { ($0.value.madeAt, $0.key) < ($1.value.madeAt, $1.key) }) {
            guard !Self.isLegitimatelyPending(call, in: state) else { continue }
            report(.resolvedOnce, "call \(call) (\(pending.name.rawValue), made \(pending.madeAt)) never resolved, and nothing the SDK still holds would resolve it",
                   received[call].map { [$0] } ?? [])
        }
    }

    /// Remembers where `call` resolved, to name it in a second resolution: the last
    /// ``rememberedResolutions`` at least. They are remembered in generations of that many, the
    /// one before the current kept whole and then dropped whole (forgetting the oldest one at a
    /// time cost a delete from a table of that size at every resolution).
    func remember(_ call: CallID, resolvedAt sequence: UInt64) {
        resolvedAt[call] = sequence
        if resolvedAt.count >= Self.rememberedResolutions {
            resolvedBefore = resolvedAt
            resolvedAt = Dictionary(minimumCapacity: Self.rememberedResolutions)
        }
    }

    /// Whether something the SDK still holds will resolve `call`: a queued task, the gate, a
    /// switch, a durability wait.
    static func isLegitimatelyPending(_ call: CallID, in state: SDKState) -> Bool {
        if state.tasks.values.contains(where: { $0.task.call == call || $0.task.batchCalls.contains(call) }) { return true }
        if state.switching.gate.contains(where: { $0.call.id == call }) { return true }
        if state.switching.inFlight?.calls.contains(call) == true { return true }
        if state.switching.queue.contains(where: { $0.calls.contains(call) }) { return true }
        if state.durabilityWaits.values.contains(.flush(call)) { return true }
        return false
    }
}
