import Foundation
import Journal
import ReplayKit
import SDK

/// The checks made once a story has settled, over the final journal as a support engineer would
/// read it: `replay check`'s invariants (``ContractChecker``), `replay recheck` (``Recheck``),
/// projection equality at the end, and the backend's record against the journal's audit.
struct StoryAudit {
    private let world: SimulationWorld
    private var failures: [SimulationFailure] = []

    /// What the journal says about one task.
    private struct TaskRecord {
        var task: DeliveryTask
        var outcome: TaskOutcome?
        /// When its outcome was journaled (journal time).
        var completedAt: JournalTime?
        /// The 401 answers it got in a row (since its last no-response or 5xx/429 retry).
        var rejectedTokens = 0
    }

    private var tasks: [TaskID: TaskRecord] = [:]
    private var received: [CallID: (sequence: UInt64, name: PublicCall.Name)] = [:]
    private var resolved: [CallID: CallOutcome] = [:]
    /// How many resolutions the journal holds for each call (exactly one for every call it
    /// received).
    private var resolutions: [CallID: Int] = [:]
    /// Whether a journal gap was met yet (what it lost may include calls and resolutions).
    private var gapSeen = false
    /// The input whose decisions are being read, as much as the rules below need of it.
    private var input: AuditedInput = .other
    /// The call being carried out: the input's, or one a landing replays.
    private var executing: PublicCall.Name?
    /// The calls of held events released by the input being read, until each is a task.
    private var releasing: Set<CallID> = []
    private var released: Set<CallID> = []
    private var releasedAt: UInt64 = 0
    /// Why each call the journal rejected was rejected (`callRejected`).
    private var rejections: [CallID: String] = [:]
    /// The sequence of an `identityChanged` that made a user with a push token known: its
    /// next fact must queue the token's re-registration.
    private var registrationDue: UInt64?
    /// The message kinds (by project) a switch in flight has reset: none of them may be stored
    /// again before the next instance starts.
    private var messagesReset: Set<String> = []
    /// When the app said the network is back: the head task of each project that waited for a
    /// response, which must go (or expire) at once.
    private var waitingForNetwork: [TaskID: UInt64] = [:]
    /// Whether the input being read queued something (the queue's bounds are checked after it).
    private var queueGrew = false
    /// Calls whose resolution a journal gap lost (no longer pending in the state after it).
    private var settledInGap: Set<CallID> = []
    /// The generation that started each link job, and the job whose answer is being decided.
    private var linkJobGenerations: [UInt64: UInt64] = [:]
    private var answeringLink: UInt64?
    /// The generation each module start hook began in (its failure must name that one).
    private var startHooks: [UInt64: UInt64] = [:]
    /// The calls of the switch in flight when the app last shut the SDK down.
    private var inFlightAtStop: Set<CallID> = []
    /// The last `engineStarted`, the switch in flight then (interrupted by the restart), and
    /// whether that switch just landed.
    /// Calls the gate held, and those it replayed into an empty delivery queue (which may still
    /// refuse a call larger than its bound).
    private var gated: Set<CallID> = []
    private var replayedIntoEmptyQueue: Set<CallID> = []
    private var lastStart: UInt64 = 0
    private(set) var records = 0
    /// The calls of tasks that failed after waiting aside past the age limit (each fails so too).
    private var failedAside: Set<CallID> = []
    /// When each call's event (or request) joined the queue (journal time): its age is its own.
    private var queuedAt: [CallID: JournalTime] = [:]
    /// Documented outcomes met that are not deliveries, counted by their documentation.
    private(set) var explained: [String: Int] = [:]

    /// A disable that ends failed under the faults the world injected, by a documented rule
    /// (docs/ARCHITECTURE.md, "When a task cannot be sent"; docs/RELIABILITY.md).
    static let disableGaveUp = "documented: a disable failed by its rule under injected faults (5xx/429 retries spent, the auth provider failing or late, the JWT refresh budget spent)"

    /// A signed-out user's disable the app's auth server refuses (`userSignedOut`): it fails at
    /// once, naming why, and blocks nothing (docs/ARCHITECTURE.md).
    static let disableRefused = "documented: a signed-out user's disable failed at once, the auth provider refusing her a JWT (userSignedOut)"
    /// A disable that waited aside (no JWT, key or provider could be had) past the age limit.
    static let disableAsideTooLong = "documented: a disable waited aside past the age limit and failed (not sent within the age limit)"

    /// Liveness: once the network stays up and consent is given (the calm end), a task of a user
    /// a token can be had for, or one the auth provider refuses, ends within this (ms): the
    /// longest backoff (5 minutes), a request's timeout and a refresh, with room to spare.
    static let calmDeliveryBound: Int64 = 10 * 60_000

    init(world: SimulationWorld) {
        self.world = world
    }

    /// Runs every check; returns the failures found.
    static func run(_ world: SimulationWorld) -> (failures: [SimulationFailure], records: Int, explained: [String: Int]) {
        var audit = StoryAudit(world: world)
        audit.check()
        return (audit.failures, audit.records, audit.explained)
    }

    /// Why a disable's failure is allowed: the SDK gave up as designed under the faults the
    /// world injected. Nil: unexplained.
    static func explanation(of failure: CallFailure) -> String? {
        switch failure {
        case .authentication(let reason) where reason.hasPrefix("the auth provider refused a JWT"):
            disableRefused
        case .authentication(let reason) where reason.hasPrefix("not sent within the age limit"):
            disableAsideTooLong
        case .authentication(let reason) where reason.contains("refresh budget") || reason.contains("simulated auth provider failure")
            || reason.contains("did not answer within"):
            disableGaveUp
        case .retriesExhausted:
            disableGaveUp
        case .authentication, .rejected, .notInitialized, .httpStatus, .linkNotResolved, .notDurable:
            // Not what the world injected.
            nil
        }
    }

