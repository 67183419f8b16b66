import Journal
import SDK

extension CallAudit {
    /// A change a record makes to a call's row. A value rather than a closure: the common path
    /// applies it at once, in place; a segment's audit keeps it for a row an earlier segment
    /// holds (``SegmentPart``), and the join applies it there, in order.
    enum RowChange: Sendable {
        /// The gate's decision (a gateDecided's, or the one an eventBatched carries).
        case decided(GateDecision)
        /// The call was rejected.
        case rejected
        /// Switch `id` routed the (control) call.
        case routed(SwitchID, SwitchRouting)
        /// A task carries the call.
        case taskAdded(AuditRow.Task)
        /// The call's last task `id` now goes to `path`.
        case taskPath(TaskID, String)
        /// The call's last task `id` ended with `outcome`.
        case taskOutcome(TaskID, TaskOutcome)
        /// The call ended with `outcome`, resolved by the record at `at`.
        case resolved(CallOutcome, at: (sequence: UInt64, time: JournalTime))
    }
}

extension AuditRow {
    /// Applies `change` to the row.
    mutating func apply(_ change: CallAudit.RowChange) {
        switch change {
        case .decided(let decision):
            gate.append(.decided(decision))
        case .rejected:
            gate.append(.rejected)
        case .routed(let id, let routing):
            gate.append(.routed(id, routing))
        case .taskAdded(let task):
            tasks.append(task)
        case .taskPath(let id, let path):
            if let index = tasks.lastIndex(where: { $0.id == id }) { tasks[index].path = path }
        case .taskOutcome(let id, let outcome):
            if let index = tasks.lastIndex(where: { $0.id == id }) { tasks[index].outcome = outcome }
        case .resolved(let outcome, let resolved):
            self.outcome = outcome
            self.resolved = resolved
        }
    }
}

extension AuditRow {
    /// Brings the row's task `task.id` to `task`'s project and path, or adds it: a task a
    /// snapshot after a loss holds for the call (``CallAudit/resume(after:)``).
    mutating func bringTask(_ task: Task) {
        guard let index = tasks.lastIndex(where: { $0.id == task.id }) else { return tasks.append(task) }
        tasks[index].project = task.project
        tasks[index].path = task.path
    }
}
