import SDK

// The three kinds that make most of a journal's records (received calls, the gate's decisions,
// events joining a bulk), written straight from the fact rather than walked field by field:
// the same members as their declarations give (`FactJSONDeclarationTests` compares the two
// over every kind's random facts).
extension FactJSON {
    /// Writes `fact`'s members if it is of one of the busiest kinds; false otherwise.
    @inline(__always)
    static func writeBusiest<Sink: JSONMemberSink & ~Copyable>(_ fact: Fact, into sink: inout Sink) -> Bool {
        if case .callReceived(let received) = fact {
            write(received, into: &sink)
            return true
        }
        if case .gateDecided(let call, let decision) = fact {
            sink.add("call", call: call)
            sink.addObject("decision") { write(decision, into: &$0) }
            return true
        }
        if case .eventBatched(let task, let event, let executedOn) = fact {
            sink.add("task", task: task)
            sink.add("call", call: event.call)
            if !event.body.isEmpty { sink.add("body", body: event.body) }
            if let project = executedOn { sink.addObject("decision") { write(GateDecision.executed(project: project), into: &$0) } }
            return true
        }
        return false
    }

    /// ``write(_:into:)-(Fact,_)`` as the fact's declaration lays it out, the busiest kinds too.
    static func writeDeclared<Sink: JSONMemberSink & ~Copyable>(_ fact: Fact, into sink: inout Sink) {
        guard let declaration = fact.declaration else { return write(fact, into: &sink) }
        var values: [FactFieldValue] = []
        fact.forEachField { _, value in values.append(value) }
        for index in declaration.jsonOrder { write(values[index], of: declaration.fields[index], into: &sink) }
    }
}