    private mutating func report(_ check: SimulationCheck, _ message: String) {
        if failures.count < 50 { failures.append(SimulationFailure(check: check, message: message)) }
    }

    private mutating func check() {
        guard let engine = world.process else { return }
        if engine.journalFailure == nil {
            do {
                try engine.writer.sync()
            } catch {
                report(.journal, "the journal could not be synchronized at the end: \(error)")
            }
        }
        let reader: JournalReader
        let walk: JournalWalk
        do {
            reader = try JournalReader(directory: SimulationWorld.journalDirectory, storage: world.storage.memory)
            // Read here: the simulation's workers already fill the cores, and a story's journal is small.
            walk = try JournalWalk(reader: reader, readsAhead: false)
        } catch {
            report(.journal, "the final journal cannot be read: \(error)")
            return
        }
        let checker = ContractChecker()
        let recheck = Recheck(limit: 3)
        do {
            while let record = try walk.next() {
                records += 1
                if case .unreadable(let reason) = record.content {
                    report(.journal, "record \(record.sequence) of the final journal is unreadable: \(reason)")
                }
                // The state lent, not read: reading `walk.state` copies it (a large share of a story's cost).
                walk.fold(record) { state, fact in
                    checker.consume(record, before: state)
                    recheck.consume(record, before: state)
                    if let fact { note(fact, sequence: record.sequence, time: record.time, state: state) }
                }
                // A journal that begins with an erasure's snapshot: the calls pending in it were
                // received in the records the erasure deleted.
                if records == 1 { notePendingAsReceived(walk.state, sequence: record.sequence) }
            }
        } catch {
            report(.journal, "reading the final journal stopped: \(error)")
        }
        checker.finish(state: walk.state)
        recheck.finish()
        finishInput(walk.state)
        checkEachResolvedOnce(walk.state)
        for rule in ContractRule.allCases {
            for violation in checker.violations[rule] ?? [] {
                let proof = violation.sequences.isEmpty ? "" : " (seq " + violation.sequences.map(String.init).joined(separator: ", ") + ")"
                report(.contract, "\(rule.rawValue): \(violation.message)\(proof)")
            }
        }
        for mismatch in recheck.mismatches {
            report(.recheck, mismatch.lines.joined(separator: " / "))
        }
        checkProjection(fold: walk.state, live: engine)
        checkSettled(walk.state)
        checkCalmEnd(walk.state)
        checkBackend(reader: reader)
        checkCrashes(journalID: reader.journalID)
    }

