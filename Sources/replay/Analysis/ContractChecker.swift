import Journal
import SDK

/// Checks the switch contract's invariants (``ContractRule``) over a journal, as it streams.
///
/// Independent of the SDK's own bookkeeping where it can be: it tracks the gate's queue, the
/// switches in flight, the live project and module lifecycles from the facts themselves, and
/// uses the folded state only for what the facts cannot tell (which calls are pending).
/// Memory is bounded by the state: pending calls, queued tasks, the gate, open switches.
final class ContractChecker {
    /// At most this many violations are kept per rule (all are counted).
    static let keptPerRule = 100
    /// How many resolutions are remembered to name a call's first resolution.
    static let rememberedResolutions = 100_000

    private(set) var violations: [ContractRule: [Violation]] = [:]
    private(set) var counts: [ContractRule: Int] = [:]
    private(set) var records = 0

    /// Where a gated call must be delivered.
    private enum Target {
        case project(ProjectFingerprint, because: UInt64)
        /// Made while a switch was in flight: the first switch to land after it decides.
        case nextLanding
    }

    private var started = false
    private var gateQueue: [(call: CallID, sequence: UInt64?)] = []
    private var targets: [CallID: (target: Target, received: UInt64)] = [:]
    private var received: [CallID: UInt64] = [:]
    private var resolvedAt: [CallID: UInt64] = [:]
    private var resolvedOrder: [CallID] = []
    private var resolvedHead = 0
    private var tasks: [TaskID: (path: String, queued: UInt64?)] = [:]
    private var cleared: [ProjectFingerprint: UInt64?] = [:]
    private var modules: [String: (generation: UInt64, initialized: Bool, started: Bool, deinitialized: Bool)] = [:]
    private var switchTargets: [SwitchID: ProjectFingerprint] = [:]
    private var pendingSwitches: Set<SwitchID> = []
    private var lastRouted: (id: SwitchID, project: ProjectFingerprint, sequence: UInt64)?
    private var lastLive: (project: ProjectFingerprint, sequence: UInt64)?
    /// A snapshot that differed from the fold before it, reported unless the next record says
    /// facts were lost there (a journal gap: the journal came back with a new segment).
    private var unexplainedSnapshot: Violation?
    /// The projects' labels, for the violations' messages.
    private var labels = ProjectLabels()

    /// Takes in one record; `state` is the state before it.
    func consume(_ record: DecodedRecord, before state: SDKState) {
        records += 1
        if let pending = unexplainedSnapshot {
            unexplainedSnapshot = nil
            if case .fact(.journalGap) = record.content {} else { report(pending.rule, pending.message, pending.sequences) }
        }
        labels.learn(from: record)
        switch record.content {
        case .snapshot(let snapshot):
            if started {
                compare(snapshot: snapshot, fold: state, at: record.sequence)
            } else {
                adopt(snapshot)
            }
            started = true
            return
        case .unreadable:
            return
        case .fact(let fact):
            if !started { adopt(state) }
            started = true
            check(fact, at: record.sequence, state: state)
        }
    }

    /// The checks that need the whole journal; `state` is the final state.
    func finish(state: SDKState) {
        if let pending = unexplainedSnapshot {
            unexplainedSnapshot = nil
            report(pending.rule, pending.message, pending.sequences)
        }
        if pendingSwitches.isEmpty, let routed = lastRouted, let live = state.live?.fingerprint, live != routed.project {
            report(.chainSettles, "no switch is pending, yet the SDK is on \(labels.name(live)) while the last switch request (\(routed.id)) asked for \(labels.name(routed.project))",
                   [routed.sequence] + (lastLive.map { [$0.sequence] } ?? []))
        }
        for (call, pending) in state.pendingCalls.sorted(by: { ($0.value.madeAt, $0.key) < ($1.value.madeAt, $1.key) }) {
            guard !Self.isLegitimatelyPending(call, in: state) else { continue }
            report(.resolvedOnce, "call \(call) (\(pending.name.rawValue), made \(pending.madeAt)) never resolved, and nothing the SDK still holds would resolve it",
                   received[call].map { [$0] } ?? [])
        }
    }

