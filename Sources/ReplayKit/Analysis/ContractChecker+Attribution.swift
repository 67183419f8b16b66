import SDK

/// `attribution-after-clear`: no attribution is written for a project after its project-scoped
/// storage was cleared, until it is live again.
extension ContractChecker {
    /// A project goes live: attribution may be written for it again.
    func projectWentLive(_ project: ProjectFingerprint, at sequence: UInt64) {
        lastLive = (project, sequence)
        cleared[project] = nil
    }

    /// A project's storage is cleared: after a switch's clearing of its project-scoped storage,
    /// no attribution until it is live again.
    func storageCleared(_ project: ProjectFingerprint, _ scope: StorageScope, at sequence: UInt64) {
        switch scope {
        case .projectScoped:
            cleared[project] = .some(sequence)
        // Other scopes leave attribution writable (an erasure's later writes land).
        case .identity, .inAppMessages, .embeddedMessages, .personalData:
            break
        }
    }

    /// Attribution is written for `project`.
    func attributionWritten(for project: ProjectFingerprint, at sequence: UInt64) {
        if let clearedAt = cleared[project] {
            report(.attributionAfterClear, "attribution written for \(labels.name(project)) after its project-scoped storage was cleared"
                   + (clearedAt.map { " (seq \($0))" } ?? " (before the journal's start)") + ", and it was not live again",
                   [clearedAt, sequence].compactMap { $0 })
        }
    }
}