    private mutating func note(_ fact: Fact, sequence: UInt64, time: JournalTime, state: SDKState) {
        let isInput = FactKind(rawValue: FactCodec.kind(of: fact))?.isInput == true
        if isInput {
            finishInput(state)
            answeringLink = nil
            input = AuditedInput(fact)
            executing = if case .callReceived(let call) = fact { call.call.name } else { nil }
        }
        if let due = registrationDue {
            registrationDue = nil
            if case .taskQueued(let task) = fact, task.path == "users/registerDeviceToken" {
            } else {
                report(.contract, "the user became known with a push token (seq \(due)), but the token's re-registration is not journaled after it (seq \(sequence): \(FactSummary.text(fact)))")
            }
        }
        switch fact {
        case .engineStarted:
            lastStart = sequence
        case .engineStopping:
            inFlightAtStop = Set(state.switching.inFlight?.calls ?? [])
        case .moduleHookStarted(let hook, _, let event):
            if event == .start { startHooks[hook] = state.generation }
        case .moduleHookFinished(let hook, let problem):
            // A module's start reports what failed for its own instance, never another's.
            if let generation = startHooks.removeValue(forKey: hook), let problem, problem.contains("simulated failure"),
               !problem.hasSuffix("(generation \(generation))") {
                report(.contract, "a module's start for generation \(generation) reported another instance's failure: \(problem) (seq \(sequence))")
            }
        case .linkResolutionStarted(let job, _, _, _, let generation):
            linkJobGenerations[job] = generation
        case .linkResolved(let resolution):
            answeringLink = resolution.job
        case .attributionChanged(let project, _):
            // Late work is refused once its instance is gone: a link's attribution is written
            // only for the instance (generation) that started the job.
            if let job = answeringLink, let started = linkJobGenerations[job] {
                let generation = state.generation
                if started != generation || state.live?.fingerprint != project {
                    report(.contract, "link job \(job), started by generation \(started), wrote attribution for \(project) in generation \(generation) (seq \(sequence))")
                }
            }
        case .gateDecided, .eventBatched:
            // The gate's decision: a gateDecided's, or the one an eventBatched carries (1.3).
            if case .eventBatched(let id, let event, _) = fact {
                tasks[id]?.task.addToBatch(event, at: time)
                queuedAt[event.call] = time
                releasing.remove(event.call)
                queueGrew = true
            }
            guard let (call, decision) = fact.gateDecision else { break }
            switch decision {
            case .executed, .replayed, .inline:
                // A call the gate held is in the gate (its callReceived may be in a gap).
                executing = received[call]?.name ?? state.switching.gate.first { $0.call.id == call }?.call.call.name
            case .queued, .refused: break
            }
            if case .queued = decision { gated.insert(call) }
            if case .replayed = decision, state.tasks.isEmpty { replayedIntoEmptyQueue.insert(call) }
            if let expected = world.reactionTargets[call] {
                let landedOn: ProjectFingerprint? = switch decision {
                case .executed(let project), .replayed(_, let project), .inline(let project): project
                case .queued, .refused: nil
                }
                if let landedOn, landedOn != expected.project {
                    report(.contract, "call \(call), made from the callback of switch call \(expected.switch) (which landed on \(expected.project)), ran on \(landedOn) (seq \(sequence))")
                }
            }
        case .localDataErased:
            // The journal begins again here: the calls still pending were received in the
            // records the erasure deleted.
            notePendingAsReceived(state, sequence: sequence)
        case .journalGap(let gap):
            gapSeen = true
            // The switch's landing may be in the gap: what it reset is not known across it.
            messagesReset = []
            // A record over the journal's limit: no call's arguments (bounded) nor any state
            // the bounds allow should ever make one.
            if gap.reason.contains("over the journal's limit") {
                report(.journal, "a record was over the journal's limit: \(gap.reason) (seq \(sequence))")
            }
            let pending = state.pendingCalls
            for call in received.keys where resolved[call] == nil && pending[call] == nil { settledInGap.insert(call) }
        case .callReceived(let call):
            received[call.id] = (sequence, call.call.name)
        case .callRejected(let call, let reason):
            rejections[call] = reason
            // An argument over its limit is journaled as the call's name and the reason, never
            // the arguments (which may be of any size).
            if reason.contains(", at most "), case .callReceived(let made) = input.fact, made.id == call {
                if case .oversized(_, let recorded) = made.call {
                    if recorded != reason { report(.contract, "call \(call) was journaled oversized for \"\(recorded)\" but rejected for \"\(reason)\" (seq \(sequence))") }
                } else {
                    report(.contract, "call \(call) (\(made.call.name.rawValue)) was rejected over a limit (\(reason)), yet journaled with its arguments (seq \(sequence))")
                }
            }
        case .callResolved, .callsResolved:
            fact.forEachResolution { call, outcome in noteResolution(of: call, outcome, sequence: sequence, time: time, state: state) }
        case .taskQueued(let task):
            tasks[task.id] = TaskRecord(task: task)
            if let call = task.call { queuedAt[call] = time }
            if let call = task.call { releasing.remove(call) }
            queueGrew = true
        case .networkReachable:
            // While the user declined, nothing is sent, the network back or not.
            for (project, order) in state.taskOrder where state.auth[project]?.refreshing == nil && !state.consentDeclined {
                if let head = order.first, let queued = state.tasks[head], queued.waitsForNetwork,
                   case .retrying = queued.status {
                    waitingForNetwork[head] = sequence
                }
            }
        case .taskDispatched(let id, let attempt):
            waitingForNetwork[id] = nil
            // A request past its age limit is discarded when its turn comes, never sent (a
            // disable never expires); an event's age is its own, a task's its oldest event's.
            let limit = state.rules.deliveryAgeLimitMilliseconds
            if let task = tasks[id]?.task, !task.isDisableDevice {
                let age = (time.microsecondsSince1970 - task.oldestEventQueuedAt.microsecondsSince1970) / 1_000
                if age > limit {
                    report(.contract, "task \(id) was sent (attempt \(attempt)) \(age) ms after it was made, past the age limit of \(limit) ms (seq \(sequence))")
                }
            }
        case .retryScheduled(let id, _, let due, let reason):
            checkRetry(id, due: due, reason: reason, sequence: sequence, time: time, state: state)
            switch reason {
            case .noResponse, .serverBusy: tasks[id]?.rejectedTokens = 0
            case .notSent: break
            }
        case .eventsExpired(let id, let calls):
            tasks[id]?.task.removeExpiredEvents(calls)
            for call in calls { checkOwnAge(call, expiredAt: time, sequence: sequence, state: state) }
        case .disableCoalesced(let id, let call):
            tasks[id]?.task.coalesce(call)
        case .taskCompleted(let id, let outcome):
            tasks[id]?.outcome = outcome
            tasks[id]?.completedAt = time
            waitingForNetwork[id] = nil
            checkOutcome(outcome, call: nil, task: id, sequence: sequence, time: time, state: state)
        case .unknownUserEventsReleased:
            releasing = Set(state.heldEvents.map(\.call))
            released = releasing
            releasedAt = sequence
        case .identityChanged(let email, let userID):
            // The user became known (setEmail, setUserId): the push token is registered for them.
            let known = (executing == .setEmail && email != nil) || (executing == .setUserId && userID != nil)
            if known && state.pushToken != nil { registrationDue = sequence }
        case .storageCleared(let project, let scope):
            switch scope {
            case .inAppMessages: messagesReset.insert("\(project) \(MessageKind.inApp.rawValue)")
            case .embeddedMessages: messagesReset.insert("\(project) \(MessageKind.embedded.rawValue)")
            case .personalData:
                messagesReset.insert("\(project) \(MessageKind.inApp.rawValue)")
                messagesReset.insert("\(project) \(MessageKind.embedded.rawValue)")
            case .identity, .projectScoped: break
            }
        case .initialized:
            messagesReset = []
        case .messagesStored(let kind, let project, _):
            // A fetch answered after its kind was reset by the switch leaving the project is
            // refused: the messages must not outlive the teardown.
            if messagesReset.contains("\(project) \(kind.rawValue)") {
                report(.contract, "\(kind.rawValue) messages were stored for \(project) after the switch leaving it reset them (seq \(sequence))")
            }
        case .transportCompleted(let completion):
            if case .response(401, "InvalidJwtPayload"?, _, _) = completion.outcome { tasks[completion.task]?.rejectedTokens += 1 }
        // Facts the audit has no rule about.
        case .timerFired, .durabilityConfirmed, .moduleHookCompleted, .authTokenReceived,
             .callbacksDelivered, .notificationReceived, .clockJumped, .backgroundTaskBegan, .backgroundTaskExpired, .backgroundFlushFinished, .backgroundTaskEnded, .storageWasUnavailable, .keyringWriteFailed,
             .pushTokenChanged, .attributionRefused, .unknownUserEventHeld, .unknownUserSessionCounted, .staleResultRefused,
             .timerSet, .authRefreshRequested, .authRefreshFinished, .durabilityRequested,
             .moduleEventDelivered,
             .switchRouted, .switchStarted, .teardownStepBegan, .teardownStepFinished, .switchLanded, .switchCancelled,
             .unknown:
            break
        }
    }

