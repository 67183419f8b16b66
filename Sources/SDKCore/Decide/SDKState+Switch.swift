import Journal

/// The switch contract, as decisions: routing, the gate, the teardown state machine, landing.
///
/// A teardown is a sequence of steps, each journaled when it begins and when it finishes. Steps
/// that wait (for the disable to be durable, for module hooks, for pending deliveries) finish
/// when the input they wait for arrives or their bound's timer fires; meanwhile the mailbox keeps
/// processing calls (inline ones run, gated ones are held).
extension SDKState {
    // MARK: - Control calls

    /// Runs a control call (`received`, which is `control`): never gated, whatever runs.
    mutating func handleControlCall(_ control: ControlCall, _ received: ReceivedCall, _ decisions: inout InputDecisions) {
        switch control {
        case .flush:
            emit(.durabilityRequested(request: takeRequestNumber(), purpose: .flush(received.id)), &decisions)
        case .initialize(let project):
            initialize(received, project, &decisions)
        case .switchProject(let project):
            routeSwitch(received, to: project, &decisions)
        case .setConsent(let granted):
            changeConsent(granted: granted, received, &decisions)
        case .eraseLocalData:
            eraseLocalData(&decisions)
        }
    }

    /// `initialize` at launch: start on `project`; when the journal was on another project, that
    /// is a switch at launch (the old project's identity and storage are cleared, its disable kept).
    private mutating func initialize(_ received: ReceivedCall, _ project: ProjectRef, _ decisions: inout InputDecisions) {
        let idle = !switching.isSwitching && switching.queue.isEmpty
        if !instanceRunning && idle && (live.map { $0.isSameProject(as: project) } ?? true) {
            startInstance(on: project, &decisions)
            startModules(&decisions)
            resolve(received.id, .applied(project: project.fingerprint), &decisions)
            return
        }
        routeSwitch(received, to: project, &decisions)
    }

    /// Starts a new instance on `project` (``Fact/initialized(project:generation:)``). The app
    /// gave projects with their keys and auth providers: tasks waiting aside for them are tried
    /// again.
    mutating func startInstance(on project: ProjectRef, _ decisions: inout InputDecisions) {
        emit(.initialized(project: project, generation: generation &+ 1), &decisions)
        retryTasksAside(&decisions)
    }

    // MARK: - Routing

    /// Routes a switch request. The requested project is the queue's tail, else the switch in
    /// flight, else the live project; a request for it is absorbed by whatever will deliver it.
    /// A request for a project already queued further up moves that entry to the tail and joins
    /// it, so the queue never holds two entries for one project; anything else goes on the tail.
    /// A project is its key *and* its configuration: the live key with another region, endpoint
    /// or auth is a real switch.
    private mutating func routeSwitch(_ received: ReceivedCall, to project: ProjectRef, _ decisions: inout InputDecisions) {
        let id = SwitchID(switching.nextSwitchNumber)
        let idle = !switching.isSwitching && switching.queue.isEmpty
        let requested = switching.requestedProject ?? live
        if let requested, requested.isSameProject(as: project) {
            if let tail = switching.queue.last {
                emit(.switchRouted(switch: id, call: received.id, project: project, routing: .absorbed(into: tail.id)), &decisions)
            } else if let run = switching.inFlight {
                emit(.switchRouted(switch: id, call: received.id, project: project, routing: .absorbed(into: run.id)), &decisions)
            } else if instanceRunning {
                emit(.switchRouted(switch: id, call: received.id, project: project, routing: .noop), &decisions)
                resolve(received.id, .applied(project: project.fingerprint), &decisions)
            } else {
                // Relaunched on this project and not started yet: the request starts it.
                emit(.switchRouted(switch: id, call: received.id, project: project, routing: .initialization), &decisions)
                startNextSwitchIfReady(&decisions)
            }
            return
        }
        if live == nil && idle {
            emit(.switchRouted(switch: id, call: received.id, project: project, routing: .initialization), &decisions)
            startNextSwitchIfReady(&decisions)
            return
        }
        if let queued = switching.queue.first(where: { $0.project.isSameProject(as: project) }) {
            emit(.switchRouted(switch: id, call: received.id, project: project, routing: .moved(entry: queued.id)), &decisions)
            return
        }
        let behind = switching.queue.last?.id ?? switching.inFlight?.id ?? switching.releasingHeldCalls ?? switching.awaitingCallbacks
        emit(.switchRouted(switch: id, call: received.id, project: project, routing: behind.map { .enqueued(behind: $0) } ?? .started), &decisions)
        startNextSwitchIfReady(&decisions)
    }

