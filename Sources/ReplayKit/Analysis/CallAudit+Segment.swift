import Journal
import SDK

extension AuditRow {
    /// The row of a call received before the walk began, from what the state keeps of it.
    init(pending: PendingCall, call: CallID) {
        self.init(call: call, name: pending.name, received: nil, madeAt: pending.madeAt, liveAtCall: pending.projectAtCall)
    }
}

extension CallAudit {
    /// What auditing one segment on its own gives the join (``CallAuditJoin``), which puts the
    /// segments back in order with what each could not know of the ones before it: the rows of
    /// calls received earlier and still open, and the tasks queued earlier.
    ///
    /// A call is *settled* in a segment once the segment knows whether the audit holds its row:
    /// it was received in the segment, or resolved in it. Changes to an unsettled call's row are
    /// kept (``Carried``) and applied by the join to the row the earlier segments left open.
    /// Tasks are taken from the segment's snapshot; the ones the segment reads before writing
    /// them are noted (``assumedTasks``) so that the join can check the snapshot said what the
    /// earlier segments did (if not, the segment is audited again in order).
    package struct SegmentPart: Sendable {
        /// What an unsettled call went through in the segment.
        struct Carried: Sendable {
            /// The changes, in order, for a row an earlier segment left open.
            var changes: [RowChange] = []
            /// The row as it ends if no earlier segment left one open (made from the state's
            /// pending call at a change, as the sequential audit makes it).
            var fallback: AuditRow?
        }

        /// A row handed out, in the order the sequential audit hands them out.
        enum Item: Sendable {
            /// A row received and resolved in the segment; its labels are the segment's.
            case row(AuditRow)
            /// A call received before the segment and resolved in it, with the segment's labels then.
            case carried(CallID, Carried, ProjectLabels)
        }

        var items: [Item] = []
        /// Calls received before the segment and resolved in it (with ``receivedIDs``, the
        /// settled calls).
        private var resolvedCarried: Set<CallID> = []
        /// Unsettled calls changed in the segment and not resolved in it.
        var carried: [CallID: Carried] = [:]
        /// Calls received in the segment: a row an earlier segment left open for one is replaced.
        var receivedIDs: Set<CallID> = []
        /// The tasks of the segment's snapshot (nil until it is read).
        var snapshotTasks: [TaskID: TaskCarrier]?
        /// Tasks read before the segment wrote them, with what the snapshot said of them.
        var assumedTasks: [TaskID: TaskCarrier?] = [:]
        /// Tasks the segment wrote (queued, changed or completed).
        var writtenTasks: Set<TaskID> = []
        /// Filled in at the end: rows received in the segment and still open, the written tasks'
        /// last values, the labels and deliveries.
        var open: [CallID: AuditRow] = [:]
        var tasksAtEnd: [TaskID: TaskCarrier?] = [:]
        var labels = ProjectLabels()
        var deliveries: [ProjectFingerprint: Deliveries] = [:]

        func isSettled(_ call: CallID) -> Bool {
            receivedIDs.contains(call) || resolvedCarried.contains(call)
        }

        mutating func received(_ call: CallID) {
            receivedIDs.insert(call)
            if !carried.isEmpty { carried[call] = nil }
        }

        mutating func change(_ call: CallID, _ change: RowChange, pending: @autoclosure () -> AuditRow?) {
            var entry = carried.removeValue(forKey: call) ?? Carried()
            if entry.fallback == nil { entry.fallback = pending() }
            entry.fallback?.apply(change)
            entry.changes.append(change)
            carried[call] = entry
        }

        mutating func resolveCarried(_ call: CallID, labels: ProjectLabels) {
            resolvedCarried.insert(call)
            guard let entry = carried.removeValue(forKey: call) else { return }
            items.append(.carried(call, entry, labels))
        }
    }

    /// An audit of one segment on its own, from the snapshot that begins it: feed it that
    /// segment's records (snapshot first), then take its part with ``finishSegment()``.
    package static func ofOneSegment() -> CallAudit {
        let audit = CallAudit { _ in }
        audit.ledger.segment = SegmentPart()
        return audit
    }

    /// The segment's part, for ``CallAuditJoin/join(_:)``.
    package func finishSegment() -> SegmentPart {
        guard var part = ledger.segment.take() else { preconditionFailure("finishSegment() on an audit of a whole journal") }
        part.open = ledger.open
        for id in part.writtenTasks { part.tasksAtEnd[id] = ledger.taskCalls[id] }
        part.labels = ledger.labels
        part.deliveries = ledger.deliveries
        return part
    }

    /// What an audit carries from one segment to the next.
    struct Carry {
        var open: [CallID: AuditRow]
        var taskCalls: [TaskID: TaskCarrier]
        var labels: ProjectLabels
        var deliveries: [ProjectFingerprint: Deliveries]
        var statusCounts: StatusCounts
    }

    /// A whole-journal audit resumed from `carry` (a segment audited again in order by the join).
    convenience init(carry: Carry, emit: @escaping (AuditRow) -> Void) {
        self.init(emit: emit)
        ledger.open = carry.open
        ledger.taskCalls = carry.taskCalls
        ledger.labels = carry.labels
        ledger.deliveries = carry.deliveries
        ledger.statusCounts = carry.statusCounts
    }

    var carry: Carry {
        Carry(open: ledger.open, taskCalls: ledger.taskCalls, labels: ledger.labels, deliveries: ledger.deliveries,
              statusCounts: ledger.statusCounts)
    }
}

extension CallAudit.Ledger {
    /// The task's calls and project; in a segment's audit, a first read of a task the segment
    /// has not written is noted as assumed.
    mutating func task(_ id: TaskID) -> TaskCarrier? {
        let value = taskCalls[id]
        noteRead(id, value)
        return value
    }

    /// In a segment's audit, a first read of a task the segment has not written is noted as
    /// assumed, with what the table held (`value`).
    private mutating func noteRead(_ id: TaskID, _ value: TaskCarrier?) {
        if segment != nil, segment?.writtenTasks.contains(id) == false, segment?.assumedTasks.index(forKey: id) == nil {
            segment?.assumedTasks[id] = .some(value)
        }
    }

    /// Changes task `id` in place (its calls are not copied to be changed), with one look-up,
    /// and returns its project; nil, changing nothing, for a task the audit does not know.
    /// Reads and writes the task as ``task(_:)`` then ``setTask(_:_:)`` would.
    mutating func changeTask(_ id: TaskID, _ change: (inout TaskCarrier) -> Void) -> ProjectFingerprint? {
        guard let index = taskCalls.index(forKey: id) else {
            noteRead(id, nil)
            return nil
        }
        noteRead(id, taskCalls.values[index])
        change(&taskCalls.values[index])
        if segment != nil { segment?.writtenTasks.insert(id) }
        return taskCalls.values[index].project
    }

    mutating func setTask(_ id: TaskID, _ value: TaskCarrier?) {
        taskCalls[id] = value
        if segment != nil { segment?.writtenTasks.insert(id) }
    }
}
