import Journal

extension SDKState {
    /// Turns a call into a task bound to `project` (its fingerprint, region and endpoint), queues
    /// it and sends it if the project's queue is idle. A full queue discards it, saying so.
    mutating func enqueue(_ call: PublicCall, call id: CallID?, on project: ProjectRef, identity: RequestBody.Identity,
                          _ decisions: inout Decisions) {
        // The busiest request, every track call's, is its body alone until it needs a task of
        // its own: most join a queued bulk, and a whole request for each (its path and query
        // made, compared and destroyed through their metadata) cost about 150 instructions.
        if case .track(let name, let dataFields) = call, let id {
            // The body decide prepared (taken out of the input's scratch, and its buffer put
            // back after for the next input), else one made now.
            var body: [UInt8] = []
            let prepared = decisions.takePrepared(for: id)
            if prepared {
                swap(&body, &input.preparedBody)
            } else {
                body = RequestBody.trackBody(name, dataFields: dataFields, identity: identity, createdAt: RequestBody.createdAt(decisions.time))
            }
            defer { if prepared { swap(&body, &input.preparedBody) } }
            guard admitsEvent(of: body.count, for: id, &decisions) else { return }
            if let joined = batchTaking(body.count, on: project.fingerprint) {
                // Applied as `emit` applies it (``evolve(_:at:)``), through the index the task was
                // found at: its id is hashed once, not once more to fold the fact.
                time = decisions.time
                body.withUnsafeBufferPointer { addToBatch(call: id, body: $0, ofTaskAt: joined.index) }
                decisions.recordBatched(task: joined.task, call: id, body: body)
                return
            }
            queueTask(RequestBody(path: DeliveryTask.trackPath, method: .post, query: nil, body: body), call: id, on: project, &decisions)
            return
        }
        guard let request = RequestBody.make(for: call, identity: identity, pushToken: pushToken, time: decisions.time, sdkVersion: sdkVersion) else {
            resolve(id, .applied(project: project.fingerprint), &decisions)
            return
        }
        guard request.path == "users/disableDevice" || admitsEvent(of: request.body.count, for: id, &decisions) else { return }
        queueTask(request, call: id, on: project, &decisions)
    }

    /// Whether the delivery queue takes one more event of `bytes`; when it does not, the call
    /// `id` is resolved as discarded (`queueFull`).
    private mutating func admitsEvent(of bytes: Int, for id: CallID?, _ decisions: inout Decisions) -> Bool {
        guard queueHasRoom(forEvents: 1, bytes: bytes) else {
            resolve(id, .discarded(.queueFull(capacity: rules.queueCapacity)), &decisions)
            return false
        }
        return true
    }

    /// Queues `request` as a task of its own for `project`, and dispatches it if nothing of the
    /// project is on the wire.
    private mutating func queueTask(_ request: RequestBody, call id: CallID?, on project: ProjectRef, _ decisions: inout Decisions) {
        let task = DeliveryTask(
            id: TaskID(nextTaskNumber), call: id, project: project.fingerprint, region: project.region, endpoint: project.endpoint,
            path: request.path, method: request.method, query: request.query, body: request.body, createdAt: decisions.time,
            generation: generation)
        if projects[project.fingerprint] == nil { projects[project.fingerprint] = project }
        emit(.taskQueued(task), &decisions)
        dispatchIfIdle(project.fingerprint, &decisions)
    }

    /// Whether the delivery queue, bounded by events and bytes, takes `count` more events of `bytes`.
    func queueHasRoom(forEvents count: Int, bytes: Int) -> Bool {
        queuedEvents + count <= rules.queueCapacity && queuedBytes + bytes <= rules.queueByteCapacity
    }

    /// The queued `events/track` task of `project` a new event of `bytes` joins, if any: the
    /// project's last task, still waiting its turn (something of the project is on the wire or
    /// waits), made by the current instance, not before an in-flight switch's window, with room
    /// under the bulk limits. Events so join in call order and never pass a task.
    ///
    /// The instance matters beyond the switch: every launch starts a new one, so no event joins
    /// a task an earlier process queued, which may have left before a crash lost its dispatch
    /// (the backend would take a second request under its idempotency key as the first).
    ///
    /// Returns the task's id and where it lies in ``tasks``. Mutating only to look at the task
    /// in place; it changes nothing.
    mutating func batchTaking(_ bytes: Int, on project: ProjectFingerprint) -> (task: TaskID, index: Dictionary<TaskID, QueuedTask>.Index)? {
        guard rules.bulkEventLimit > 1, let last = taskOrder[project]?.last, let index = tasks.index(forKey: last) else { return nil }
        // Looked at in place (an inout access): reading the task out of the dictionary would
        // copy it, retaining its strings, its body and its batch, at every event.
        let (generation, events, byteLimit) = (generation, rules.bulkEventLimit, rules.bulkByteLimit)
        guard Self.takesEvent(of: bytes, &tasks.values[index], generation: generation, eventLimit: events, byteLimit: byteLimit) else {
            return nil
        }
        if let window = switching.inFlight?.firstTaskOfWindow, last.number < window { return nil }
        return (last, index)
    }

