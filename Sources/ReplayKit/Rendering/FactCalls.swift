import SDK

/// The calls a fact is about, for `timeline --call`: each call its fields name (a call, calls, a
/// received call, a batched event's, a task's, a flush's durability wait, an erasure's), and, for
/// a fact that names a task, a timer, a durability confirmation or a link resolution, the calls
/// the state before it gives that task or wait. Read through the declared fields
/// (``Fact/forEachField(_:)``), one case per kind of value: a new fact names its calls without an
/// edit here; a new kind of value asks what calls it names.
package enum FactCalls {
    /// Hands `body` each call `fact` is about (a call may come twice), `state` the state before it.
    package static func forEach(in fact: Fact, state: SDKState, _ body: (CallID) -> Void) {
        fact.forEachField { _, value in
            switch value {
            case .call(let call): body(call)
            case .calls(let calls): calls.forEach(body)
            case .receivedCall(let received): body(received.id)
            case .batchedEvent(let event): body(event.call)
            case .deliveryTask(let task): task.calls.forEach(body)
            case .task(let id): state.tasks[id]?.task.calls.forEach(body)
            case .transportCompletion(let completion): state.tasks[completion.task]?.task.calls.forEach(body)
            case .timer(let timer):
                if case .retry(let id, _) = timer { state.tasks[id]?.task.calls.forEach(body) }
            case .durabilityWait(let wait):
                if case .flush(let call) = wait { body(call) }
            case .durabilityConfirmation(let confirmation):
                if case .flush(let call)? = state.durabilityWaits[confirmation.request] { body(call) }
            case .linkResolution(let resolution):
                if let job = state.linkJobs[resolution.job] { body(job.call) }
            case .gateDecision(let decision):
                if case .queued(_, _, let received) = decision { body(received.id) }
            case .erasure(let erasure):
                if let call = erasure.call { body(call) }
            // Values that name no call.
            case .number, .attempt, .microseconds, .time, .text, .texts, .switchID, .fingerprint, .executedOn, .project,
                 .callOutcome, .taskOutcome, .publicCall, .retryReason, .routing, .teardownStep, .stepOutcome, .landing,
                 .moduleSignal, .attribution, .messageKind, .storageScope, .backgroundTaskEnd, .engineStart,
                 .hookCompletion, .authReceipt, .journalGap:
                break
            }
        }
    }

    /// Whether `fact` is about a call `selected` accepts.
    package static func mentions(by fact: Fact, in state: SDKState, where selected: (CallID) -> Bool) -> Bool {
        var found = false
        forEach(in: fact, state: state) { call in found = found || selected(call) }
        return found
    }
}