    /// What a call's resolution must agree with (a `callResolved`, or one call of a
    /// `callsResolved`).
    private mutating func noteResolution(of call: CallID, _ outcome: CallOutcome, sequence: UInt64, time: JournalTime, state: SDKState) {
        let firstResolution = resolved[call] == nil
        resolved[call] = outcome
        resolutions[call, default: 0] += 1
        switch outcome.parts {
        case .task(let ended, _): checkOutcome(ended, call: call, task: nil, sequence: sequence, time: time, state: state)
        case .applied: break
        }
        // A switch's caller hears "not performed" or "interrupted" only for a call the SDK
        // resolved as discarded at shutdown, and hears it for every such call.
        // The switch in flight at the stop reports "interrupted", the ones still queued "not
        // performed".
        // (A switch interrupted by the shutdown lands at the next launch and resolves again.)
        if firstResolution, let result = world.switchResults[call],
           let made = world.callsMade[call], !world.launchesWithJournalFailure.contains(made.launch) {
            let stopped = result == .notPerformed || result == .interruptedByShutdown
            if stopped != (outcome == .discarded(.shutdown)) {
                report(.settle, "switch call \(call) reported \(result), but its outcome was \(outcome) (seq \(sequence))")
            } else if stopped, (result == .interruptedByShutdown) != inFlightAtStop.contains(call) {
                report(.settle, "switch call \(call) reported \(result) at shutdown, but it was \(inFlightAtStop.contains(call) ? "" : "not ")in flight (seq \(sequence))")
            }
        }
        // Nothing the gate accepted is lost at the landing because the smaller delivery
        // queue filled: the replay waits for room.
        if case .discarded(.queueFull) = outcome, gated.contains(call), !replayedIntoEmptyQueue.contains(call), state.heldEvents.count < 100 {
            report(.contract, "call \(call), held by the gate, was discarded at its replay because the delivery queue was full (seq \(sequence))")
        }
        // A switch reported done leaves the SDK running an instance of its project (a
        // relaunched SDK that was never initialized is not "already there"). Calls a
        // previous process made are not heard by anyone.
        if case .applied(let project) = outcome, let made = received[call], made.name == .switchProject, made.sequence > lastStart,
           !state.instanceRunning || state.live?.fingerprint != project {
            report(.contract, "switch call \(call) resolved as applied on \(project.map(\.description) ?? "nil"), yet no instance of it runs (seq \(sequence))")
        }
    }

    // MARK: - Honest failures

    /// The end of one input's decisions: every held event it released became a task (queued,
    /// batched, or refused by the full queue and journaled so).
    private mutating func finishInput(_ state: SDKState) {
        if queueGrew { checkQueueBounds(state) }
        queueGrew = false
        for (task, sequence) in waitingForNetwork.sorted(by: { $0.key < $1.key }) {
            report(.contract, "the app said the network is back (seq \(sequence)), but task \(task), which waited for a response, was not sent")
        }
        waitingForNetwork = [:]
        if !releasing.isEmpty {
            report(.contract, "\(releasing.count) event(s) held for an unknown user were released (seq \(releasedAt)) and became no task: "
                   + releasing.sorted().map(\.description).joined(separator: ", "))
        }
        releasing = []
        released = []
    }

    /// A task's outcome, or a call's told as its task's (``CallOutcome/parts``): a failure or a
    /// discard must have its honest cause.
    private mutating func checkOutcome(_ outcome: TaskOutcome, call: CallID?, task: TaskID?, sequence: UInt64, time: JournalTime,
                                       state: SDKState) {
        switch outcome {
        case .delivered: break
        case .failed(let failure): checkFailure(failure, call: call, task: task, sequence: sequence, state: state)
        case .discarded(let reason): checkDiscard(reason, call: call, task: task, sequence: sequence, time: time, state: state)
        }
    }

    /// The delivery queue keeps its bounds, in events and in footprint bytes, with the room the
    /// events held for an unknown user keep in it; only disables, which the bounds never refuse,
    /// may take it past them.
    private mutating func checkQueueBounds(_ state: SDKState) {
        var disables = 0
        var disableBytes = 0
        var waitingDisables: Set<DisableKey> = []
        for queued in state.tasks.values where queued.task.isDisableDevice {
            // A disable counts an event for itself and one for each call coalesced into it.
            disables += queued.task.eventCount
            disableBytes += queued.task.footprint
            // One disable not yet sent waits per project, user and device: a repeat is
            // coalesced into it. (One sent that came back to retry may wait beside it.)
            guard case .queued = queued.status else { continue }
            let key = DisableKey(project: queued.task.project, user: queued.task.user, body: queued.task.body)
            if !waitingDisables.insert(key).inserted {
                report(.liveness, "two disables of one device for \(queued.task.user.map(\.description) ?? "no user") wait in \(queued.task.project)'s queue (\(queued.task.id) and another): a repeat must be coalesced (at \(state.time))")
                break
            }
        }
        let events = state.queuedEvents + state.heldEvents.count
        if events > state.rules.queueCapacity + disables {
            report(.contract, "the delivery queue holds \(state.queuedEvents) event(s) and keeps room for \(state.heldEvents.count) held, past its bound of \(state.rules.queueCapacity) (and \(disables) of disables) (at \(state.time))")
        }
        let bytes = state.queueFootprint + (state.heldEvents.isEmpty ? 0 : state.heldEventsReservation)
        if bytes > state.rules.queueByteCapacity + disableBytes {
            report(.contract, "the delivery queue takes \(bytes) bytes with the room held events keep, past its bound of \(state.rules.queueByteCapacity) (and \(disableBytes) of disables) (at \(state.time))")
        }
    }

