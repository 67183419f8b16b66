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
                          roomReserved: Bool = false, _ decisions: inout InputDecisions) {
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
        if request.path == DeliveryTask.disableDevicePath {
            // One pending disable per project, user and device: a repeat is that disable.
            if let queued = pendingDisable(request, for: user, on: project.fingerprint) {
                if let id { emit(.disableCoalesced(task: queued, call: id), &decisions) }
                return
            }
            // A disable stops another project messaging this device: the queue's bounds never
            // refuse the first ``disableReserve`` of them, so a full queue cannot keep a switch
            // or a logout from disabling; past them, one needs room like any request.
            guard roomReserved || pendingDisables < Self.disableReserve
                    || queueHasRoom(forEvents: 1, bytes: footprint(of: request, for: user, on: project)) else {
                refuse(request, call: id, user: user, on: project, &decisions)
                return
            }
            queueTask(request, call: id, user: user, on: project, &decisions)
            return
        }
        guard roomReserved || queueHasRoom(forEvents: 1, bytes: footprint(of: request, for: user, on: project)) else {
            refuse(request, call: id, user: user, on: project, &decisions)
            return
        }
        queueTask(request, call: id, user: user, on: project, &decisions)
    }

    /// How many disables the queue may hold past its bounds.
    package static let disableReserve = 64

    /// How many disables wait in the queue.
    private var pendingDisables: Int {
        tasks.values.count { $0.task.isDisableDevice }
    }

    /// The disable of the same device (the same body) for `user` on `project` that waits in the
    /// queue, not yet on the wire, if any.
    private func pendingDisable(_ request: RequestBody, for user: UserIdentity?, on project: ProjectFingerprint) -> TaskID? {
        for id in taskOrder[project] ?? [] {
            guard let queued = tasks[id], queued.task.isDisableDevice, !queued.isInFlight,
                  queued.task.user == user, queued.task.body == request.body else { continue }
            return id
        }
        return nil
    }

    /// A request the full delivery queue does not take. A call still pending hears it
    /// (`queueFull`); a request of the SDK's own, or one a call already resolved made (an event
    /// held for an unknown user), is journaled as a task made and discarded at once, so nothing
    /// accepted vanishes without a record.
    private mutating func refuse(_ request: RequestBody, call id: CallID?, user: UserIdentity?, on project: ProjectRef,
                                 _ decisions: inout InputDecisions) {
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
                                    _ decisions: inout InputDecisions) {
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

    /// Sends the next request of `project` if nothing of that project is on the wire, after
    /// discarding the requests that waited past their age limit. Tasks of one project go out one
    /// at a time, in order, except that a task waiting aside (its last attempt could not be made:
    /// ``QueuedTask/aside``) lets the tasks of other users pass; its own user's later tasks stay
    /// behind it. `dueNow` says which tasks waiting for their retry timer go now anyway (the
    /// network came back, an instance started).
    mutating func dispatchIfIdle(_ project: ProjectFingerprint, _ decisions: inout InputDecisions,
                                 dueNow: (QueuedTask) -> Bool = { _ in false }) {
        guard auth[project]?.refreshing == nil, !consentDeclined else { return }
        expireOverdueTasks(of: project, &decisions)
        // The task on the wire leads its project's order (``evolveDelivery``).
        guard let order = taskOrder[project], let first = order.first, let lead = tasks[first] else { return }
        if case .inFlight = lead.status { return }
        // Users whose earlier task waits aside: their later tasks wait behind it.
        var waitingAside: [UserIdentity?] = []
        for id in order {
            guard let queued = tasks[id] else { continue }
            if !waitingAside.isEmpty && waitingAside.contains(queued.task.user) { continue }
            switch queued.status {
            case .queued:
                emit(.taskDispatched(task: id, attempt: 1), &decisions)
                return
            case .awaitingToken(let next):
                emit(.taskDispatched(task: id, attempt: next), &decisions)
                return
            case .retrying(let next):
                // Its timer is gone (a restart, or it fired), or it goes now anyway: send it.
                if timers[.retry(id, attempt: next)] == nil || dueNow(queued) {
                    emit(.taskDispatched(task: id, attempt: next), &decisions)
                    return
                }
                // A backoff after no response or a busy server: the whole project waits it out.
                guard queued.aside != nil else { return }
                waitingAside.append(queued.task.user)
            case .inFlight:
                return
            }
        }
    }

    /// Sends, where their project is idle, the tasks that wait aside and may be sendable now:
    /// an instance started (the app gave projects with their keys and auth providers) or the
    /// engine did (``SDKConfiguration.knownProjects``).
    mutating func retryTasksAside(_ decisions: inout InputDecisions) {
        for project in taskOrder.keys.sorted() { dispatchIfIdle(project, &decisions) { $0.aside != nil } }
    }

    /// Ends the tasks of `project` that waited past the age limit
    /// (``EngineRules/deliveryAgeLimitMilliseconds``) and are not on the wire, their calls with
    /// them. An event's age is its own: a task whose oldest events are overdue loses them alone
    /// (``Fact/eventsExpired(task:calls:)``) and goes on with the younger ones. A task that waits
    /// aside fails once it has waited aside that long, or once it is that old, with the reason it
    /// could not be sent; any other overdue task is discarded (`expired`). A kept disable that can
    /// be sent never expires: it stops another project messaging this device. Tasks wait in the
    /// order they were made, so the overdue ones come first: the look stops at the first task
    /// still in time.
    private mutating func expireOverdueTasks(of project: ProjectFingerprint, _ decisions: inout InputDecisions) {
        guard let order = taskOrder[project] else { return }
        let (limit, overflow) = rules.deliveryAgeLimitMilliseconds.multipliedReportingOverflow(by: 1_000)
        // A task made before this time (µs) is overdue.
        let (latestOverdue, before) = decisions.time.microsecondsSince1970.subtractingReportingOverflow(limit)
        guard !overflow, !before else { return }
        var overdue: [(TaskID, Expiry)] = []
        scan: for id in order {
            guard let index = tasks.index(forKey: id) else { continue }
            // Looked at in place: reading the task out of the dictionary would copy it.
            let expiry = Self.expiry(of: &tasks.values[index], latestOverdue: latestOverdue)
            switch expiry {
            case .overdue, .overdueAside, .someEvents: overdue.append((id, expiry))
            case .exempt: continue scan
            case .inTime: break scan
            }
            if case .someEvents = expiry { break scan }
        }
        guard !overdue.isEmpty else { return }
        let reason = DiscardReason.expired(ageLimit: .milliseconds(rules.deliveryAgeLimitMilliseconds))
        for (id, expiry) in overdue {
            guard let queued = tasks[id] else { continue }
            switch expiry {
            case .overdue:
                complete(queued.task, .discarded(reason), &decisions)
            case .overdueAside:
                fail(queued.task, asideFailure(queued, waited: limit), &decisions)
            case .someEvents(let count):
                let expired = Array(queued.task.calls.prefix(count))
                emit(.eventsExpired(task: id, calls: expired), &decisions)
                for call in expired { resolve(call, .discarded(reason), &decisions) }
            case .exempt, .inTime:
                break
            }
        }
    }

    private enum Expiry {
        /// Every event of the task is overdue: discarded.
        case overdue
        /// The task waited aside past the age limit: it fails with the reason.
        case overdueAside
        /// Its first `count` events are overdue, the rest in time.
        case someEvents(Int)
        case exempt, inTime
    }

    /// Whether `queued` is overdue: made (or, for each event, queued) before `latestOverdue`
    /// (µs), or waiting aside since before it; one on the wire, or a disable that can be sent,
    /// is exempt. Inout so that the caller hands over the task where it lies.
    private static func expiry(of queued: inout QueuedTask, latestOverdue: Int64) -> Expiry {
        if queued.isInFlight { return .exempt }
        if let aside = queued.aside {
            if aside.since.microsecondsSince1970 < latestOverdue { return .overdueAside }
            if queued.task.isDisableDevice { return .exempt }
            return queued.task.createdAt.microsecondsSince1970 < latestOverdue ? .overdueAside : .exempt
        }
        if queued.task.isDisableDevice { return .exempt }
        // The task's oldest event is its own (or, once that expired, its batch's first).
        guard queued.task.oldestEventQueuedAt.microsecondsSince1970 < latestOverdue else { return .inTime }
        guard queued.task.hasBatch else { return .overdue }
        let times = queued.task.eventsQueuedAt
        let count = times.prefix { $0.microsecondsSince1970 < latestOverdue }.count
        return count == times.count ? .overdue : .someEvents(count)
    }

    /// How a task that waited aside fails: with the reason it could not be sent.
    private func asideFailure(_ queued: QueuedTask, waited limit: Int64) -> CallFailure {
        let why = queued.aside.map { Self.describe($0.reason, of: queued.task) } ?? "it could not be sent"
        return .authentication("not sent within the age limit of \(Duration.microseconds(limit).wholeMilliseconds / 1_000) s: \(why)")
    }

    /// Why a task's attempt could not be made, in words for its call's failure.
    static func describe(_ reason: NotSentReason, of task: DeliveryTask) -> String {
        switch reason {
        case .noToken(let said): "no JWT for its user from the auth provider (\(said))"
        case .tokenRefused(let said): "the auth provider refused a JWT for its user, who signed out (\(said))"
        case .noAPIKey: "no API key for project \(task.project) in the keyring"
        case .noAuthProvider:
            "no auth provider for project \(task.project): an app gives it with initialize, switchProject or SDKConfiguration.knownProjects"
        case .invalidEndpoint(let why): "its project's endpoint does not make a URL (\(why))"
        }
    }

    /// The app said the network is back: every project whose next request waits because its
    /// last attempt got no response sends it now, without waiting out its backoff; a task
    /// waiting aside for a JWT is tried again too (the auth provider may have been offline).
    mutating func handleNetworkReachable(_ decisions: inout InputDecisions) {
        guard !consentDeclined else { return }
        for project in taskOrder.keys.sorted() {
            dispatchIfIdle(project, &decisions) { queued in
                if queued.waitsForNetwork { return true }
                if case .noToken? = queued.aside?.reason { return true }
                return false
            }
        }
    }

    /// An exchange ended: deliver, retry, refresh the JWT, set it aside, or fail.
    mutating func handleTransport(_ completion: TransportCompletion, _ decisions: inout InputDecisions) {
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
            // The budget bounds refreshes in a row for this request: every request starts with
            // all of it, so a long-lived app with hourly tokens refreshes as often as it must.
            if queued.tokenRefreshes < retry.jwtRefreshBudget {
                emit(.authRefreshRequested(project: task.project, request: takeRequestNumber()), &decisions)
            } else {
                fail(task, .authentication("JWT rejected \(queued.tokenRefreshes + 1) times in a row: the refresh budget of \(retry.jwtRefreshBudget) for this request is spent"), &decisions)
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
        case .notSent(let reason):
            notSent(queued, after: completion.attempt, reason, retry: retry, &decisions)
        }
        dispatchIfIdle(task.project, &decisions)
        taskFinishedDuringSwitch(task.project, &decisions)
    }

    /// An attempt of `queued` could not be made. What no later attempt can change fails the task
    /// (the provider said its user signed out, its endpoint is not a URL); anything else sets it
    /// aside: tried again after the backoff (a missing key or auth provider, only when an
    /// instance starts, or its bound passes), failing once it waited aside for the age limit.
    private mutating func notSent(_ queued: QueuedTask, after attempt: Int, _ reason: NotSentReason, retry: RetryRules,
                                  _ decisions: inout InputDecisions) {
        let task = queued.task
        switch reason {
        case .tokenRefused:
            return fail(task, .authentication(Self.describe(reason, of: task)), &decisions)
        case .invalidEndpoint:
            return fail(task, .rejected(Self.describe(reason, of: task)), &decisions)
        case .noToken, .noAPIKey, .noAuthProvider:
            break
        }
        // Aside at most the age limit from when the task was made: tasks of one user wait aside
        // behind each other, and each must not wait it anew.
        let since = min(queued.aside?.since ?? decisions.time, task.createdAt)
        let (limit, overflow) = rules.deliveryAgeLimitMilliseconds.multipliedReportingOverflow(by: 1_000)
        let deadline = overflow ? JournalTime(microsecondsSince1970: .max) : since.advanced(byMicroseconds: limit)
        guard decisions.time < deadline else {
            return fail(task, .authentication("not sent within the age limit: \(Self.describe(reason, of: task))"), &decisions)
        }
        let due: JournalTime = switch reason {
        case .noToken: min(decisions.time.advanced(byMicroseconds: retry.delay(afterAttempt: attempt)), deadline)
        // Nothing but the app can bring a key or a provider: an instance start tries again.
        case .noAPIKey, .noAuthProvider, .tokenRefused, .invalidEndpoint: deadline
        }
        emit(.retryScheduled(task: task.id, attempt: attempt &+ 1, due: due, reason: .notSent(reason)), &decisions)
    }

    /// Sends `task` again after the backoff that follows attempt `attempt` (doubling, capped at
    /// `RetryRules.maxDelayMilliseconds`).
    private mutating func scheduleRetry(_ task: DeliveryTask, after attempt: Int, retry: RetryRules, reason: RetryReason,
                                        _ decisions: inout InputDecisions) {
        let due = decisions.time.advanced(byMicroseconds: retry.delay(afterAttempt: attempt))
        emit(.retryScheduled(task: task.id, attempt: attempt &+ 1, due: due, reason: reason), &decisions)
    }

    private mutating func fail(_ task: DeliveryTask, _ failure: CallFailure, _ decisions: inout InputDecisions) {
        complete(task, .failed(failure), &decisions)
    }

    /// Ends `task` with `outcome`: its `taskCompleted`, then each call it carried resolved, one
    /// by one, with the same outcome (``CallOutcome/init(_:project:)``).
    private mutating func complete(_ task: DeliveryTask, _ outcome: TaskOutcome, _ decisions: inout InputDecisions) {
        emit(.taskCompleted(task: task.id, outcome: outcome), &decisions)
        let each = CallOutcome(outcome, project: task.project)
        for call in task.calls { resolve(call, each, &decisions) }
    }

    /// Resolves every call a delivered task carried: delivered, except the events the answer
    /// refused, which fail alone (in call order either way). A disable's calls coalesced into it
    /// resolve with it, in one record, also when the SDK made the disable itself (a logout's).
    private mutating func resolveEach(of task: DeliveryTask, delivered status: Int, refused: [RefusedEvent],
                                      _ decisions: inout InputDecisions) {
        guard task.call != nil || !task.coalescedCalls.isEmpty else { return }
        if refused.isEmpty {
            let outcome = CallOutcome.delivered(project: task.project, status: status)
            if task.hasBatch || !task.coalescedCalls.isEmpty {
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
    private mutating func resolveAll(of task: DeliveryTask, _ outcome: CallOutcome, _ decisions: inout InputDecisions) {
        var resolved: [CallID] = []
        resolved.reserveCapacity(task.eventCount)
        func take(_ call: CallID) {
            guard let index = pendingCalls.index(forKey: call) else { return }
            removePendingCall(at: index)
            resolved.append(call)
        }
        if let call = task.call { take(call) }
        for call in task.batchCalls { take(call) }
        for call in task.coalescedCalls { take(call) }
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
    private mutating func storeMessages(_ ids: [String], kind: MessageKind, for task: DeliveryTask, _ decisions: inout InputDecisions) {
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
    mutating func handleTimer(_ purpose: TimerPurpose, _ decisions: inout InputDecisions) {
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

    /// The auth provider answered a refresh: the request that waited for it goes with the new
    /// token; without one, that request (and only it: a purge may have taken it meanwhile) is
    /// failed if the provider said its user signed out, else set aside like any attempt that
    /// found no JWT.
    mutating func handleAuthToken(_ receipt: AuthTokenReceipt, _ decisions: inout InputDecisions) {
        guard auth[receipt.project]?.refreshing == receipt.request else { return }
        emit(.authRefreshFinished(project: receipt.project, request: receipt.request, failure: receipt.failure), &decisions)
        if let failure = receipt.failure, let waiting = tokenWaiter(of: receipt.project), let queued = tasks[waiting],
           case .awaitingToken(let next) = queued.status {
            let reason: NotSentReason = receipt.refused ? .tokenRefused(failure) : .noToken(failure)
            notSent(queued, after: next &- 1, reason, retry: projects[receipt.project]?.retry ?? RetryRules(), &decisions)
        }
        dispatchIfIdle(receipt.project, &decisions)
        taskFinishedDuringSwitch(receipt.project, &decisions)
    }

    /// The task of `project` that waits for a refreshed JWT (the one whose 401 asked for it):
    /// at most one, since one task of a project is on the wire at a time.
    package func tokenWaiter(of project: ProjectFingerprint) -> TaskID? {
        taskOrder[project]?.first { if case .awaitingToken = tasks[$0]?.status { true } else { false } }
    }

    /// Discards queued tasks, keeping disableDevice ones when asked. A task on the wire goes
    /// too only with `onTheWire` (an erasure: its answer, whatever it says, is then ignored,
    /// and it is never sent again). `projects` limits the purge; nil purges every project's
    /// tasks. Only tasks numbered below `before` go (a switch keeps what was made during its window).
    mutating func purgeQueue(keepingDisables: Bool, reason: DiscardReason, projects only: Set<ProjectFingerprint>?,
                             before: UInt64 = .max, onTheWire: Bool = false, _ decisions: inout InputDecisions) {
        let victims = tasks.values
            .filter { queued in
                if keepingDisables && queued.task.isDisableDevice { return false }
                if case .inFlight = queued.status, !onTheWire { return false }
                if queued.task.id.number >= before { return false }
                return only.map { $0.contains(queued.task.project) } ?? true
            }
            .map(\.task)
            .sorted { $0.id < $1.id }
        for task in victims {
            complete(task, .discarded(reason), &decisions)
        }
        for project in Set(victims.map(\.project)).sorted() { dispatchIfIdle(project, &decisions) }
    }
}
