extension Fact {
    /// The calls this fact resolves, each with its outcome, in order: one for `callResolved`,
    /// every listed call for `callsResolved`, none for any other fact. What a reader that
    /// follows calls to their end looks at, whichever of the two records a journal holds.
    package var resolutions: [(call: CallID, outcome: CallOutcome)] {
        switch self {
        case .callResolved(let call, let outcome): [(call, outcome)]
        case .callsResolved(_, let calls, let outcome): calls.map { ($0, outcome) }
        default: []
        }
    }
}