    /// A call or task fails only by an honest rule, each with the input that shows it: the
    /// project's answer (a status retrying cannot fix, an event refused, 5xx/429 answers up to
    /// the retry bound: never a request that got no response), the arguments (validation), no
    /// instance, or authentication (the JWT refresh budget, the auth provider).
    private mutating func checkFailure(_ failure: CallFailure, call: CallID?, task: TaskID?, sequence: UInt64, state: SDKState) {
        let subject = call.map { "call \($0)" } ?? "task \(task.map(\.description) ?? "?")"
        let answer = input.transportOutcome(for: task)
        func dishonest(_ why: String) {
            report(.contract, "\(subject) failed (\(failure)), but \(why) (seq \(sequence))")
        }
        switch failure {
        case .linkNotResolved:
            // A tracked link whose resolution came back without a destination.
            guard call != nil, case .linkResolved(let resolution)? = input.fact, resolution.failure != nil else {
                return dishonest("no failed link resolution came with it")
            }
        case .notDurable:
            // A flush whose journal could not be made durable (the disk failed).
            guard call != nil, case .durabilityConfirmed(let confirmation)? = input.fact, confirmation.failure != nil else {
                return dishonest("no failed durability came with it")
            }
        case .retriesExhausted(let last):
            guard case .response(let status, _, _, _)? = answer, status == 429 || status >= 500 else {
                return dishonest("its last attempt \(input.describeAnswer(for: task)): only 5xx/429 answers use a request up")
            }
            if let task, let project = tasks[task]?.task.project, let retry = state.projects[project]?.retry,
               !last.hasPrefix("\(retry.maxAttempts) attempts") {
                dishonest("the project allows \(retry.maxAttempts) such answers")
            }
        case .httpStatus(let status, let code, _):
            guard case .response(let answered, _, _, _)? = answer else {
                return dishonest("it \(input.describeAnswer(for: task))")
            }
            if code == "EventRefused" {
                if !(200..<300).contains(answered) { dishonest("the bulk was answered HTTP \(answered)") }
            } else if answered != status || (200..<300).contains(status) || status == 429 || status >= 500 {
                dishonest("the project answered HTTP \(answered)")
            }
        case .authentication(let reason):
            if reason.contains("refresh budget") {
                guard case .response(401, _, _, _)? = answer else { return dishonest("no 401 came with it: it \(input.describeAnswer(for: task))") }
                // The budget bounds refreshes in a row for one request: it is spent only by
                // that request's own 401s, one more than the budget.
                if let task, let record = tasks[task], let budget = state.projects[record.task.project]?.retry.jwtRefreshBudget,
                   record.rejectedTokens <= budget {
                    report(.liveness, "task \(task) (\(record.task.path)) failed (\(failure)) after \(record.rejectedTokens) rejected JWT(s) of its own: the refresh budget of \(budget) bounds one request's refreshes in a row (seq \(sequence))")
                }
            } else if reason.hasPrefix("the auth provider refused a JWT") {
                // The provider said the user signed out, for the attempt or for its refresh.
                let refused = if case .notSent(.tokenRefused)? = answer { true }
                    else if case .authTokenReceived(let receipt)? = input.fact { receipt.refused } else { false }
                if !refused { dishonest("the auth provider did not refuse a JWT for its user with it") }
            } else if reason.hasPrefix("not sent within the age limit") {
                // It waited aside (no JWT, no key, no provider) past the age limit; a call
                // fails so with its task.
                if let call, failedAside.contains(call) { return }
                // The bound counts from when the task was made (or went aside, if earlier).
                guard let task, let queued = state.tasks[task] else {
                    return dishonest("it was not queued")
                }
                failedAside.formUnion(queued.task.calls)
                let limit = state.rules.deliveryAgeLimitMilliseconds * 1_000
                let since = min(queued.aside?.since ?? queued.task.createdAt, queued.task.createdAt)
                let waited = state.time.microsecondsSince1970 - since.microsecondsSince1970
                if waited < limit { dishonest("it waited \(waited / 1_000) ms only") }
            } else {
                dishonest("no rule fails a request so")
            }
        case .rejected(let reason):
            if call == nil, case .notSent(.invalidEndpoint)? = answer { return }
            guard let call else { return dishonest("only a call is rejected") }
            let known = rejections[call] == reason || Self.rejectionsWithoutValidation.contains { reason.hasPrefix($0) }
            if !known { dishonest("no callRejected and no rule names that reason") }
        case .notInitialized:
            let state = state
            if call == nil || (state.live != nil && (state.instanceRunning || state.switching.isSwitching)) {
                dishonest("the SDK was initialized")
            }
        }
    }

    /// A call or task is discarded only by an honest rule: a purge (a logout, a switch leaving
    /// the project), a bound (the gate, the delivery queue: never a held event's reserved
    /// room), the age limit (past it), or the shutdown.
    private mutating func checkDiscard(_ reason: DiscardReason, call: CallID?, task: TaskID?, sequence: UInt64, time: JournalTime,
                                       state: SDKState) {
        let subject = call.map { "call \($0)" } ?? "task \(task.map(\.description) ?? "?")"
        func dishonest(_ why: String) {
            report(.contract, "\(subject) was discarded (\(reason)), but \(why) (seq \(sequence))")
        }
        let rules = state.rules
        switch reason {
        case .purgedByLogout:
            if executing != .logoutUser && !(executing == nil && gapSeen) { dishonest("no logout was being carried out") }
        case .purgedBySwitch(let id), .undeliveredAtSwitch(let id):
            guard let run = state.switching.inFlight, run.id == id, run.step == .purgeQueue else {
                return dishonest("that switch was not purging its queue")
            }
        case .gateFull(let capacity):
            if call == nil || capacity != rules.gateCapacity { dishonest("the gate holds \(rules.gateCapacity)") }
        case .queueFull(let capacity):
            if capacity != rules.queueCapacity && capacity != SDKState.heldEventCapacity {
                dishonest("the queue holds \(rules.queueCapacity) events")
            }
            if let task, let made = tasks[task]?.task.call, released.contains(made) {
                dishonest("it was an event held for an unknown user, whose room in the queue was reserved")
            }
        case .expired(let limit):
            if limit != .milliseconds(rules.deliveryAgeLimitMilliseconds) { dishonest("the age limit is \(rules.deliveryAgeLimitMilliseconds) ms") }
            if let call { checkOwnAge(call, expiredAt: time, sequence: sequence, state: state) }
            guard let task, let made = tasks[task]?.task else { return }
            let age = time.microsecondsSince1970 - made.createdAt.microsecondsSince1970
            if made.isDisableDevice { dishonest("a disable never expires") }
            if age <= rules.deliveryAgeLimitMilliseconds * 1_000 { dishonest("it waited \(age / 1_000) ms only") }
            if call == nil { for each in made.calls { checkOwnAge(each, expiredAt: time, sequence: sequence, state: state) } }
        case .shutdown:
            if call == nil || input.fact != .engineStopping { dishonest("the SDK was not shutting down") }
        case .consentDeclined:
            if !state.consentDeclined { dishonest("the user had not declined") }
        case .erased:
            if executing != .eraseLocalData { dishonest("no erasure was being carried out") }
        }
    }