    /// Starts the next queued switch when none runs, the last one's held calls are all replayed
    /// and its callbacks have run. A switch to the project the SDK was relaunched on, before its
    /// instance started, only starts it.
    mutating func startNextSwitchIfReady(_ decisions: inout InputDecisions) {
        guard !switching.isSwitching, switching.awaitingCallbacks == nil, switching.releasingHeldCalls == nil,
              let next = switching.queue.first else { return }
        let startsOnly = live.map { !instanceRunning && $0.isSameProject(as: next.project) } ?? true
        emit(.switchStarted(switch: next.id, from: startsOnly ? nil : live?.fingerprint, to: next.project), &decisions)
        beginStep(startsOnly ? .startInstance : .disablePush, &decisions)
    }

    // MARK: - Steps

    private func nextStep(after step: TeardownStepKind) -> TeardownStepKind? {
        switch step {
        case .disablePush: if case .deliverToOutgoing = rules.pendingEvents { .deliverPending } else { .resetInApp }
        case .deliverPending: .resetInApp
        case .resetInApp: .resetEmbedded
        case .resetEmbedded: .purgeQueue
        case .purgeQueue: .clearIdentity
        case .clearIdentity: .clearProjectStorage
        case .clearProjectStorage: .releaseInstance
        case .releaseInstance: .startInstance
        case .startInstance: nil
        }
    }

    private mutating func beginStep(_ step: TeardownStepKind, _ decisions: inout InputDecisions) {
        guard let run = switching.inFlight else { return }
        emit(.teardownStepBegan(switch: run.id, step: step), &decisions)
        let from = run.from
        switch step {
        case .disablePush:
            guard let from, pushToken != nil else {
                finishStep(.warning("no push token to disable"), &decisions)
                return
            }
            enqueue(.disableDevice, call: nil, on: from, identity: requestIdentity, &decisions)
            emit(.durabilityRequested(request: takeRequestNumber(), purpose: .teardownDisable(run.id)), &decisions)
            setBound(step, milliseconds: rules.disableDurabilityBoundMilliseconds, &decisions)
        case .deliverPending:
            guard let from, hasPendingEvents(of: from.fingerprint, before: run.firstTaskOfWindow) else {
                finishStep(.clean, &decisions)
                return
            }
            if case .deliverToOutgoing(let timeout) = rules.pendingEvents { setBound(step, milliseconds: timeout, &decisions) }
        case .resetInApp, .resetEmbedded:
            let (module, scope): (String, StorageScope) = step == .resetInApp ? (BuiltInModuleName.inApp, .inAppMessages)
                                                                               : (BuiltInModuleName.embedded, .embeddedMessages)
            if let from { emit(.storageCleared(project: from.fingerprint, scope: scope), &decisions) }
            if instanceRunning && moduleDescriptors.contains(where: { $0.name == module }) {
                startHook(module, .reset, &decisions)
            } else {
                finishStep(.clean, &decisions)
            }
        case .purgeQueue:
            guard let from else { return finishStep(.clean, &decisions) }
            // Kept aimed at the outgoing project: delivered as the network allows, after the switch.
            if case .keepForOutgoing = rules.pendingEvents { return finishStep(.clean, &decisions) }
            let reason: DiscardReason
            if case .deliverToOutgoing = rules.pendingEvents { reason = .undeliveredAtSwitch(run.id) } else { reason = .purgedBySwitch(run.id) }
            let undelivered = tasks.values.filter {
                !$0.task.isDisableDevice && $0.task.project == from.fingerprint && !$0.isInFlight && $0.task.id.number < run.firstTaskOfWindow
            }.count
            purgeQueue(keepingDisables: true, reason: reason, projects: [from.fingerprint], before: run.firstTaskOfWindow, &decisions)
            if case .deliverToOutgoing = rules.pendingEvents, undelivered > 0 {
                finishStep(.warning("\(undelivered) queued event(s) of the outgoing project could not be delivered in time and were discarded"), &decisions)
            } else {
                finishStep(.clean, &decisions)
            }
        case .clearIdentity:
            if let from { emit(.storageCleared(project: from.fingerprint, scope: .identity), &decisions) }
            finishStep(.clean, &decisions)
        case .clearProjectStorage:
            if let from { emit(.storageCleared(project: from.fingerprint, scope: .projectScoped), &decisions) }
            finishStep(.clean, &decisions)
        case .releaseInstance:
            guard instanceRunning, !moduleDescriptors.isEmpty else { return finishStep(.clean, &decisions) }
            for module in moduleDescriptors { startHook(module.name, .willSwitchProject(to: run.to.fingerprint), &decisions) }
        case .startInstance:
            startInstance(on: run.to, &decisions)
            if moduleDescriptors.isEmpty {
                finishStep(.clean, &decisions)
            } else {
                startModules(&decisions)
            }
        }
    }

