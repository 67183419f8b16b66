extension Fact {
    /// Calls `body` with each call this fact resolves and its outcome, in order: one for
    /// `callResolved`, every listed call for `callsResolved`, none for any other fact. What a
    /// reader that follows calls to their end looks at, whichever of the two records a journal
    /// holds.
    package func forEachResolution(_ body: (CallID, CallOutcome) throws -> Void) rethrows {
        // Read from the fact's own values, not a list of kinds: a fact declared without a call
        // outcome needs nothing here (`FactDeclarationTests` holds this to the declarations).
        if case .callResolved(let call, let outcome) = self {
            try body(call, outcome)
        } else if case .callsResolved(_, let calls, let outcome) = self {
            for call in calls { try body(call, outcome) }
        }
    }

    /// ``forEachResolution(_:)``'s calls and outcomes, collected.
    package var resolutions: [(call: CallID, outcome: CallOutcome)] {
        var resolutions: [(call: CallID, outcome: CallOutcome)] = []
        forEachResolution { resolutions.append(($0, $1)) }
        return resolutions
    }
}