    /// A retry waits for the reason its attempt gave (no response, or a 5xx/429 answer), and no
    /// longer than the project's longest backoff.
    private mutating func checkRetry(_ id: TaskID, due: JournalTime, reason: RetryReason, sequence: UInt64, time: JournalTime, state: SDKState) {
        let answer = input.transportOutcome(for: id)
        switch (reason, answer) {
        case (.noResponse, .networkError?):
            break
        case (.serverBusy, .response(let status, _, _, _)?) where status == 429 || status >= 500:
            break
        case (.notSent(let reason), .notSent(let said)?) where reason == said:
            break
        case (.notSent(.noToken(let failure)), nil):
            // A refresh the auth provider did not answer with a token.
            guard case .authTokenReceived(let receipt)? = input.fact, receipt.failure == failure, !receipt.refused else {
                report(.contract, "task \(id)'s retry says \(reason), but its attempt \(input.describeAnswer(for: id)) (seq \(sequence))")
                return
            }
        case (.noResponse, _), (.serverBusy, _), (.notSent, _):
            // Any other answer disagrees with the reason.
            report(.contract, "task \(id)'s retry says \(reason), but its attempt \(input.describeAnswer(for: id)) (seq \(sequence))")
        }
        guard let project = tasks[id]?.task.project, let retry = state.projects[project]?.retry else { return }
        // A missing key or auth provider waits for an instance start, up to the age limit.
        if case .notSent(.noAPIKey) = reason { return }
        if case .notSent(.noAuthProvider) = reason { return }
        let wait = due.microsecondsSince1970 - time.microsecondsSince1970
        if wait > retry.maxDelayMilliseconds * 1_000 || wait < 0 {
            report(.contract, "task \(id)'s retry waits \(wait / 1_000) ms, past the project's longest backoff of \(retry.maxDelayMilliseconds) ms (seq \(sequence))")
        }
    }

    /// Reasons a call is rejected for other than its arguments (`callRejected`).
    static let rejectionsWithoutValidation = [
        "no user identity", "no push token registered", "attribution refused", "the link resolved after the instance",
    ]


    /// Counts the calls pending in `state` as received (at `sequence`) where the journal no
    /// longer holds their `callReceived`.
    private mutating func notePendingAsReceived(_ state: SDKState, sequence: UInt64) {
        for index in state.pendingCalls.indices {
            let pending = state.pendingCalls[index]
            if received[pending.key] == nil { received[pending.key] = (sequence, pending.value.name) }
        }
    }

    /// Every call the journal received has exactly one resolution in it: none is resolved twice,
    /// and none vanishes (neither resolved nor pending at the end), unless a journal gap lost
    /// its facts.
    private mutating func checkEachResolvedOnce(_ state: SDKState) {
        guard world.process?.journalFailure == nil else { return }
        for (call, count) in resolutions.sorted(by: { $0.key < $1.key }) {
            if count > 1 {
                report(.settle, "call \(call) (\(received[call]?.name.rawValue ?? "?")) has \(count) resolutions in the journal")
            } else if received[call] == nil && !gapSeen {
                report(.settle, "call \(call) is resolved in the journal, which never received it")
            }
        }
        for (call, entry) in received.sorted(by: { $0.key < $1.key })
        where resolutions[call] == nil && state.pendingCall(call) == nil && !settledInGap.contains(call) {
            report(.settle, "call \(call) (\(entry.name.rawValue), seq \(entry.sequence)) has no resolution in the journal and is not pending")
        }
    }

    // MARK: - Liveness

    /// An event (or request) expired at its own age, on the world's clock: no wall-clock jump
    /// and no older event of its bulk may make it expire young.
    private mutating func checkOwnAge(_ call: CallID, expiredAt time: JournalTime, sequence: UInt64, state: SDKState) {
        guard let joined = queuedAt[call] else { return }
        let limit = state.rules.deliveryAgeLimitMilliseconds
        let age = (world.worldTime(ofJournal: time).microsecondsSince1970 - world.worldTime(ofJournal: joined).microsecondsSince1970) / 1_000
        if age < limit {
            report(.liveness, "call \(call) expired \(age) ms after it was queued (on the device's monotonic clock), before the age limit of \(limit) ms (seq \(sequence))")
        }
    }

    /// Whether the app's auth server mints a JWT for `user` on `project` at the story's end.
    private func tokenCanBeHad(for user: UserIdentity?, on project: ProjectFingerprint) -> Bool {
        guard world.projects.first(where: { $0.fingerprint == project })?.usesJWT == true,
              let signedIn = world.authSignedIn, let user else { return true }
        return signedIn.contains(user.value)
    }

