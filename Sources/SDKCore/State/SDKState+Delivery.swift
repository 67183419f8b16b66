import Journal

extension SDKState {
    /// The current user as request bodies name them (``RequestBody/Identity``).
    var requestIdentity: RequestBody.Identity {
        RequestBody.Identity(email: email, userID: userID)
    }

    /// Turns a call into a task bound to `project` (its fingerprint, region and endpoint), queues
    /// it and sends it if the project's queue is idle. A full queue discards it, saying so, unless
    /// its room was reserved (`roomReserved`: an event held for an unknown user, released; a
    /// disable, which the queue's bounds never refuse, may have filled the room since).
    mutating func enqueue(_ call: PublicCall, call id: CallID?, on project: ProjectRef, identity: RequestBody.Identity,
                          roomReserved: Bool = false, _ decisions: inout Decisions) {
        let user = UserIdentity(email: identity.email, userID: identity.userID)
        // The busiest request, every track call's, is its body alone until it needs a task of
        // its own: most join a queued bulk, and a whole request for each would have its path
        // and query made, compared and destroyed through their metadata.
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
            if let joined = batchTaking(body.count, for: user, on: project.fingerprint) {
                guard roomReserved || queueHasRoom(forEvents: 1, bytes: body.count + 1 + DeliveryTask.eventAllowance) else {
                    refuse(RequestBody(path: DeliveryTask.trackPath, method: .post, query: nil, body: body), call: id, user: user, on: project, &decisions)
                    return
                }
                // Applied as `emit` applies it (``evolve(_:at:)``), through the index the task was
                // found at: its id is hashed once, not once more to fold the fact.
                time = decisions.time
                body.withUnsafeBufferPointer { addToBatch(call: id, body: $0, ofTaskAt: joined.index) }
                decisions.recordBatched(task: joined.task, call: id, body: body)
                return
            }
            let request = RequestBody(path: DeliveryTask.trackPath, method: .post, query: nil, body: body)
            guard roomReserved || queueHasRoom(forEvents: 1, bytes: footprint(of: request, for: user, on: project)) else {
                refuse(request, call: id, user: user, on: project, &decisions)
                return
            }
            queueTask(request, call: id, user: user, on: project, &decisions)
            return
        }
        guard let request = RequestBody.make(for: call, identity: identity, pushToken: pushToken, time: decisions.time, sdkVersion: sdkVersion) else {
            resolve(id, .applied(project: project.fingerprint), &decisions)
            return
        }
        guard request.path == DeliveryTask.disableDevicePath || roomReserved
                || queueHasRoom(forEvents: 1, bytes: footprint(of: request, for: user, on: project)) else {
            refuse(request, call: id, user: user, on: project, &decisions)
            return
        }
        queueTask(request, call: id, user: user, on: project, &decisions)
    }

    /// A request the full delivery queue does not take. A call still pending hears it
    /// (`queueFull`); a request of the SDK's own, or one a call already resolved made (an event
    /// held for an unknown user), is journaled as a task made and discarded at once, so nothing
    /// accepted vanishes without a record.
    private mutating func refuse(_ request: RequestBody, call id: CallID?, user: UserIdentity?, on project: ProjectRef,
                                 _ decisions: inout Decisions) {
        let reason = DiscardReason.queueFull(capacity: rules.queueCapacity)
        if let id, pendingCalls.index(forKey: id) != nil {
            resolve(id, .discarded(reason), &decisions)
            return
        }
        let task = makeTask(request, call: id, user: user, on: project, at: decisions.time)
        emit(.taskQueued(task), &decisions)
        emit(.taskCompleted(task: task.id, outcome: .discarded(reason)), &decisions)
    }

    /// Queues `request` as a task of its own for `project`, and dispatches it if nothing of the
    /// project is on the wire.
    private mutating func queueTask(_ request: RequestBody, call id: CallID?, user: UserIdentity?, on project: ProjectRef,
                                    _ decisions: inout Decisions) {
        let task = makeTask(request, call: id, user: user, on: project, at: decisions.time)
        if projects[project.fingerprint] == nil { projects[project.fingerprint] = project }
        emit(.taskQueued(task), &decisions)
        dispatchIfIdle(project.fingerprint, &decisions)
    }

    /// The next task: `request`, bound to `project`'s fingerprint, region and endpoint, made for
    /// `user` by the current instance.
    private func makeTask(_ request: RequestBody, call id: CallID?, user: UserIdentity?, on project: ProjectRef, at time: JournalTime) -> DeliveryTask {
        DeliveryTask(id: TaskID(nextTaskNumber), call: id, project: project.fingerprint, region: project.region, endpoint: project.endpoint,
                     path: request.path, method: request.method, query: request.query, body: request.body, createdAt: time,
                     generation: generation, user: user)
    }

    /// What a task of `request` for `user` on `project` would take of the queue (``DeliveryTask/footprint``).
    func footprint(of request: RequestBody, for user: UserIdentity?, on project: ProjectRef) -> Int {
        DeliveryTask.footprint(bodyBytes: request.body.count, path: request.path, endpoint: project.endpoint, region: project.region,
                               query: request.query, user: user)
    }

    /// Whether the delivery queue, bounded by events and by bytes (footprints, ``DeliveryTask/footprint``),
    /// takes `count` more events of `bytes`. Events held for an unknown user hold their room in it.
    func queueHasRoom(forEvents count: Int, bytes: Int) -> Bool {
        guard heldEvents.isEmpty else {
            return queuedEvents + heldEvents.count + count <= rules.queueCapacity
                && queueFootprint + heldEventsReservation + bytes <= rules.queueByteCapacity
        }
        return queuedEvents + count <= rules.queueCapacity && queueFootprint + bytes <= rules.queueByteCapacity
    }

    /// The room the events held for an unknown user hold in the queue: the footprint of each
    /// one's task on the live project (whose storage holds them), whoever the user turns out to be.
    package var heldEventsReservation: Int {
        let perTask = DeliveryTask.footprint(bodyBytes: 0, path: Self.longestEventPath, endpoint: live?.endpoint ?? "", region: live?.region ?? "",
                                             query: nil, user: nil)
        return heldEvents.reduce(0) { $0 + $1.reservedBytes + perTask }
    }

    /// The longest path an event's task is sent to (`commerce/trackPurchase`), with room to spare.
    static let longestEventPath = String(repeating: "p", count: 32)

    /// The queued `events/track` task of `project` a new event of `bytes`, made for `user`, joins,
    /// if any: the project's last task, made for the same user, still waiting its turn
    /// (something of the project is on the wire or waits), made by the current instance, not
    /// before an in-flight switch's window, with room under the bulk limits. Events so join in
    /// call order and never pass a task, and a bulk carries the events of one user only.
    ///
    /// The instance matters beyond the switch: every launch starts a new one, so no event joins
    /// a task an earlier process queued, which may have left before a crash lost its dispatch
    /// (the backend would take a second request under its idempotency key as the first).
    ///
    /// Returns the task's id and where it lies in ``tasks``. Mutating only to look at the task
    /// in place; it changes nothing.
    mutating func batchTaking(_ bytes: Int, for user: UserIdentity?, on project: ProjectFingerprint)
        -> (task: TaskID, index: Dictionary<TaskID, QueuedTask>.Index)? {
        guard rules.bulkEventLimit > 1, let last = taskOrder[project]?.last, let index = tasks.index(forKey: last) else { return nil }
        // Looked at in place (an inout access): reading the task out of the dictionary would
        // copy it, retaining its strings, its body and its batch, at every event.
        let (generation, events, byteLimit) = (generation, rules.bulkEventLimit, rules.bulkByteLimit)
        guard Self.takesEvent(of: bytes, for: user, &tasks.values[index], generation: generation, eventLimit: events, byteLimit: byteLimit) else {
            return nil
        }
        if let window = switching.inFlight?.firstTaskOfWindow, last.number < window { return nil }
        return (last, index)
    }

    /// Whether `queued` takes one more event of `bytes` (``batchTaking(_:on:)``). Inout so that
    /// the caller hands over the task where it lies, not a copy.
    private static func takesEvent(of bytes: Int, for user: UserIdentity?, _ queued: inout QueuedTask, generation: UInt64,
                                   eventLimit: Int, byteLimit: Int) -> Bool {
        queued.status == .queued && queued.task.takesEvents && queued.task.generation == generation
            && queued.task.eventCount < eventLimit && queued.task.queuedBytes + bytes <= byteLimit && queued.task.user == user
    }

    /// Sends the head of `project`'s queue if nothing of that project is on the wire or waiting,
    /// after discarding the requests that waited past their age limit. Tasks of one project go
    /// out one at a time, in order.
    mutating func dispatchIfIdle(_ project: ProjectFingerprint, _ decisions: inout Decisions) {
        guard auth[project]?.refreshing == nil, !consentDeclined else { return }
        expireOverdueTasks(of: project, &decisions)
        guard let head = taskOrder[project]?.first, let queued = tasks[head] else { return }
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

    /// Discards the tasks of `project` that waited longer than ``EngineRules/deliveryAgeLimitMilliseconds``
    /// and are not on the wire, their calls with them (`expired`). Kept disables never expire:
    /// each stops another project messaging this device. Tasks wait in the order they were
    /// made, so the overdue ones come first: the look stops at the first task still in time.
    private mutating func expireOverdueTasks(of project: ProjectFingerprint, _ decisions: inout Decisions) {
        guard let order = taskOrder[project] else { return }
        let (limit, overflow) = rules.deliveryAgeLimitMilliseconds.multipliedReportingOverflow(by: 1_000)
        // A task made before this time (µs) is overdue.
        let (latestOverdue, before) = decisions.time.microsecondsSince1970.subtractingReportingOverflow(limit)
        guard !overflow, !before else { return }
        var overdue: [TaskID] = []
        scan: for id in order {
            guard let index = tasks.index(forKey: id) else { continue }
            // Looked at in place: reading the task out of the dictionary would copy it.
            switch Self.expiry(of: &tasks.values[index], latestOverdue: latestOverdue) {
            case .overdue: overdue.append(id)
            case .exempt: continue scan
            case .inTime: break scan
            }
        }
        guard !overdue.isEmpty else { return }
        let reason = DiscardReason.expired(ageLimit: .milliseconds(rules.deliveryAgeLimitMilliseconds))
        for id in overdue {
            guard let calls = tasks[id]?.task.calls else { continue }
            emit(.taskCompleted(task: id, outcome: .discarded(reason)), &decisions)
            for call in calls { resolve(call, .discarded(reason), &decisions) }
        }
    }

    private enum Expiry {
        case overdue, exempt, inTime
    }

    /// Whether `queued` is overdue, made before `latestOverdue` (µs); one on the wire or
    /// a disable is exempt. Inout so that the caller hands over the task where it lies.
    private static func expiry(of queued: inout QueuedTask, latestOverdue: Int64) -> Expiry {
        if queued.isInFlight || queued.task.isDisableDevice { return .exempt }
        return queued.task.createdAt.microsecondsSince1970 < latestOverdue ? .overdue : .inTime
    }

    /// The app said the network is back: every project whose next request waits because its
    /// last attempt got no response sends it now, without waiting out its backoff.
    mutating func handleNetworkReachable(_ decisions: inout Decisions) {
        guard !consentDeclined else { return }
        for project in taskOrder.keys.sorted() {
            guard auth[project]?.refreshing == nil, let head = taskOrder[project]?.first, let queued = tasks[head],
                  queued.waitsForNetwork, case .retrying(let next) = queued.status else {
                dispatchIfIdle(project, &decisions)
                continue
            }
            expireOverdueTasks(of: project, &decisions)
            if taskOrder[project]?.first == head {
                emit(.taskDispatched(task: head, attempt: next), &decisions)
            } else {
                dispatchIfIdle(project, &decisions)
            }
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
            let failures = queued.serverFailures &+ 1
            if failures < retry.maxAttempts {
                scheduleRetry(task, after: completion.attempt, retry: retry, reason: .serverBusy("HTTP \(status)\(said)", failures: failures), &decisions)
            } else {
                fail(task, .retriesExhausted("\(failures) attempts; last: HTTP \(status)\(said)"), &decisions)
            }
        case .response(let status, let code, _, let message):
            fail(task, .httpStatus(status, code: code, message: message), &decisions)
        case .networkError(let reason):
            // No response: the request never uses its task up. The project's queue waits.
            scheduleRetry(task, after: completion.attempt, retry: retry, reason: .noResponse(reason), &decisions)
        }
        dispatchIfIdle(task.project, &decisions)
        taskFinishedDuringSwitch(task.project, &decisions)
    }

    /// Sends `task` again after the backoff that follows attempt `attempt` (doubling, capped at
    /// `RetryRules.maxDelayMilliseconds`).
    private mutating func scheduleRetry(_ task: DeliveryTask, after attempt: Int, retry: RetryRules, reason: RetryReason,
                                        _ decisions: inout Decisions) {
        let due = decisions.time.advanced(byMicroseconds: retry.delay(afterAttempt: attempt))
        emit(.retryScheduled(task: task.id, attempt: attempt &+ 1, due: due, reason: reason), &decisions)
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
            if task.hasBatch {
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
    /// (its project live, its storage intact, its generation current, its messages not reset
    /// by a switch leaving it): a fetch that lands after a switch began resetting them must not
    /// leak into the next instance, even one of the same project.
    private mutating func storeMessages(_ ids: [String], kind: MessageKind, for task: DeliveryTask, _ decisions: inout Decisions) {
        let project = task.project
        if let started = task.generation, started != generation {
            emit(.staleResultRefused(job: task.id.number, what: "\(kind.rawValue) messages fetched by \(task.id)", startedIn: started, current: generation), &decisions)
            return
        }
        if let run = switching.inFlight, run.from?.fingerprint == project, let step = run.step, step.order >= kind.resetStep.order {
            emit(.staleResultRefused(job: task.id.number, what: "\(kind.rawValue) messages fetched by \(task.id), answered after \(run.id) reset them",
                                     startedIn: task.generation ?? generation, current: generation), &decisions)
            return
        }
        guard live?.fingerprint == project, !clearedProjects.contains(project) else { return }
        emit(.messagesStored(kind: kind, project: project, ids: ids), &decisions)
    }

    /// A timer went off (it was still set).
    mutating func handleTimer(_ purpose: TimerPurpose, _ decisions: inout Decisions) {
        switch purpose {
        case .retry(let id, let attempt):
            // Its timer is gone now: the head of its project's queue goes, unless it expired.
            guard let queued = tasks[id], queued.status == .retrying(nextAttempt: attempt) else { return }
            dispatchIfIdle(queued.task.project, &decisions)
        case .teardownBound(let id, let step):
            teardownBoundPassed(id, step, &decisions)
        case .moduleHookBound(let hook):
            guard let pending = hooks[hook] else { return }
            emit(.moduleHookFinished(hook: hook, problem: "module \(pending.module) overran its \(rules.moduleHookBoundMilliseconds) ms bound on \(pending.signal.label)"), &decisions)
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
