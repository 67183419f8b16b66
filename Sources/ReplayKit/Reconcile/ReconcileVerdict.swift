/// How one call stands between a journal and what the projects received
/// (`replay reconcile`, docs/RECONCILE.md). Declared worst first: the order rows are listed in.
package enum ReconcileVerdict: String, Sendable, CaseIterable, Comparable {
    /// A project other than the one the journal names received it: misrouted.
    case elsewhere
    /// The journal says delivered; the project it names has no receipt of it.
    case lost
    /// The project took it more than once (receipts not marked as re-sends).
    case duplicate
    /// The journal says failed, discarded or pending; the project has it anyway (an answer lost
    /// on the way back).
    case unconfirmed
    /// The project received it after the journal's outcome for it.
    case late
    /// A project received a call of the journals' streams that no journal holds (a gapped,
    /// erased or tampered journal; a receipt in a named gap or erased range is not judged).
    case unjournaled
    /// The journal and the project tell the same story: delivered and received once by the
    /// project it names, or not delivered and not received.
    case agreed

    package static func < (lhs: ReconcileVerdict, rhs: ReconcileVerdict) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