    private mutating func setBound(_ step: TeardownStepKind, milliseconds: Int64, _ decisions: inout InputDecisions) {
        guard let run = switching.inFlight else { return }
        let due = decisions.time.advanced(byMilliseconds: milliseconds)
        emit(.timerSet(.teardownBound(run.id, step), due: due), &decisions)
    }

    private mutating func finishStep(_ outcome: StepOutcome, _ decisions: inout InputDecisions) {
        guard let run = switching.inFlight, let step = run.step else { return }
        let elapsed = decisions.time.microsecondsSince1970 &- run.stepStartedAt.microsecondsSince1970
        emit(.teardownStepFinished(switch: run.id, step: step, outcome: outcome, elapsedMicroseconds: elapsed), &decisions)
        if let next = nextStep(after: step) {
            beginStep(next, &decisions)
        } else {
            land(&decisions)
        }
    }

    /// The outcome of a step whose module hooks ended: clean, or a warning with their problems.
    private var stepOutcomeFromHooks: StepOutcome {
        let problems = switching.inFlight?.stepProblems ?? []
        return problems.isEmpty ? .clean : .warning(problems.joined(separator: "; "))
    }

    // MARK: - What steps wait for

    /// The outgoing disable is durable (or the journal failed to make it so).
    mutating func disableBecameDurable(_ id: SwitchID, failure: String?, _ decisions: inout InputDecisions) {
        guard let run = switching.inFlight, run.id == id, run.step == .disablePush else { return }
        finishStep(failure.map { .warning("the disable could not be made durable: \($0)") } ?? .clean, &decisions)
    }

    /// A step's bound passed before what it waited for.
    mutating func teardownBoundPassed(_ id: SwitchID, _ step: TeardownStepKind, _ decisions: inout InputDecisions) {
        guard let run = switching.inFlight, run.id == id, run.step == step else { return }
        switch step {
        case .disablePush:
            finishStep(.warning("the disable was not durable within \(rules.disableDurabilityBoundMilliseconds) ms"), &decisions)
        case .deliverPending:
            finishStep(.clean, &decisions)
        // Every other step's bound passing is a warning.
        case .resetInApp, .resetEmbedded, .purgeQueue, .clearIdentity, .clearProjectStorage, .releaseInstance, .startInstance:
            finishStep(.warning("\(step.rawValue) did not finish within its bound"), &decisions)
        }
    }

    /// A module hook ended: finish the step waiting on hooks once none of its hooks remain.
    mutating func continueSwitchAfterHooks(_ decisions: inout InputDecisions) {
        guard let run = switching.inFlight, let step = run.step else { return }
        switch step {
        case .resetInApp, .resetEmbedded:
            let module = step == .resetInApp ? BuiltInModuleName.inApp : BuiltInModuleName.embedded
            if !hooksPending({ $0.module == module && $0.signal == .reset }) { finishStep(stepOutcomeFromHooks, &decisions) }
        case .releaseInstance:
            if !hooksPending({ if case .willSwitchProject = $0.signal { true } else { false } }) {
                let outcome = stepOutcomeFromHooks
                for module in moduleDescriptors { deliver(.deinitialize, to: module.name, &decisions) }
                finishStep(outcome, &decisions)
            }
        case .startInstance:
            if !hooksPending({ $0.signal == .start }) { finishStep(stepOutcomeFromHooks, &decisions) }
        // Steps that wait on no module hook.
        case .disablePush, .deliverPending, .purgeQueue, .clearIdentity, .clearProjectStorage:
            break
        }
    }

    /// A task of `project` ended: a deliver-pending step may be done.
    mutating func taskFinishedDuringSwitch(_ project: ProjectFingerprint, _ decisions: inout InputDecisions) {
        guard let run = switching.inFlight, run.step == .deliverPending, run.from?.fingerprint == project,
              !hasPendingEvents(of: project, before: run.firstTaskOfWindow) else { return }
        finishStep(.clean, &decisions)
    }

    /// Whether `project` still has events queued from before the switch began.
    private func hasPendingEvents(of project: ProjectFingerprint, before window: UInt64) -> Bool {
        (taskOrder[project] ?? []).contains { $0.number < window && (tasks[$0].map { !$0.task.isDisableDevice } ?? false) }
    }

    // MARK: - Landing

    /// The switch lands: the SDK is on the new project. Calls held by the gate are replayed in
    /// order against it, then the switch's completions resolve; the next switch waits until
    /// those completions have run.
    private mutating func land(_ decisions: inout InputDecisions) {
        guard let run = switching.inFlight else { return }
        let result: SwitchResult = run.warnings.isEmpty ? .switchedCleanly : .switchedWithWarnings
        emit(.switchLanded(switch: run.id, project: run.to.fingerprint, result: result, reasons: run.warnings), &decisions)
        releaseHeldCalls(&decisions)
        for call in run.calls { resolve(call, .applied(project: run.to.fingerprint), &decisions) }
    }

