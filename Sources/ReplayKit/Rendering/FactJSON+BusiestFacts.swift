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
            write(event, into: &sink)
            write(executedOn: executedOn, "decision", into: &sink)
            return true
        }
        return false
    }
}
