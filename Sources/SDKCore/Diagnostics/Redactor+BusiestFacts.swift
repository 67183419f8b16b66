extension Redactor {
    /// The three kinds that make most of a journal's records (received calls, the gate's
    /// decisions, events joining a bulk) redacted straight from the fact rather than taken apart
    /// field by field: the same facts as their declarations give (`FactDeclarationTests`
    /// compares the two). Nil for every other kind.
    @inline(__always)
    func redactBusiest(_ fact: Fact) -> Fact? {
        if case .callReceived(let received) = fact { return .callReceived(redact(received)) }
        if case .gateDecided(let call, let decision) = fact {
            guard case .queued(let id, let position, let received) = decision else { return fact }
            return .gateDecided(call: call, decision: .queued(switch: id, position: position, call: redact(received)))
        }
        if case .eventBatched(let task, var event, let executedOn) = fact {
            guard !event.body.isEmpty else { return fact }
            event.body = redact(body: event.body)
            return .eventBatched(task: task, event: event, executedOn: executedOn)
        }
        return nil
    }

    /// ``redact(_:)-(Fact)`` as the fact's declaration says, the busiest kinds too.
    package func redactDeclared(_ fact: Fact) -> Fact {
        if case .unknown(let kind, _) = fact { return .unknown(kind: kind, payload: []) }
        return fact.mapFields { field, value in redact(value, of: field) }
    }
}