    /// Replays the calls a landed switch's gate holds, in order, against the project it landed
    /// on, while the delivery queue has room for what each call would queue. What does not fit
    /// stays held (and later gated calls queue behind it) until tasks leave the queue: a call the
    /// gate accepted is never discarded for a smaller bound downstream.
    mutating func releaseHeldCalls(_ decisions: inout InputDecisions) {
        guard !switching.isSwitching, let id = switching.releasingHeldCalls, let project = live else { return }
        while let held = switching.gate.first {
            guard deliveryQueueHasRoom(for: held.call.call) else { return }
            emit(.gateDecided(call: held.call.id, decision: .replayed(switch: id, project: project.fingerprint)), &decisions)
            execute(held.call, on: project, &decisions)
        }
        startNextSwitchIfReady(&decisions)
    }

    /// Whether the tasks `call` would queue fit in the delivery queue now. An empty queue always
    /// takes the call (what cannot fit even then is discarded as before, never waited on forever).
    private func deliveryQueueHasRoom(for call: PublicCall) -> Bool {
        guard !tasks.isEmpty, let live else { return true }
        let identity = requestIdentity
        var count = 0
        var bytes = 0
        switch heldRoom(of: call) {
        case .identifying where call.arguments.first.map(Self.isGivenText) ?? false:
            count = pushToken == nil ? 0 : 1
            bytes = count * DeliveryTask.footprint(bodyBytes: 256 + CallLimits.pushTokenBytes + RequestBody.identityReserve, path: "users/registerDeviceToken",
                                                   endpoint: live.endpoint, region: live.region, query: nil, user: nil)
                + count * CallLimits.longestIdentityBytes
        case .nothing:
            count = 0
        case .heldEventWhileUnknown where !identity.isKnown:
            guard heldEvents.count < Self.heldEventCapacity else { return true }
            count = 1
            bytes = heldEventsReservation(adding: call)
        case .requestForKnownUser:
            guard identity.isKnown else { return true }
            guard let room = roomOfTask(for: call, identity: identity, on: live) else { return true }
            (count, bytes) = room
        case .itsRequest, .identifying, .heldEventWhileUnknown:
            guard let room = roomOfTask(for: call, identity: identity, on: live) else { return true }
            (count, bytes) = room
        }
        return count == 0 || queueHasRoom(forEvents: count, bytes: bytes)
    }

    /// The room `call` needs as its declaration states it (``HeldCallRoom``); only a gated call
    /// is ever held, any other is counted as its request.
    private func heldRoom(of call: PublicCall) -> HeldCallRoom {
        switch call.name.switchBehavior {
        case .gated(let room): room
        case .inline, .control: .itsRequest
        }
    }

    private static func isGivenText(_ value: ArgumentValue) -> Bool {
        if case .text(.some) = value { true } else { false }
    }

    /// The room (events, bytes) of the task `call` makes for `identity` on `live`: the request
    /// `RequestBody.make` builds; nil when it builds none.
    private func roomOfTask(for call: PublicCall, identity: RequestBody.Identity, on live: ProjectRef) -> (Int, Int)? {
        guard let request = RequestBody.make(for: call, identity: identity, pushToken: pushToken, time: time, sdkVersion: sdkVersion) else { return nil }
        return (1, footprint(of: request, for: UserIdentity(email: identity.email, userID: identity.userID), on: live))
    }

    // MARK: - Shutdown

    /// The app shut the SDK down: every call still pending resolves as discarded (its
    /// completion will hear nothing more), queued switches are dropped (they never ran), and
    /// the gate lets its calls go. A switch in flight stays recorded: it finishes at the next
    /// launch. Queued tasks stay in the offline queue.
    /// Lets every call the gate holds go, from the front (which is how `evolve` takes a refusal
    /// out of the gate), each resolved as discarded for `reason`.
    mutating func releaseGate(as reason: DiscardReason, _ decisions: inout InputDecisions) {
        for held in switching.gate {
            emit(.gateDecided(call: held.call.id, decision: .refused), &decisions)
            resolve(held.call.id, .discarded(reason), &decisions)
        }
    }

    mutating func handleStop(_ decisions: inout InputDecisions) {
        for request in switching.queue {
            emit(.switchCancelled(switch: request.id, reason: "the SDK shut down before this switch began"), &decisions)
        }
        releaseGate(as: .shutdown, &decisions)
        let pending = pendingCalls.sorted { ($0.value.madeAt, $0.key) < ($1.value.madeAt, $1.key) }.map(\.key)
        for call in pending { resolve(call, .discarded(.shutdown), &decisions) }
    }
}

extension QueuedTask {
    var isInFlight: Bool {
        if case .inFlight = status { true } else { false }
    }
}
