extension Fact {
    /// The gate's decision this fact records, and for which call: a `gateDecided`'s, or the
    /// `executed` one an `eventBatched` carries since format 1.3 (``eventBatched(task:event:executedOn:)``,
    /// whose call then has no `gateDecided` of its own). Nil for every other fact. What a reader
    /// of the gate's decisions looks at, whichever of the two records a journal holds.
    ///
    /// Read from the fact's own values, not a list of kinds: a fact declared without a gate
    /// decision needs nothing here (`FactDeclarationTests` holds this to the declarations).
    package var gateDecision: (call: CallID, decision: GateDecision)? {
        if case .gateDecided(let call, let decision) = self { return (call, decision) }
        if case .eventBatched(_, let event, let project?) = self { return (event.call, .executed(project: project)) }
        return nil
    }
}
