extension Redactor {
    /// The three kinds that make most of a journal's records (received calls, the gate's
    /// decisions, events joining a bulk) redacted straight from the fact rather than taken apart
    /// field by field: the same facts as their declarations give (`FactDeclarationTests`
    /// compares the two). Nil for every other kind.
    @inline(__always)
    func redactBusiest(_ fact: Fact) -> Fact? {
        if case .callReceived(let received) = fact { return .callReceived(redact(received)) }
        if case .gateDecided(let call, let decision) = fact {
            guard let redacted = redact(decision) else { return fact }
            return .gateDecided(call: call, decision: redacted)
        }
        if case .eventBatched(let task, let event, let executedOn) = fact {
            guard let redacted = redact(event) else { return fact }
            return .eventBatched(task: task, event: redacted, executedOn: executedOn)
        }
        return nil
    }
}
