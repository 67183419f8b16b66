/// The checks a story must pass; each failure names one.
package enum SimulationCheck: String, Sendable, CaseIterable {
    /// The switch contract's invariants, as `replay check` verifies them.
    case contract
    /// The live state equals a fresh fold of the journal (at every input, at each crash, at the end).
    case projection
    /// `replay recheck`: today's `decide` reproduces every recorded decision.
    case recheck
    /// What the backend received agrees with the journal's audit.
    case backend
    /// Every completion runs exactly once; after the calm end of a story nothing is left pending.
    case settle
    /// The journal survives crashes: durable records are kept, the restart reads it.
    case journal
    /// What must happen does: once the network stays up and consent is given, every task ends
    /// within its bound (``StoryAudit/calmDeliveryBound`` for a user a token can be had for),
    /// nothing waits forever, and the state keeps its bounds.
    case liveness
    /// Nothing leaves for an erased user once the erasure settled, nor while consent is declined.
    case privacy
}
