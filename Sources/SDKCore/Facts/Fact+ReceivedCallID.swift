extension Fact {
    /// The id of the call a `callReceived` brings; nil for every other fact.
    package var receivedCallID: CallID? {
        switch self {
        case .callReceived(let received): received.id
        default:
            // Right for every other fact: only a `callReceived` brings a call (the others name
            // calls already received).
            nil
        }
    }
}
