import Journal

extension SDKState {
    /// What folding `taskQueued(task)` changes (part of ``evolve(_:at:)``): the task joins its
    /// project's queue.
    mutating func foldTaskQueued(_ task: DeliveryTask) {
        tasks[task.id] = QueuedTask(task: task, status: .queued)
        taskOrder[task.project, default: []].append(task.id)
        queueFootprint += task.footprint
        queuedEvents += task.eventCount
        nextTaskNumber = max(nextTaskNumber, task.id.number &+ 1)
        if projects[task.project] == nil, let live, live.fingerprint == task.project { projects[task.project] = live }
    }

    /// What folding `eventBatched(id, event, executedOn)` at `time` changes (part of
    /// ``evolve(_:at:)``): the event joins the task's batch.
    mutating func foldEventBatched(_ id: TaskID, _ event: BatchedEvent, executedOn: ProjectFingerprint?, at time: JournalTime) {
        guard let index = tasks.index(forKey: id) else { return }
        // A record that carries the gate's decision carries no body (format 1.3): the body
        // is the one the input's call makes, as the decision built it.
        let body = executedOn != nil && event.body.isEmpty ? receivedTrackBody(of: event.call, at: time) : event.body
        body.withUnsafeBufferPointer { addToBatch(call: event.call, body: $0, ofTaskAt: index) }
    }

    /// What folding `taskDispatched(id, attempt)` changes (part of ``evolve(_:at:)``): the task
    /// is on the wire.
    mutating func foldTaskDispatched(_ id: TaskID, attempt: Int) {
        guard let index = tasks.index(forKey: id) else { return }
        tasks.values[index].status = .inFlight(attempt: attempt)
        // The task on the wire leads its project's order: tasks that wait aside (and their
        // users' later tasks) stay behind it, so "is the project sending?" is its first task.
        let project = tasks.values[index].task.project
        if let position = taskOrder[project]?.firstIndex(of: id), position > 0 {
            taskOrder[project]?.remove(at: position)
            taskOrder[project]?.insert(id, at: 0)
        }
        // Sent before its retry timer fired (the network came back): the timer is moot.
        if !timers.isEmpty { timers[.retry(id, attempt: attempt)] = nil }
    }

    /// What folding `retryScheduled` at `time` changes (part of ``evolve(_:at:)``): the retry's
    /// timer, and what the task waits for.
    mutating func foldRetryScheduled(_ id: TaskID, attempt: Int, due: JournalTime, reason: RetryReason, at time: JournalTime) {
        timers[.retry(id, attempt: attempt)] = due
        guard let index = tasks.index(forKey: id) else { return }
        tasks.values[index].status = .retrying(nextAttempt: attempt)
        switch reason {
        case .noResponse:
            tasks.values[index].waitsForNetwork = true
            tasks.values[index].aside = nil
            tasks.values[index].tokenRefreshes = 0
        case .serverBusy(_, let failures):
            tasks.values[index].waitsForNetwork = false
            tasks.values[index].serverFailures = failures
            tasks.values[index].aside = nil
            tasks.values[index].tokenRefreshes = 0
        case .notSent(let why):
            tasks.values[index].waitsForNetwork = false
            tasks.values[index].aside = AsideWait(since: tasks.values[index].aside?.since ?? time, reason: why)
        }
    }

    /// What folding `eventsExpired(id, calls)` changes (part of ``evolve(_:at:)``): the
    /// expired events leave the task.
    mutating func foldEventsExpired(_ id: TaskID, calls: [CallID]) {
        guard let index = tasks.index(forKey: id) else { return }
        let before = (tasks.values[index].task.footprint, tasks.values[index].task.eventCount)
        tasks.values[index].task.removeExpiredEvents(calls)
        queueFootprint -= before.0 - tasks.values[index].task.footprint
        queuedEvents -= before.1 - tasks.values[index].task.eventCount
    }

    /// What folding `authRefreshRequested(project, request)` changes (part of
    /// ``evolve(_:at:)``): the project's tasks on the wire wait for the token.
    mutating func foldAuthRefreshRequested(_ project: ProjectFingerprint, request: UInt64) {
        auth[project, default: AuthState()].refreshesUsed &+= 1
        auth[project, default: AuthState()].refreshing = request
        nextRequestNumber = max(nextRequestNumber, request &+ 1)
        for id in taskOrder[project] ?? [] {
            if case .inFlight(let attempt) = tasks[id]?.status {
                tasks[id]?.status = .awaitingToken(nextAttempt: attempt &+ 1)
                tasks[id]?.tokenRefreshes &+= 1
            }
        }
    }

    /// What folding `eventBatched` changes, for the task at `index` (looked up once by
    /// ``enqueue(_:call:on:identity:roomReserved:_:)``, which decides the fact, and by
    /// ``foldEventBatched(_:_:executedOn:at:)``, which folds it). Through the index, in place: a copy of the
    /// task would copy its whole batch.
    mutating func addToBatch(call: CallID, body: UnsafeBufferPointer<UInt8>, ofTaskAt index: Dictionary<TaskID, QueuedTask>.Index) {
        // The first event makes room for a whole bulk of events like it (within the bulk's byte
        // bound): a burst's batch then grows without copying itself over and over.
        let (events, bytes) = (rules.bulkEventLimit, min(rules.bulkByteLimit, body.count * rules.bulkEventLimit))
        tasks.values[index].task.addToBatch(call: call, body: body, at: time, roomForFirst: (events, bytes))
        queueFootprint += body.count + 1 + DeliveryTask.eventAllowance
        queuedEvents += 1
    }

    /// Removes a task from the queue (delivered, failed or discarded).
    mutating func removeTask(_ id: TaskID) {
        guard let removed = tasks.removeValue(forKey: id) else { return }
        queueFootprint -= removed.task.footprint
        queuedEvents -= removed.task.eventCount
        taskOrder[removed.task.project]?.removeAll { $0 == id }
        if taskOrder[removed.task.project]?.isEmpty == true { taskOrder[removed.task.project] = nil }
        if !timers.isEmpty {
            let stale = timers.keys.filter { if case .retry(id, _) = $0 { true } else { false } }
            for purpose in stale { timers[purpose] = nil }
        }
    }
}