    /// From the calm end on (network up for good, consent given, no fault), every task ends
    /// within its bound on the world's clock: ``calmDeliveryBound`` for a user a token can be
    /// had for (never failed: delivered, or discarded by the app's own calls or its age) or one
    /// the auth provider refuses
    /// (failed at once); the age limit and a day for one whose provider keeps failing (it waits
    /// aside, then fails). None waits forever.
    private mutating func checkCalmEnd(_ state: SDKState) {
        guard let calm = world.calmFrom, world.process?.journalFailure == nil else { return }
        let ageLimit = world.process?.state.rules.deliveryAgeLimitMilliseconds ?? EngineRules().deliveryAgeLimitMilliseconds
        var reported = 0
        for (id, record) in tasks.sorted(by: { $0.key < $1.key }) {
            let ended = record.completedAt.map { world.worldTime(ofJournal: $0) }
            if let ended, ended < calm { continue }
            let task = record.task
            let obtainable = tokenCanBeHad(for: task.user, on: task.project)
            let bound = obtainable || world.authRefusesSignedOut ? Self.calmDeliveryBound : ageLimit + SimulationWorld.settleSlackMilliseconds
            let start = max(calm, world.worldTime(ofJournal: task.createdAt))
            let who = "task \(id) (\(task.path) for \(task.user.map(\.description) ?? "no user") on \(task.project))"
            guard let ended, let outcome = record.outcome else {
                // Ended in a journal gap, or erased with the records before the erasure.
                if state.tasks[id] == nil { continue }
                if reported < 5 { report(.liveness, "\(who) never ended after the calm end") }
                reported += 1
                continue
            }
            let took = (ended.microsecondsSince1970 - start.microsecondsSince1970) / 1_000
            if took > bound {
                if reported < 5 { report(.liveness, "\(who) ended \(outcome) \(took / 1_000) s after the network stayed up with consent given, past its bound of \(bound / 1_000) s") }
                reported += 1
            }
            // Discarded it may be, by the app's own calls (a switch, a logout) or its age;
            // failed it may not: nothing failed it but the SDK.
            guard obtainable, case .failed(let failure) = outcome else { continue }
            if reported < 5 { report(.liveness, "\(who) ended failed (\(failure)) after the calm end, though the network stayed up, consent was given and a token could be had for its user") }
            reported += 1
        }
    }

    // MARK: - Projection

    /// The live state at the end equals the fold of the whole journal (or, when the journal
    /// failed in this process, the fold equals the state as of the failure).
    private mutating func checkProjection(fold: SDKState, live: SimulatedProcess) {
        if let failure = live.journalFailure {
            report(.journal, "after the calm end the journal still does not record: \(failure)")
        }
        if live.journalFailure == nil {
            if fold != live.state {
                report(.projection, "at the end, the live state differs from the fold of the journal" + SimulationWorld.firstDifference(fold, live.state))
            }
        } else if let failure = world.journalFailure, failure.launch == world.launch, fold != failure.state {
            report(.projection, "the journal failed (\(failure.reason)); the fold of what it kept differs from the state then"
                   + SimulationWorld.firstDifference(fold, failure.state))
        }
    }

    // MARK: - Settling

    /// After the calm end nothing is left waiting, and every call the running process made heard
    /// back exactly once.
    private mutating func checkSettled(_ state: SDKState) {
        guard world.process?.journalFailure == nil else { return }
        var leftovers: [String] = []
        if !state.pendingCalls.isEmpty {
            leftovers.append("\(state.pendingCalls.count) pending call(s) (\(state.pendingCalls.values.map(\.name.rawValue).sorted().joined(separator: ", ")))")
        }
        if !state.tasks.isEmpty { leftovers.append("\(state.tasks.count) queued task(s)") }
        if state.switching.isSwitching { leftovers.append("a switch in flight (at step \(state.switching.inFlight?.step?.rawValue ?? "none"))") }
        if !state.switching.queue.isEmpty { leftovers.append("\(state.switching.queue.count) queued switch(es)") }
        if let waiting = state.switching.awaitingCallbacks { leftovers.append("switch \(waiting) still awaiting its callbacks") }
        if !state.switching.gate.isEmpty { leftovers.append("\(state.switching.gate.count) call(s) behind the gate") }
        if !state.hooks.isEmpty { leftovers.append("\(state.hooks.count) module hook(s)") }
        if !state.durabilityWaits.isEmpty { leftovers.append("\(state.durabilityWaits.count) durability wait(s)") }
        if !leftovers.isEmpty {
            report(.settle, "after the calm end the SDK still holds " + leftovers.joined(separator: "; "))
        }
        let launch = world.launch
        for (call, made) in world.callsMade.sorted(by: { $0.key < $1.key }) where made.launch == launch && made.completions != 1 {
            report(.settle, "the completion of call \(call) (\(made.name.rawValue)), made by the running process, ran \(made.completions) time(s)")
        }
    }

    // MARK: - The backend against the journal