    /// Whether `queued` takes one more event of `bytes` (``batchTaking(_:on:)``). Inout so that
    /// the caller hands over the task where it lies, not a copy.
    private static func takesEvent(of bytes: Int, _ queued: inout QueuedTask, generation: UInt64,
                                   eventLimit: Int, byteLimit: Int) -> Bool {
        queued.status == .queued && queued.task.takesEvents && queued.task.generation == generation
            && queued.task.eventCount < eventLimit && queued.task.queuedBytes + bytes <= byteLimit
    }

    /// Sends the head of `project`'s queue if nothing of that project is on the wire or waiting.
    /// Tasks of one project go out one at a time, in order.
    mutating func dispatchIfIdle(_ project: ProjectFingerprint, _ decisions: inout Decisions) {
        guard auth[project]?.refreshing == nil, let head = taskOrder[project]?.first, let queued = tasks[head] else { return }
        switch queued.status {
        case .queued:
            emit(.taskDispatched(task: head, attempt: 1), &decisions)
        case .retrying(let next) where timers[.retry(head, attempt: next)] == nil:
            // Its timer is gone (a restart, or it fired): send it now.
            emit(.taskDispatched(task: head, attempt: next), &decisions)
        case .awaitingToken(let next):
            emit(.taskDispatched(task: head, attempt: next), &decisions)
        case .inFlight, .retrying:
            break
        }
    }

    /// An exchange ended: deliver, retry, refresh the JWT, or fail.
    mutating func handleTransport(_ completion: TransportCompletion, _ decisions: inout Decisions) {
        guard let queued = tasks[completion.task], queued.status == .inFlight(attempt: completion.attempt) else { return }
        let task = queued.task
        let project = projects[task.project]
        let retry = project?.retry ?? RetryRules()
        switch completion.outcome {
        case .response(let status, _, let messageIDs, _) where (200..<300).contains(status):
            emit(.taskCompleted(task: task.id, outcome: .delivered(status: status)), &decisions)
            if task.path == "inApp/getMessages" || task.path == "embedded-messaging/messages" {
                storeMessages(messageIDs, kind: task.path == "inApp/getMessages" ? .inApp : .embedded, for: task, &decisions)
            }
            resolveEach(of: task, delivered: status, refused: completion.refusedEvents, &decisions)
        case .response(401, let code, _, _) where code == "InvalidJwtPayload" && project?.usesJWT == true:
            if (auth[task.project]?.refreshesUsed ?? 0) < retry.jwtRefreshBudget {
                emit(.authRefreshRequested(project: task.project, request: takeRequestNumber()), &decisions)
            } else {
                fail(task, .authentication("JWT rejected and the refresh budget of \(retry.jwtRefreshBudget) is spent"), &decisions)
            }
        case .response(let status, let code, _, let message) where status == 429 || status >= 500:
            let said = (code.map { " \($0)" } ?? "") + (message.map { ": \($0)" } ?? "")
            retryOrFail(task, attempt: completion.attempt, retry: retry, error: "HTTP \(status)\(said)", &decisions)
        case .response(let status, let code, _, let message):
            fail(task, .httpStatus(status, code: code, message: message), &decisions)
        case .networkError(let reason):
            retryOrFail(task, attempt: completion.attempt, retry: retry, error: reason, &decisions)
        }
        dispatchIfIdle(task.project, &decisions)
        taskFinishedDuringSwitch(task.project, &decisions)
    }

    private mutating func retryOrFail(_ task: DeliveryTask, attempt: Int, retry: RetryRules, error: String, _ decisions: inout Decisions) {
        if attempt < retry.maxAttempts {
            let due = decisions.time.advanced(byMicroseconds: retry.delay(afterAttempt: attempt))
            emit(.timerSet(.retry(task.id, attempt: attempt &+ 1), due: due), &decisions)
        } else {
            fail(task, .retriesExhausted("\(attempt) attempts; last: \(error)"), &decisions)
        }
    }

    private mutating func fail(_ task: DeliveryTask, _ failure: CallFailure, _ decisions: inout Decisions) {
        emit(.taskCompleted(task: task.id, outcome: .failed(failure)), &decisions)
        for call in task.calls { resolve(call, .failed(failure), &decisions) }
    }

