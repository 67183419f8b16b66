import SDK

/// `attribution-after-clear`: no attribution is written for a project after its project-scoped
/// storage was cleared, until it is live again.
extension ContractChecker {
    /// A project goes live, has its storage cleared, or has attribution written.
    func checkAttribution(_ fact: Fact, at sequence: UInt64) {
        switch fact {
        case .initialized(let project, _):
            lastLive = (project.fingerprint, sequence)
            cleared[project.fingerprint] = nil
        case .storageCleared(let project, .projectScoped):
            cleared[project] = .some(sequence)
        case .attributionChanged(let project, _):
            if let clearedAt = cleared[project] {
                report(.attributionAfterClear, "attribution written for \(labels.name(project)) after its project-scoped storage was cleared"
                       + (clearedAt.map { " (seq \($0))" } ?? " (before the journal's start)") + ", and it was not live again",
                       [clearedAt, sequence].compactMap { $0 })
            }
        default:
            // A default is right: other storage scopes, and facts the dispatch in
            // check(_:at:state:) (which lists every fact) never sends here.
            break
        }
    }
}
