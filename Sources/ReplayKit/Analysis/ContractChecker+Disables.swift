import SDK

/// `disable-kept`: queued disableDevice tasks are never purged. (One the full queue refused,
/// past the disables it reserves, was never queued: it is journaled as made and discarded at
/// once, `queueFull`.)
extension ContractChecker {
    /// A task is queued: its call must go where it belongs.
    func taskQueued(_ task: DeliveryTask, at sequence: UInt64) {
        tasks[task.id] = (task.path, sequence)
        if let call = task.call { expect(call, deliveredTo: task.project, at: sequence, what: "its task \(task.id) was queued") }
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