    /// What each project received against the journal, call by call: `replay reconcile`'s
    /// reconciliation (``JournalReconciler``) of the final journal with the backend's receipt
    /// log (``SimulatedBackend/receiptLog()``), and what the receipt log does not show.
    ///
    /// A call received by another project than its task's (`elsewhere`), one the journal says
    /// delivered that its project never took (`lost`), one stored twice (`duplicate`), or a
    /// receipt of the journal's stream no call explains while no crash, journal failure or erasure
    /// could have lost its call (`unjournaled`), is a failure; so is a receipt whose endpoint is not
    /// its call's. A call the journal says failed or discarded that the project has anyway
    /// (`unconfirmed`: its answer lost, or the request on the wire when an erasure or a decline
    /// discarded it) is counted as documented; a receipt later than the journal's outcome
    /// (`late`) is no failure here: the backend stamps the world's time, the journal the
    /// device's, and the story jumps the device's wall clock (a request sent again behind the
    /// SDK's back is the privacy checks' to find).
    private mutating func checkBackend(reader: JournalReader) {
        for misroute in world.backend.misroutes { report(.backend, "misrouted: \(misroute)") }
        // What the journal alone says: a disable that failed must have been allowed to, and a
        // delivered task's calls resolve as delivered to its project.
        for (id, record) in tasks.sorted(by: { $0.key < $1.key }) {
            guard case .delivered? = record.outcome else {
                if record.task.isDisableDevice, case .failed(let failure)? = record.outcome {
                    if let explanation = Self.explanation(of: failure) {
                        explained[explanation, default: 0] += 1
                    } else {
                        report(.backend, "the disable \(id) for \(record.task.project) failed (\(failure)) and never reached its project")
                    }
                }
                continue
            }
            for call in record.task.calls {
                if case .delivered(let project, _)? = resolved[call], project != record.task.project {
                    report(.backend, "call \(call) resolved as delivered to \(project), but its task \(id) went to \(record.task.project)")
                }
            }
        }
        guard reader.journalID != nil else { return }
        // As `replay reconcile` does: the journal and the log in one pass, in time order.
        let log = world.backend.receiptLog()
        let reconciler = JournalReconciler()
        do {
            let text = log.map { $0.json + "\n" }.joined()
            try reconciler.reconcile(journals: [("journal", reader)],
                                     receiptReaders: [("received.ndjson", ReceiptLogReader(bytes: Array(text.utf8)))])
        } catch {
            report(.backend, "the final journal cannot be reconciled: \(error)")
            return
        }
        for problem in reconciler.problems { report(.backend, "reconciling the backend's receipt log: \(problem)") }
        let crashed = !world.crashes.isEmpty || world.journalFailure != nil
        for row in reconciler.rows() {
            let receipts = row.receipts.map { receipt in
                let line = log[receipt.line - 1]
                return "\(line.endpoint) on \(receipt.project) \(receipt.status.map(String.init) ?? "unanswered")\(receipt.duplicate ? " (re-send)" : "") at line \(receipt.line)"
            }.joined(separator: "; ")
            let call = row.call.map { call in
                "\(call.call.map { "call \($0)" } ?? "the SDK's own request") (task \(call.task), \(call.endpoint) to \(call.project), "
                    + "journal: \(call.outcome.map { "\($0)" } ?? "pending"))"
            } ?? "no call of the journal (\(row.endpoint ?? "?"))"
            // Each receipt is of its call's endpoint (a track's event may leave in a bulk, a
            // bulk's first event alone).
            if let journalCall = row.call {
                let tracks = [DeliveryTask.trackPath, DeliveryTask.bulkTrackPath]
                for receipt in row.receipts {
                    let path = log[receipt.line - 1].endpoint
                    if path != journalCall.endpoint && !(tracks.contains(path) && tracks.contains(journalCall.endpoint)) {
                        report(.backend, "\(call) was received as \(path) (line \(receipt.line))")
                    }
                }
            }
            switch row.verdict {
            case .agreed:
                break
            case .elsewhere, .lost, .duplicate:
                report(.backend, "\(row.verdict.rawValue): \(call); received: \(receipts.isEmpty ? "none" : receipts)")
            case .unjournaled:
                // Sent before its task's record was durable, and a crash (or the journal's
                // failure) lost that record: the app was never told it was delivered; or on the
                // wire when an erasure deleted its records (received after the erased range).
                if !crashed && !reconciler.holes.contains(where: { $0.journal == row.journal }) { report(.backend, "unjournaled: \(call); received: \(receipts)") }
            case .unconfirmed:
                explained[Self.receivedUnconfirmed, default: 0] += 1
            case .late:
                break
            }
        }
    }

    /// A call the journal says failed or was discarded, which its project received anyway.
    static let receivedUnconfirmed = "documented: a project received a call the journal says failed or discarded (its answer lost, or the request on the wire when it was discarded): `replay reconcile` says unconfirmed"

    /// Every call durable before a crash is still in the journal and resolved by the end.
    private mutating func checkCrashes(journalID: UUID?) {
        guard world.process?.journalFailure == nil else { return }
        for crash in world.crashes where crash.journalID == journalID {
            for (call, entry) in received.sorted(by: { $0.key < $1.key })
            where entry.sequence <= crash.durableSequence && resolved[call] == nil && !settledInGap.contains(call) {
                report(.settle, "call \(call) (\(entry.name.rawValue)) was durable before a crash (seq \(entry.sequence)) but never resolved")
            }
        }
    }
}

/// The input a run of decisions answers, as the audit's rules read it.
private struct AuditedInput {
    var fact: Fact?

    static let other = AuditedInput(nil)

    init(_ fact: Fact?) {
        self.fact = fact
    }

    /// What the exchange of `task` that this input ends came back with, if it is one.
    func transportOutcome(for task: TaskID?) -> TransportOutcome? {
        guard case .transportCompleted(let completion)? = fact, task == nil || completion.task == task else { return nil }
        return completion.outcome
    }

    /// What came back, in words: `got no response (timed out)`, `was answered HTTP 503`, or
    /// what the input was instead.
    func describeAnswer(for task: TaskID?) -> String {
        switch transportOutcome(for: task) {
        case .networkError(let error)?: "got no response (\(error))"
        case .notSent(let reason)?: "was not sent (\(reason))"
        case .response(let status, let code, _, _)?: "was answered HTTP \(status)" + (code.map { " \($0)" } ?? "")
        case nil: "came with \(fact.map { FactSummary.text($0) } ?? "no input")"
        }
    }
}

/// A disable as coalescing tells it apart: its project, user and body (the device).
private struct DisableKey: Hashable {
    var project: ProjectFingerprint
    var user: UserIdentity?
    var body: [UInt8]
}