    var isClean: Bool { counts.values.allSatisfy { $0 == 0 } }

    // MARK: - Starting point

    /// Takes over what the state at the walk's start already holds.
    private func adopt(_ state: SDKState) {
        gateQueue = state.switching.gate.map { ($0.call.id, nil) }
        for held in state.switching.gate where held.call.call.name.switchBehavior == .gated {
            targets[held.call.id] = (.nextLanding, 0)
        }
        for (id, queued) in state.tasks { tasks[id] = (queued.task.path, nil) }
        for project in state.clearedProjects { cleared[project] = .some(nil) }
        for (name, lifecycle) in state.modules {
            modules[name] = (lifecycle.generation, lifecycle.initialized, lifecycle.started, lifecycle.deinitialized)
        }
        if let run = state.switching.inFlight {
            pendingSwitches.insert(run.id)
            switchTargets[run.id] = run.to.fingerprint
        }
        for request in state.switching.queue {
            pendingSwitches.insert(request.id)
            switchTargets[request.id] = request.project.fingerprint
        }
    }

    /// After a journal gap: forget what the facts told, take the state over again.
    private func gapRestart(_ state: SDKState) {
        gateQueue = []
        targets = [:]
        tasks = [:]
        cleared = [:]
        modules = [:]
        switchTargets = [:]
        pendingSwitches = []
        lastRouted = nil
        lastLive = nil
        adopt(state)
        unexplainedSnapshot = nil
    }

    // MARK: - Facts

