import SDK

/// `disable-kept`: queued disableDevice tasks are never purged. (One the full queue refused,
/// past the disables it reserves, was never queued: it is journaled as made and discarded at
/// once, `queueFull`.)
extension ContractChecker {
    /// Task `id` (to `path`, for `call` on `project`) is queued: its call must go where it belongs.
    func taskQueued(_ id: TaskID, path: String, call: CallID?, project: ProjectFingerprint, at sequence: UInt64) {
        tasks[id] = (path, sequence)
        if let call { expect(call, deliveredTo: project, at: sequence, what: "its task \(id) was queued") }
    }

    /// A task completes: a disable must not have been discarded.
    func taskCompleted(_ id: TaskID, _ outcome: TaskOutcome, at sequence: UInt64) {
        let task = tasks.removeValue(forKey: id)
        if case .discarded(let reason) = outcome, task?.path == "users/disableDevice", !Self.refusedByTheFullQueue(reason) {
            report(.disableKept, "disableDevice task \(id) was discarded (\(Describe.discard(reason)))",
                   [task?.queued, sequence].compactMap { $0 })
        }
    }

    /// Whether a disable was refused by the full queue (past `SDKState.disableReserve`), not purged.
    private static func refusedByTheFullQueue(_ reason: DiscardReason) -> Bool {
        if case .queueFull = reason { true } else { false }
    }
}
