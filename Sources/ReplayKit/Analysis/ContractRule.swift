/// The switch contract's invariants `replay check` verifies, each with its findings.
package enum ContractRule: String, CaseIterable, Sendable {
    case fifoReplay = "fifo-replay"
    case deliveryTarget = "delivery-target"
    case chainSettles = "chain-settles"
    case resolvedOnce = "resolved-once"
    case disableKept = "disable-kept"
    case attributionAfterClear = "attribution-after-clear"
    case moduleOrder = "module-order"
    case snapshotAgrees = "snapshot-agrees"

    /// What the rule demands, in one line.
    package var summary: String {
        switch self {
        case .fifoReplay:
            "calls queued behind a switch are replayed in the order they were queued"
        case .deliveryTarget:
            "a gated call goes to the live project, or, made during a switch, to the project of the first switch that lands after it"
        case .chainSettles:
            "each switch lands where it was headed, and once none is pending the SDK is on the last requested project"
        case .resolvedOnce:
            "every call resolves at most once, and at the end is resolved or still legitimately pending"
        case .disableKept:
            "queued disableDevice tasks are never purged (discarded)"
        case .attributionAfterClear:
            "no attribution is written for a project after its project-scoped storage was cleared, until it is live again"
        case .moduleOrder:
            "per module and generation: initialize before start, start once, deinitialize at most once, nothing after it"
        case .snapshotAgrees:
            "each segment's snapshot equals the fold of the facts before it"
        }
    }
}