    private func check(_ fact: Fact, at sequence: UInt64, state: SDKState) {
        switch fact {
        case .callReceived(let call):
            received[call.id] = sequence
            if call.call.name.switchBehavior == .gated {
                if state.switching.inFlight != nil {
                    targets[call.id] = (.nextLanding, sequence)
                } else if let live = state.live?.fingerprint {
                    targets[call.id] = (.project(live, because: lastLive?.sequence ?? sequence), sequence)
                }
            }
        case .gateDecided(let call, let decision):
            switch decision {
            case .queued(_, let position, _):
                if position != gateQueue.count {
                    report(.fifoReplay, "call \(call) was queued at position \(position) while the gate held \(gateQueue.count) call(s)", [sequence])
                }
                gateQueue.append((call, sequence))
            case .replayed(_, let project):
                if let head = gateQueue.first, head.call != call {
                    let queuedAt = gateQueue.first { $0.call == call }?.sequence
                    report(.fifoReplay, "call \(call) was replayed before call \(head.call), which was queued earlier",
                           [head.sequence, queuedAt, sequence].compactMap { $0 })
                } else if gateQueue.isEmpty {
                    report(.fifoReplay, "call \(call) was replayed but was never queued", [sequence])
                }
                gateQueue.removeAll { $0.call == call }
                expect(call, deliveredTo: project, at: sequence, what: "replayed")
            case .executed(let project):
                expect(call, deliveredTo: project, at: sequence, what: "executed")
            case .refused:
                // Only the SDK's shutdown refuses a call it held, from the front of the gate: it
                // leaves it. (A full gate refuses calls it never held: nothing to scan for.)
                if gateQueue.first?.call == call { gateQueue.removeFirst() }
                targets[call] = nil
            case .inline:
                break
            }
        case .taskQueued(let task):
            tasks[task.id] = (task.path, sequence)
            if let call = task.call { expect(call, deliveredTo: task.project, at: sequence, what: "its task \(task.id) was queued") }
        case .taskCompleted(let id, let outcome):
            let task = tasks.removeValue(forKey: id)
            if case .discarded(let reason) = outcome, task?.path == "users/disableDevice" {
                report(.disableKept, "disableDevice task \(id) was discarded (\(Describe.discard(reason)))",
                       [task?.queued, sequence].compactMap { $0 })
            }
        case .callResolved(let call, let outcome):
            if state.pendingCalls[call] == nil {
                let first = resolvedAt[call]
                report(.resolvedOnce, first.map { "call \(call) was resolved again (first at seq \($0))" }
                       ?? "call \(call) was resolved but was not pending (resolved before, or never received)",
                       [first, sequence].compactMap { $0 })
            }
            switch outcome {
            case .delivered(let project, _), .applied(let project?):
                expect(call, deliveredTo: project, at: sequence, what: "resolved")
            default:
                break
            }
            targets[call] = nil
            received[call] = nil
            remember(call, resolvedAt: sequence)
        case .switchRouted(let id, _, let project, let routing):
            lastRouted = (id, project.fingerprint, sequence)
            switch routing {
            case .started, .enqueued, .initialization:
                pendingSwitches.insert(id)
                switchTargets[id] = project.fingerprint
            case .absorbed, .noop, .moved:
                break
            }
        case .switchCancelled(let id, _):
            pendingSwitches.remove(id)
            switchTargets[id] = nil
            // A shutdown cancels every queued switch: the chain now ends where the switch still
            // pending (the one in flight, finished at the next launch) goes, or nowhere.
            if let routed = lastRouted, !switchTargets.values.contains(routed.project) {
                lastRouted = pendingSwitches.sorted(by: { "\($0)" < "\($1)" }).last.flatMap { pending in
                    switchTargets[pending].map { (pending, $0, sequence) }
                }
            }
        case .journalGap:
            // Facts are missing here: what the rules track from the facts themselves starts over
            // from the state (the snapshot that follows a gap), never judged across it.
            gapRestart(state)
        case .switchStarted(let id, _, let to):
            if let headed = switchTargets[id], headed != to.fingerprint {
                report(.chainSettles, "\(id) was requested for \(labels.name(headed)) but started towards \(labels.name(to.fingerprint))", [sequence])
            }
            switchTargets[id] = to.fingerprint
        case .switchLanded(let id, let project, _, _):
            if let headed = switchTargets[id], headed != project {
                report(.chainSettles, "\(id) was headed for \(labels.name(headed)) but landed on \(labels.name(project))", [sequence])
            }
            pendingSwitches.remove(id)
            switchTargets[id] = nil
            for (call, entry) in targets {
                if case .nextLanding = entry.target { targets[call] = (.project(project, because: sequence), entry.received) }
            }
        case .initialized(let project, _):
            lastLive = (project.fingerprint, sequence)
            cleared[project.fingerprint] = nil
        case .storageCleared(let project, .projectScoped):
            cleared[project] = .some(sequence)
        case .attributionChanged(let project, _):
            if let clearedAt = cleared[project] {
                report(.attributionAfterClear, "attribution written for \(labels.name(project)) after its project-scoped storage was cleared"
                       + (clearedAt.map { " (seq \($0))" } ?? " (before the journal's start)") + ", and it was not live again",
                       [clearedAt, sequence].compactMap { $0 })
            }
        case .moduleEventDelivered(let module, let event, _, let generation):
            checkModule(module, event, generation: generation, at: sequence)
        case .moduleHookStarted(_, let module, let event):
            if let lifecycle = modules[module], lifecycle.deinitialized {
                report(.moduleOrder, "module \(module) heard \(Describe.moduleEvent(event)) after its deinitialize (generation \(lifecycle.generation))", [sequence])
            }
        default:
            break
        }
    }

