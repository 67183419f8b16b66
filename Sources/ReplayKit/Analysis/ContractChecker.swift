import Journal
import SDK

/// Checks the switch contract's invariants (``ContractRule``) over a journal, as it streams.
///
/// Independent of the SDK's own bookkeeping where it can be: it tracks the gate's queue, the
/// switches in flight, the live project and module lifecycles from the facts themselves, and
/// uses the folded state only for what the facts cannot tell (which calls are pending).
/// Memory is bounded by the state: pending calls, queued tasks, the gate, open switches.
package final class ContractChecker {
    /// At most this many violations are kept per rule (all are counted).
    static let keptPerRule = 100
    /// How many resolutions are remembered at least (up to twice as many) to name a call's
    /// first resolution.
    static let rememberedResolutions = 100_000

    package private(set) var violations: [ContractRule: [Violation]] = [:]
    package private(set) var counts: [ContractRule: Int] = [:]
    package private(set) var records = 0

    /// Where a gated call must be delivered.
    enum Target {
        case project(ProjectFingerprint, because: UInt64)
        /// Made while a switch was in flight: the first switch to land after it decides.
        case nextLanding
    }

    private var started = false
    /// Whether the next snapshot begins again after records lost to damage (``resumeAfterSkip()``).
    private var restartsAtSnapshot = false
    // What the rules remember from the facts (each `ContractChecker+<Rules>` file keeps its own).
    var gateQueue: [(call: CallID, sequence: UInt64?)] = []
    var targets: [CallID: (target: Target, received: UInt64)] = [:]
    var received: [CallID: UInt64] = [:]
    /// Where the latest resolutions were (``remember(_:resolvedAt:)``), and the ones before them.
    var resolvedAt: [CallID: UInt64] = [:]
    var resolvedBefore: [CallID: UInt64] = [:]
    var tasks: [TaskID: (path: String, queued: UInt64?)] = [:]
    var cleared: [ProjectFingerprint: UInt64?] = [:]
    var modules: [String: (generation: UInt64, initialized: Bool, started: Bool, deinitialized: Bool)] = [:]
    var switchTargets: [SwitchID: ProjectFingerprint] = [:]
    var pendingSwitches: Set<SwitchID> = []
    var lastRouted: (id: SwitchID, project: ProjectFingerprint, sequence: UInt64)?
    var lastLive: (project: ProjectFingerprint, sequence: UInt64)?
    /// A snapshot that differed from the fold before it, reported unless the next record says
    /// facts were lost there (a journal gap: the journal came back with a new segment).
    private var unexplainedSnapshot: Violation?
    /// The projects' labels, for the violations' messages.
    var labels = ProjectLabels()

    package init() {}

    /// Takes in one record; `state` is the state before it.
    package func consume(_ record: DecodedRecord, before state: SDKState) {
        consume(record, looking: Self.look(at: record, in: state), unstarted: started ? nil : state)
    }

    /// Takes in one record with what the rules read of the state before it (``look(at:in:)``
    /// of that state). The first record the checker takes in goes to ``consume(_:before:)``:
    /// a checker that has not started takes over the state itself.
    package func consume(_ record: DecodedRecord, looking look: Look) {
        consume(record, looking: look, unstarted: nil)
    }

    /// Takes in one record with what the rules read of the state before it, and `unstarted`, the
    /// state before it for a checker that has not started (which takes it over at its first
    /// snapshot or fact): a walk that looks for the checker hands it until then.
    package func consume(_ record: DecodedRecord, looking look: Look, unstarted: SDKState?) {
        records += 1
        if let pending = unexplainedSnapshot {
            unexplainedSnapshot = nil
            if case .fact(.journalGap) = record.content {} else { report(pending.rule, pending.message, pending.sequences) }
        }
        labels.learn(from: record)
        switch record.content {
        case .snapshot(let snapshot):
            if restartsAtSnapshot {
                restartsAtSnapshot = false
                gapRestart(snapshot)
            } else if started {
                guard case .state(let fold) = look else { preconditionFailure("a snapshot's look holds the state before it") }
                compare(snapshot: snapshot, fold: fold, at: record.sequence)
            } else {
                adopt(snapshot)
            }
            started = true
            return
        case .unreadable:
            return
        case .fact:
            if !started {
                guard let unstarted else { preconditionFailure("a checker starts with a record and the state before it") }
                adopt(unstarted)
            }
            started = true
            check(look, at: record.sequence)
        }
    }

    /// Takes in `count` records in a row that change nothing but the count of records
    /// (unreadable ones, and facts that ``passesOver(_:looking:)``), as ``consume(_:looking:)`` takes
    /// each: counted, and none of them a journal gap, so a snapshot's difference held back for
    /// the record after it is reported.
    func passOver(_ count: Int) {
        guard count > 0 else { return }
        records += count
        if let pending = unexplainedSnapshot {
            unexplainedSnapshot = nil
            report(pending.rule, pending.message, pending.sequences)
        }
    }

    /// The checks that need the whole journal; `state` is the final state.
    package func finish(state: SDKState) {
        if let pending = unexplainedSnapshot {
            unexplainedSnapshot = nil
            report(pending.rule, pending.message, pending.sequences)
        }
        finishSwitchChain(state: state)
        finishResolutions(state: state)
    }

    package var isClean: Bool { counts.values.allSatisfy { $0 == 0 } }

    // MARK: - Starting point

    /// Takes over what the state at the walk's start already holds.
    private func adopt(_ state: SDKState) {
        gateQueue = state.switching.gate.map { ($0.call.id, nil) }
        // Calls held by a switch that has landed (replayed as the delivery queue makes room) go
        // to the project it landed on, the live one; those held by a switch in flight, to the
        // next landing.
        let landedOn = state.switching.isSwitching || state.switching.releasingHeldCalls == nil ? nil : state.live?.fingerprint
        for held in state.switching.gate where held.call.call.name.isGated {
            targets[held.call.id] = (landedOn.map { .project($0, because: 0) } ?? .nextLanding, 0)
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

    /// The walk skipped records lost to damage (a reader that goes on past it): the snapshot it
    /// resumes at is taken over as after a journal gap, not compared with a fold that misses
    /// the lost records, and what the facts told before is forgotten (a call's end, a
    /// switch's landing there are not known, and are not violations).
    package func resumeAfterSkip() {
        restartsAtSnapshot = true
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

    /// Hands what the rules take in from a fact (``look(at:in:)``, which says which facts
    /// they read) to the rules it concerns (one family of rules a file: `ContractChecker+<Rules>`).
    private func check(_ look: Look, at sequence: UInt64) {
        switch look {
        case .nothing: break
        case .received(let call, let gated, let switching, let live):
            callReceived(call, gated: gated, switching: switching, live: live, at: sequence)
        case .decided(let call, let decision): gateDecided(call, decision, at: sequence)
        case .batched(let call, let task, let executedOn, let into):
            // The gate's decision first, when it travels here (format 1.3).
            if let executedOn { gateDecided(call, .executed(project: executedOn), at: sequence) }
            if let into { expect(call, deliveredTo: into, at: sequence, what: "its event joined task \(task)") }
        case .taskQueued(let id, let path, let call, let project): taskQueued(id, path: path, call: call, project: project, at: sequence)
        case .taskCompleted(let id, let outcome): taskCompleted(id, outcome, at: sequence)
        case .resolved(let call, let outcome, let wasPending): checkResolution(of: call, outcome, at: sequence, wasPending: wasPending)
        case .resolvedEach(let calls, let outcome, let pending): checkResolutions(of: calls, outcome, at: sequence, pending: pending)
        case .switchRouted(let id, let project, let routing): switchRouted(id, to: project, routing, at: sequence)
        case .switchCancelled(let id): switchCancelled(id, at: sequence)
        case .switchStarted(let id, let to): switchStarted(id, to: to, at: sequence)
        case .switchLanded(let id, let project): switchLanded(id, on: project, at: sequence)
        case .state(let state):
            // Facts are missing here (lost, or erased on request): what the rules track from the
            // facts themselves starts over from the state (the snapshot before the fact), never
            // judged across it.
            gapRestart(state)
        case .wentLive(let project): projectWentLive(project, at: sequence)
        case .storageCleared(let project, let scope): storageCleared(project, scope, at: sequence)
        case .attributionWritten(let project): attributionWritten(for: project, at: sequence)
        case .moduleSignal(let module, let signal, let generation): checkModule(module, signal, generation: generation, at: sequence)
        case .hookStarted(let module, let signal): hookStarted(module, signal, at: sequence)
        }
    }

    /// `snapshot-agrees`: a segment's snapshot equals the fold of the facts before it (reported
    /// at the next record, unless that is a journal gap).
    private func compare(snapshot: SDKState, fold: SDKState, at sequence: UInt64) {
        guard StateCodec.encode(snapshot) != StateCodec.encode(fold) else { return }
        let diff = DocumentDiff(from: StateDocument.make(fold), to: StateDocument.make(snapshot))
        let first = diff.changes.first.map { " (first difference: \($0.path))" } ?? " (they differ outside what `replay state` shows)"
        unexplainedSnapshot = Violation(rule: .snapshotAgrees, message: "the snapshot at seq \(sequence) differs from the fold of the facts before it\(first)",
                                        sequences: [sequence])
    }

    /// Counts a violation of `rule` and keeps it (up to ``keptPerRule``).
    func report(_ rule: ContractRule, _ message: String, _ sequences: [UInt64]) {
        counts[rule, default: 0] += 1
        if violations[rule, default: []].count < Self.keptPerRule {
            violations[rule, default: []].append(Violation(rule: rule, message: message, sequences: sequences))
        }
    }
}
