import Journal

extension SDKState {
    /// What folding `initialized(project, generation)` changes (part of ``evolve(_:at:)``): the
    /// instance calls run on.
    mutating func foldInitialized(_ project: ProjectRef, generation: UInt64) {
        live = project
        instanceRunning = true
        projects[project.fingerprint] = project
        self.generation = generation
        // A fresh refresh budget per instance, but a refresh already asked for stays
        // awaited: its task (another project's, made during a switch) waits on its answer.
        auth = auth.compactMapValues { $0.refreshing.map { AuthState(refreshesUsed: 0, refreshing: $0) } }
        clearedProjects.remove(project.fingerprint)
    }

    /// What folding `callResolved` changes, for the pending call at `index` (looked up once by
    /// ``resolve(_:_:_:)``, which decides the fact, and by ``evolve(_:at:)``, which folds it).
    mutating func removePendingCall(at index: CallTable<PendingCall>.Index) {
        pendingCalls.remove(at: index)
    }
}