    /// Resolves every call a delivered task carried: delivered, except the events the answer
    /// refused, which fail alone (in call order either way).
    private mutating func resolveEach(of task: DeliveryTask, delivered status: Int, refused: [RefusedEvent],
                                      _ decisions: inout Decisions) {
        guard task.call != nil else { return }
        if refused.isEmpty {
            let outcome = CallOutcome.delivered(project: task.project, status: status)
            if rules.resolvesBulkAtOnce && task.hasBatch {
                resolveAll(of: task, outcome, &decisions)
            } else {
                for call in task.calls { resolve(call, outcome, &decisions) }
            }
            return
        }
        for (index, call) in task.calls.enumerated() {
            if let refusal = refused.first(where: { $0.index == index }) {
                resolve(call, .failed(.httpStatus(status, code: "EventRefused", message: refusal.reason)), &decisions)
            } else {
                resolve(call, .delivered(project: task.project, status: status), &decisions)
            }
        }
    }

    /// Resolves every call `task` carried that is still pending with `outcome`, in call order,
    /// in one `callsResolved` decision (one `callResolved` when only one is left): a bulk's
    /// hundreds of calls become one record instead of one each.
    private mutating func resolveAll(of task: DeliveryTask, _ outcome: CallOutcome, _ decisions: inout Decisions) {
        var resolved: [CallID] = []
        resolved.reserveCapacity(task.eventCount)
        func take(_ call: CallID) {
            guard let index = pendingCalls.index(forKey: call) else { return }
            removePendingCall(at: index)
            resolved.append(call)
        }
        if let call = task.call { take(call) }
        for call in task.batchCalls { take(call) }
        guard let first = resolved.first else { return }
        time = decisions.time
        if resolved.count == 1 {
            decisions.record(.callResolved(call: first, outcome: outcome))
        } else {
            decisions.record(.callsResolved(task: task.id, calls: resolved, outcome: outcome))
        }
    }

    /// Messages fetched by `task` are kept only while the instance that asked for them runs
    /// (its project live, its storage intact, its generation current): a fetch that lands after
    /// a switch must not leak into the next instance, even one of the same project.
    private mutating func storeMessages(_ ids: [String], kind: MessageKind, for task: DeliveryTask, _ decisions: inout Decisions) {
        let project = task.project
        if let started = task.generation, started != generation {
            emit(.staleResultRefused(job: task.id.number, what: "\(kind.rawValue) messages fetched by \(task.id)", startedIn: started, current: generation), &decisions)
            return
        }
        guard live?.fingerprint == project, !clearedProjects.contains(project) else { return }
        emit(.messagesStored(kind: kind, project: project, ids: ids), &decisions)
    }

    /// A timer went off (it was still set).
    mutating func handleTimer(_ purpose: TimerPurpose, _ decisions: inout Decisions) {
        switch purpose {
        case .retry(let id, let attempt):
            guard let queued = tasks[id], queued.status == .retrying(nextAttempt: attempt) else { return }
            if taskOrder[queued.task.project]?.first == id, auth[queued.task.project]?.refreshing == nil {
                emit(.taskDispatched(task: id, attempt: attempt), &decisions)
            }
        case .teardownBound(let id, let step):
            teardownBoundPassed(id, step, &decisions)
        case .moduleHookBound(let hook):
            guard let pending = hooks[hook] else { return }
            emit(.moduleHookFinished(hook: hook, problem: "module \(pending.module) overran its \(rules.moduleHookBoundMilliseconds) ms bound on \(pending.event.label)"), &decisions)
            hookFinished(&decisions)
        }
    }

    /// The auth provider answered: retry the waiting request with the new token, or fail it.
    mutating func handleAuthToken(_ receipt: AuthTokenReceipt, _ decisions: inout Decisions) {
        guard auth[receipt.project]?.refreshing == receipt.request else { return }
        emit(.authRefreshFinished(project: receipt.project, request: receipt.request, failure: receipt.failure), &decisions)
        if let failure = receipt.failure, let head = taskOrder[receipt.project]?.first, let queued = tasks[head] {
            fail(queued.task, .authentication("the auth provider failed: \(failure)"), &decisions)
        }
        dispatchIfIdle(receipt.project, &decisions)
        taskFinishedDuringSwitch(receipt.project, &decisions)
    }

    /// Discards queued tasks (not those on the wire), keeping disableDevice ones when asked.
    /// `projects` limits the purge; nil purges every project's tasks. Only tasks numbered below
    /// `before` go (a switch keeps what was made during its window).
    mutating func purgeQueue(keepingDisables: Bool, reason: DiscardReason, projects only: Set<ProjectFingerprint>?,
                             before: UInt64 = .max, _ decisions: inout Decisions) {
        let victims = tasks.values
            .filter { queued in
                if keepingDisables && queued.task.isDisableDevice { return false }
                if case .inFlight = queued.status { return false }
                if queued.task.id.number >= before { return false }
                return only.map { $0.contains(queued.task.project) } ?? true
            }
            .map(\.task)
            .sorted { $0.id < $1.id }
        for task in victims {
            emit(.taskCompleted(task: task.id, outcome: .discarded(reason)), &decisions)
            for call in task.calls { resolve(call, .discarded(reason), &decisions) }
        }
        for project in Set(victims.map(\.project)).sorted() { dispatchIfIdle(project, &decisions) }
    }
}