    private func expect(_ call: CallID, deliveredTo project: ProjectFingerprint, at sequence: UInt64, what: String) {
        guard let entry = targets[call] else { return }
        switch entry.target {
        case .project(let expected, let because) where expected != project:
            report(.deliveryTarget, "gated call \(call) \(what) on \(labels.name(project)), but it belonged to \(labels.name(expected))",
                   [entry.received, because, sequence].filter { $0 != 0 })
        case .nextLanding:
            report(.deliveryTarget, "gated call \(call), made during a switch, \(what) on \(labels.name(project)) before any switch landed",
                   [entry.received, sequence].filter { $0 != 0 })
        default:
            break
        }
    }

    private func checkModule(_ module: String, _ event: ModuleEvent, generation: UInt64, at sequence: UInt64) {
        var lifecycle = modules[module] ?? (generation, false, false, false)
        if generation < lifecycle.generation {
            report(.moduleOrder, "module \(module) heard \(Describe.moduleEvent(event)) for generation \(generation) after generation \(lifecycle.generation) began", [sequence])
            return
        }
        if generation > lifecycle.generation { lifecycle = (generation, false, false, false) }
        let name = Describe.moduleEvent(event)
        if lifecycle.deinitialized {
            report(.moduleOrder, "module \(module) heard \(name) after its deinitialize (generation \(generation))", [sequence])
        }
        switch event {
        case .initialize:
            if lifecycle.initialized { report(.moduleOrder, "module \(module) initialized twice in generation \(generation)", [sequence]) }
            lifecycle.initialized = true
        case .start:
            if !lifecycle.initialized { report(.moduleOrder, "module \(module) started before it was initialized (generation \(generation))", [sequence]) }
            if lifecycle.started { report(.moduleOrder, "module \(module) started twice in generation \(generation)", [sequence]) }
            lifecycle.started = true
        case .deinitialize:
            lifecycle.deinitialized = true
        default:
            if !lifecycle.initialized { report(.moduleOrder, "module \(module) heard \(name) before it was initialized (generation \(generation))", [sequence]) }
        }
        modules[module] = lifecycle
    }

    private func compare(snapshot: SDKState, fold: SDKState, at sequence: UInt64) {
        guard StateCodec.encode(snapshot) != StateCodec.encode(fold) else { return }
        let diff = DocumentDiff(from: StateDocument.make(fold), to: StateDocument.make(snapshot))
        let first = diff.changes.first.map { " (first difference: \($0.path))" } ?? " (they differ outside what `replay state` shows)"
        unexplainedSnapshot = Violation(rule: .snapshotAgrees, message: "the snapshot at seq \(sequence) differs from the fold of the facts before it\(first)",
                                        sequences: [sequence])
    }

    private func remember(_ call: CallID, resolvedAt sequence: UInt64) {
        resolvedAt[call] = sequence
        resolvedOrder.append(call)
        if resolvedOrder.count - resolvedHead > Self.rememberedResolutions {
            resolvedAt[resolvedOrder[resolvedHead]] = nil
            resolvedHead += 1
            if resolvedHead > Self.rememberedResolutions {
                resolvedOrder.removeFirst(resolvedHead)
                resolvedHead = 0
            }
        }
    }

    private func report(_ rule: ContractRule, _ message: String, _ sequences: [UInt64]) {
        counts[rule, default: 0] += 1
        if violations[rule, default: []].count < Self.keptPerRule {
            violations[rule, default: []].append(Violation(rule: rule, message: message, sequences: sequences))
        }
    }

    /// Whether something the SDK still holds will resolve `call`: a queued task, the gate, a
    /// switch, a durability wait.
    static func isLegitimatelyPending(_ call: CallID, in state: SDKState) -> Bool {
        if state.tasks.values.contains(where: { $0.task.call == call }) { return true }
        if state.switching.gate.contains(where: { $0.call.id == call }) { return true }
        if state.switching.inFlight?.calls.contains(call) == true { return true }
        if state.switching.queue.contains(where: { $0.calls.contains(call) }) { return true }
        if state.durabilityWaits.values.contains(.flush(call)) { return true }
        return false
    }
}
