import SDK

/// `disable-kept`: queued disableDevice tasks are never purged. (One the full queue refused,
/// past the disables it reserves, was never queued: it is journaled as made and discarded at
/// once, `queueFull`.)
extension ContractChecker {
    /// A task is queued (its call must go where it belongs) or completes.
    func checkDisables(_ fact: Fact, at sequence: UInt64) {
        switch fact {
        case .taskQueued(let task):
            tasks[task.id] = (task.path, sequence)
            if let call = task.call { expect(call, deliveredTo: task.project, at: sequence, what: "its task \(task.id) was queued") }
        case .taskCompleted(let id, let outcome):
            let task = tasks.removeValue(forKey: id)
            if case .discarded(let reason) = outcome, task?.path == "users/disableDevice", !Self.refusedByTheFullQueue(reason) {
                report(.disableKept, "disableDevice task \(id) was discarded (\(Describe.discard(reason)))",
                       [task?.queued, sequence].compactMap { $0 })
            }
        default:
            // A default is right: check(_:at:state:) sends only the facts named above here (the
            // dispatch lists every fact).
            break
        }
    }

    /// Whether a disable was refused by the full queue (past `SDKState.disableReserve`), not purged.
    private static func refusedByTheFullQueue(_ reason: DiscardReason) -> Bool {
        if case .queueFull = reason { true } else { false }
    }
}
