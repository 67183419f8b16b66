import Journal

extension SDKState {
    /// The state after `fact`, journaled at `time`. Total, pure and deterministic: no clock, no
    /// I/O, no randomness. Facts of unknown kinds change nothing.
    public func evolved(by fact: Fact, at time: JournalTime) -> SDKState {
        var next = self
        next.evolve(fact, at: time)
        return next
    }

    /// Applies `fact`, journaled at `time` (see ``evolved(by:at:)``).
    public mutating func evolve(_ fact: Fact, at time: JournalTime) {
        self.time = time
        switch fact {
        // MARK: Inputs that change what the SDK knows
        case .engineStarted(let start):
            rules = start.options
            moduleDescriptors = start.modules
            sdkVersion = start.sdkVersion
            // Requests on the wire when the process ended never answered: they go again.
            for (id, queued) in tasks {
                if case .inFlight(let attempt) = queued.status { tasks[id]?.status = .retrying(nextAttempt: attempt &+ 1) }
            }
            for project in auth.keys { auth[project]?.refreshing = nil }
            // The completions of a switch that landed in the previous process died with it:
            // nothing will report them run, so the next switch must not wait for them.
            switching.awaitingCallbacks = nil
            instanceRunning = false
        case .callReceived(let received):
            pendingCalls[received.id] = PendingCall(
                name: received.call.name, madeAt: time, caller: received.caller, projectAtCall: live?.fingerprint)
        case .timerFired(let purpose):
            timers[purpose] = nil
        case .durabilityConfirmed(let confirmation):
            durabilityWaits[confirmation.request] = nil
        case .moduleHookCompleted:
            break
        case .callbacksDelivered(let id):
            if switching.awaitingCallbacks == id { switching.awaitingCallbacks = nil }
        case .transportCompleted, .authTokenReceived, .notificationReceived, .engineStopping:
            break
        case .linkResolved(let resolution):
            linkJobs[resolution.job] = nil

        // MARK: Lifecycle and identity
        case .initialized(let project, let generation):
            live = project
            instanceRunning = true
            projects[project.fingerprint] = project
            self.generation = generation
            // A fresh refresh budget per instance, but a refresh already asked for stays
            // awaited: its task (another project's, made during a switch) waits on its answer.
            auth = auth.compactMapValues { $0.refreshing.map { AuthState(refreshesUsed: 0, refreshing: $0) } }
            clearedProjects.remove(project.fingerprint)
        case .gateDecided(let call, let decision):
            switch decision {
            case .queued(_, _, let received):
                let bytes = FactCodec.payload(of: .callReceived(received)).count
                switching.gate.append(GatedCall(call: received, madeAt: time, bytes: bytes))
                switching.gateBytes += bytes
            case .replayed:
                if let index = switching.gate.firstIndex(where: { $0.call.id == call }) {
                    switching.gateBytes -= switching.gate[index].bytes
                    switching.gate.remove(at: index)
                }
                if switching.gate.isEmpty { switching.replaying = nil }
            case .refused:
                // A refused call was never held (a full gate refuses thousands in a burst: no
                // scan of the gate for them), except when the SDK lets the gate go at shutdown,
                // which it does from the front.
                if let head = switching.gate.first, head.call.id == call {
                    switching.gateBytes -= head.bytes
                    switching.gate.removeFirst()
                    if switching.gate.isEmpty { switching.replaying = nil }
                }
            default:
                break
            }
        case .callRejected:
            break
        case .identityChanged(let email, let userID):
            self.email = email
            self.userID = userID
        case .pushTokenChanged(let token):
            pushToken = token
        case .attributionChanged(_, let info):
            attribution = info
        case .attributionRefused:
            break
        case .unknownUserEventHeld(_, let call, let event):
            heldEvents.append(HeldEvent(call: call, event: event))
        case .unknownUserSessionCounted:
            unknownUserSessions &+= 1
        case .unknownUserEventsReleased:
            heldEvents = []
            unknownUserSessions = 0

        // MARK: Delivery
        case .taskQueued(let task):
            tasks[task.id] = QueuedTask(task: task, status: .queued)
            taskOrder[task.project, default: []].append(task.id)
            queuedBytes += task.body.count
            nextTaskNumber = max(nextTaskNumber, task.id.number &+ 1)
            if projects[task.project] == nil, let live, live.fingerprint == task.project { projects[task.project] = live }
        case .taskDispatched(let id, let attempt):
            tasks[id]?.status = .inFlight(attempt: attempt)
        case .taskCompleted(let id, _):
            removeTask(id)
        case .timerSet(let purpose, let due):
            timers[purpose] = due
            if case .retry(let id, let attempt) = purpose { tasks[id]?.status = .retrying(nextAttempt: attempt) }
        case .callResolved(let call, _):
            pendingCalls[call] = nil
        case .authRefreshRequested(let project, let request):
            auth[project, default: AuthState()].refreshesUsed &+= 1
            auth[project, default: AuthState()].refreshing = request
            nextRequestNumber = max(nextRequestNumber, request &+ 1)
            for id in taskOrder[project] ?? [] {
                if case .inFlight(let attempt) = tasks[id]?.status { tasks[id]?.status = .awaitingToken(nextAttempt: attempt &+ 1) }
            }
        case .authRefreshFinished(let project, _, _):
            auth[project]?.refreshing = nil

        // MARK: Modules
        case .moduleEventDelivered(let module, let event, _, let generation):
            var lifecycle = modules[module] ?? ModuleLifecycle()
            if lifecycle.generation != generation { lifecycle = ModuleLifecycle(generation: generation) }
            switch event {
            case .initialize: lifecycle.initialized = true
            case .start: lifecycle.started = true
            case .deinitialize: lifecycle.deinitialized = true
            default: break
            }
            modules[module] = lifecycle
        case .moduleHookStarted(let hook, let module, let event):
            hooks[hook] = PendingHook(module: module, event: event, startedAt: time)
            nextRequestNumber = max(nextRequestNumber, hook &+ 1)
        case .moduleHookFinished(let hook, let problem):
            if let problem, switching.inFlight?.step != nil { switching.inFlight?.stepProblems.append(problem) }
            hooks[hook] = nil
            timers[.moduleHookBound(hook: hook)] = nil
        case .messagesStored(let kind, _, let ids):
            switch kind {
            case .inApp: inAppMessageIDs = ids
            case .embedded: embeddedMessageIDs = ids
            }
        case .storageCleared(let project, let scope):
            switch scope {
            case .identity:
                email = nil
                userID = nil
                pushToken = nil
            case .projectScoped:
                attribution = nil
                heldEvents = []
                unknownUserSessions = 0
                clearedProjects.insert(project)
            case .inAppMessages:
                inAppMessageIDs = []
            case .embeddedMessages:
                embeddedMessageIDs = []
            }
        case .durabilityRequested(let request, let purpose):
            durabilityWaits[request] = purpose
            nextRequestNumber = max(nextRequestNumber, request &+ 1)
        case .journalGap, .staleResultRefused:
            break
        case .linkResolutionStarted(let job, let call, let url, let project, let generation):
            linkJobs[job] = LinkJob(call: call, url: url, project: project, generation: generation)
            nextRequestNumber = max(nextRequestNumber, job &+ 1)

        // MARK: Switching
        case .switchRouted, .switchStarted, .teardownStepBegan, .teardownStepFinished, .switchLanded, .switchCancelled:
            evolveSwitch(fact, at: time)

        case .unknown:
            break
        }
    }

    /// Removes a task from the queue (delivered, failed or discarded).
    mutating func removeTask(_ id: TaskID) {
        guard let removed = tasks.removeValue(forKey: id) else { return }
        queuedBytes -= removed.task.body.count
        taskOrder[removed.task.project]?.removeAll { $0 == id }
        if taskOrder[removed.task.project]?.isEmpty == true { taskOrder[removed.task.project] = nil }
        if !timers.isEmpty {
            let stale = timers.keys.filter { if case .retry(id, _) = $0 { true } else { false } }
            for purpose in stale { timers[purpose] = nil }
        }
    }
}
