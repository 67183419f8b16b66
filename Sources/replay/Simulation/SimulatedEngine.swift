import Foundation
import Journal
import SDK

/// One process's SDK engine, single-threaded on the world's virtual clock: the real pure core
/// (`SDKState.decide`, `FactCodec`, `StateCodec`) and a real `JournalWriter` over in-memory
/// storage, with `EngineLoop`'s input handling and effects mirrored step for step (see
/// `SimulatedEngine+Effects.swift` and docs/RELIABILITY.md for the few differences).
///
/// It also keeps what the checks need: a shadow state folded from the *decoded* journal payloads
/// (projection equality at every input) and the state at each input boundary since the last
/// durable record (what a crash may leave).
final class SimulatedEngine {
    unowned let world: SimulationWorld
    /// Which launch of the app this engine is (events of older launches are dropped).
    let launch: Int
    /// Where facts are recorded; replaced by a fresh writer when the journal comes back.
    private(set) var writer: JournalWriter
    /// Opens the journal again after a failure (`EngineLoop.reopenRecorder`).
    private let reopenWriter: () throws -> JournalWriter

    /// The projected state: changed only by facts this engine decided.
    private(set) var state: SDKState
    private(set) var lastSequence: UInt64
    /// While the journal cannot record (`EngineLoop.outage`).
    private(set) var outage: SimulatedOutage?
    /// Why the journal is not recording now, if it is not (nil: it records).
    var journalFailure: String? { outage?.description }
    private var lastTime: JournalTime
    private var rotationRetryAfter: UInt64 = 0
    /// Whether the app shut this engine down (`EngineLoop.stop` ran).
    private(set) var stopped = false

    // Side tables, as in `EngineLoop`: what effects need and the journal never holds.
    var keys: [ProjectFingerprint: String] = [:]
    /// Projects whose auth provider this process was given (with `initialize`/`switchProject`).
    var authProviders: Set<ProjectFingerprint> = []
    /// JWTs by project, for the identity and instance of the current ``tokenEpoch``.
    var tokens: [ProjectFingerprint: String] = [:]
    var tokenEpoch: UInt64 = 0
    var completions: [CallID: SimulatedCompletion] = [:]
    /// The `handleUniversalLink` call each link job answers, and where it resolved to.
    var linkCalls: [UInt64: CallID] = [:]
    var linkDestinations: [CallID: String] = [:]
    /// The calls of the switch in flight when the SDK stopped (they report "interrupted").
    var interruptedSwitchCalls: Set<CallID> = []
    /// The auth provider's pending answers (`EngineLoop.askProvider`'s one-shot completions).
    var providerAsks: [UInt64: ProviderAsk] = [:]
    var nextProviderAsk: UInt64 = 0
    private(set) var moduleRunner: SimulatedModuleRunner!
    /// Verification only (no `EngineLoop` counterpart): the user and instance the SDK is on at
    /// the fact whose effect runs now. Effects run after the whole batch was decided, so a task
    /// dispatched before an `initialized` of the same batch still belongs to the old instance;
    /// requests and JWTs are stamped with this, and the backend compares the two.
    var effectsIdentity: (user: String?, instance: UInt64) = (nil, 0)

    private var mailbox: [SimulatedMessage] = []
    private var mailboxHead = 0
    var callbackQueue: [CallbackWork] = []
    var callbackQueueHead = 0

    // Verification.
    /// The fold of the journal's decoded payloads since this launch began (or the journal came back).
    private var shadow: SDKState
    /// The state after each input whose last record may not be durable yet (plus the last
    /// durable one): a crash must leave exactly one of them.
    private(set) var boundaries: [(sequence: UInt64, state: SDKState)] = []
    /// The sequence of the last `journalGap` this engine wrote: a crash before it is durable
    /// may leave the old segment, whose tail no boundary describes.
    private(set) var resumedAt: UInt64 = 0
    /// Whether a group-commit bound is scheduled for the pending group.
    private var groupCommitScheduled = false
    /// The group-commit bound (`GroupCommit.maxDelay`'s default, 2 ms).
    static let groupCommitMilliseconds: Int64 = 2
    /// How many inputs this engine handled.
    private(set) var inputsHandled = 0

    init(world: SimulationWorld, launch: Int, writer: JournalWriter, reopen: @escaping () throws -> JournalWriter,
         restored: SDKState, modules: [ModuleDescriptor]) {
        self.world = world
        self.launch = launch
        self.writer = writer
        reopenWriter = reopen
        state = restored
        shadow = restored
        lastSequence = writer.lastSequence
        lastTime = restored.time
        for (fingerprint, key) in world.keyring { keys[fingerprint] = key }
        boundaries = [(writer.lastSequence, restored)]
        moduleRunner = SimulatedModuleRunner(engine: self, modules: Set(modules.map(\.name)))
    }

    // MARK: - The mailbox

    var mailboxIsEmpty: Bool { mailboxHead == mailbox.count }

    func post(_ message: SimulatedMessage) {
        guard !stopped else { return }
        mailbox.append(message)
    }

    /// Handles every message in the mailbox, including those its effects post meanwhile (the
    /// engine thread's loop, run to idle).
    func drainMailbox() {
        while mailboxHead < mailbox.count {
            let message = mailbox[mailboxHead]
            mailboxHead += 1
            switch message {
            case .input(let fact, let attachment):
                handle(fact, attachment)
            case .timerDue(let purpose, let due):
                if state.timers[purpose] == due { handle(.timerFired(purpose), .none) }
            case .cacheToken(let project, let token, let epoch):
                if epoch == tokenEpoch { tokens[project] = token }
            case .moduleHookReturned(let module, let hook, let failure):
                moduleRunner.hookReturned(module: module, hook: hook, failure: failure)
            case .retryJournal:
                resumeRecording()
            }
            if mailboxHead > 256 && mailboxHead * 2 > mailbox.count {
                mailbox.removeFirst(mailboxHead)
                mailboxHead = 0
            }
        }
        mailbox.removeAll(keepingCapacity: true)
        mailboxHead = 0
    }

    /// Posts an input from an effect that just ended (`EngineLoop.finishEffect`).
    func finishEffect(with input: Fact, _ attachment: SimulatedAttachment = .none) {
        post(.input(input, attachment))
    }

    // MARK: - Stopping

    /// `EngineLoop.stop`: the app shut the SDK down. Every pending completion hears it
    /// (journaled), the journal closes. The world drained the mailbox first (the stop is
    /// posted behind every earlier call, as `shutdown()` posts it), so nothing is left over.
    func stop() {
        interruptedSwitchCalls = Set(state.switching.inFlight?.calls ?? [])
        handle(.engineStopping, .none)
        // What the stop's effects posted is never handled: the thread ends here.
        if outage == nil { _ = try? writer.sync() }
        try? writer.close()
        stopped = true
        mailbox.removeAll()
        mailboxHead = 0
    }

    // MARK: - Inputs

    /// `EngineLoop.handle`: begin a segment if due, decide, journal the facts, run their effects.
    private func handle(_ input: Fact, _ attachment: SimulatedAttachment) {
        accept(attachment, for: input)
        let time = max(world.now, lastTime)
        lastTime = time
        if outage == nil && lastSequence >= rotationRetryAfter {
            do {
                if try writer.rotateIfNeeded(time: time, snapshot: { _ in StateCodec.encode(state) }) {
                    boundaries.append((writer.lastSequence, state))
                }
            } catch JournalError.recordTooLarge {
                rotationRetryAfter = lastSequence + 1_024
            } catch {
                beginOutage("\(error)", at: time, kept: state)
            }
        }
        let before = state
        effectsIdentity = (state.email ?? state.userID, state.generation)
        let facts = state.decide(input, at: time)
        record(facts, at: time, before: before)
        inputsHandled += 1
        if outage == nil {
            world.checkProjection(live: state, journalFold: shadow, after: input, inputNumber: inputsHandled, launch: launch)
            recordBoundary()
        }
        world.checkSwitchQueue(state, after: input)
        scheduleGroupCommitIfPending()
        runEffects(of: facts)
        if case .engineStarted = input { resumeAfterStart() }
    }

    /// `EngineLoop.record`: an input and its decisions are one atomic batch; while the journal
    /// is out they are counted as lost instead.
    private func record(_ facts: [Fact], at time: JournalTime, before: SDKState) {
        if outage == nil {
            let records = facts.map { (kind: FactCodec.kind(of: $0), payload: FactCodec.payload(of: $0)) }
            do {
                lastSequence = try writer.appendBatch(records, timestamp: time)
                for record in records { foldIntoShadow(kind: record.kind, payload: record.payload, at: time) }
                return
            } catch {
                beginOutage("\(error)", at: time, kept: before)
            }
        }
        outage?.lostFacts &+= UInt64(facts.count)
    }

    // MARK: - A journal that fails comes back

    /// `EngineLoop.beginOutage`: go on in memory and try again later. `kept` is the state the
    /// journal holds (what the checks compare its fold with, should it never come back).
    private func beginOutage(_ reason: String, at time: JournalTime, kept: SDKState) {
        guard outage == nil else { return }
        outage = SimulatedOutage(reason: reason, since: time)
        world.noteJournalFailure(state: kept, reason: reason)
        scheduleJournalRetry()
    }

    /// `EngineLoop.scheduleJournalRetry`: 1 s, doubling up to 60 s, on the clock.
    private func scheduleJournalRetry() {
        guard var current = outage, !current.retryScheduled else { return }
        current.retryScheduled = true
        let delay = current.retryDelayMilliseconds
        current.retryDelayMilliseconds = min(current.retryDelayMilliseconds * 2, SimulatedOutage.maximumRetryDelay)
        outage = current
        world.schedule(.journalRetry(launch: launch), at: max(world.now, lastTime).advancedSaturating(milliseconds: delay))
    }

    /// `EngineLoop.resumeRecording`: a new segment whose snapshot is the state now, then a
    /// `journalGap` fact that says what is missing. On failure, tries again later.
    private func resumeRecording() {
        guard let current = outage else { return }
        outage?.retryScheduled = false
        let time = max(world.now, lastTime)
        lastTime = time
        let snapshot = state
        do {
            try? writer.close()
            let fresh = try reopenWriter()
            try fresh.beginSegment(time: time) { _ in StateCodec.encode(state) }
            let gap = Fact.journalGap(JournalGap(lostFacts: current.lostFacts, from: current.since, to: time, reason: current.reason))
            let record = (kind: FactCodec.kind(of: gap), payload: FactCodec.payload(of: gap))
            lastSequence = try fresh.appendBatch([record], timestamp: time)
            // The live state is the fold of the journal: the gap is one of its facts too.
            state.evolve(gap, at: time)
            writer = fresh
            outage = nil
            // Verification starts over from the new segment: its snapshot, then the gap.
            shadow = snapshot
            foldIntoShadow(kind: record.kind, payload: record.payload, at: time)
            world.checkProjection(live: state, journalFold: shadow, after: gap, inputNumber: inputsHandled, launch: launch)
            resumedAt = lastSequence
            boundaries = [(lastSequence, state)]
            groupCommitScheduled = false
            scheduleGroupCommitIfPending()
        } catch {
            outage?.reason = current.reason
            scheduleJournalRetry()
        }
    }

    /// The group-commit thread's 2 ms bound, on the virtual clock: once a group is pending, it
    /// is cut and made durable 2 ms later. (With `FaultProfile.groupsCutInsideInputs` groups
    /// are also cut every 64 records, as the SDK's default; the journal still never cuts inside
    /// one input's batch.)
    private func scheduleGroupCommitIfPending() {
        guard outage == nil, !groupCommitScheduled, writer.lastSequence > writer.durableSequence else { return }
        groupCommitScheduled = true
        world.schedule(.groupCommitDue(launch: launch), at: world.now.advancedSaturating(milliseconds: Self.groupCommitMilliseconds))
    }

    /// The pending group's bound passed: cut it and make it durable. A failed sync begins the
    /// outage at once (differs: the real group-commit thread's failure is seen by the engine at
    /// its next record or flush; beginning here lets the retry start without another input).
    func commitGroup() {
        groupCommitScheduled = false
        guard outage == nil, !stopped else { return }
        do {
            try writer.sync()
        } catch {
            // The group reached the file before its sync failed: the journal holds it all.
            beginOutage("\(error)", at: max(world.now, lastTime), kept: state)
        }
    }

    /// Stores what an input carries outside the journal (`EngineLoop.accept`).
    private func accept(_ attachment: SimulatedAttachment, for input: Fact) {
        switch (attachment, input) {
        case (.completion(let completion), .callReceived(let received)):
            completions[received.id] = completion
        case (.project(let project, let completion), .callReceived(let received)):
            completions[received.id] = completion
            remember(project)
        case (.token(let token, let epoch), .authTokenReceived(let receipt)):
            if epoch == tokenEpoch { tokens[receipt.project] = token }
        default:
            break
        }
    }

    /// `EngineLoop.remember`: the key and auth provider for sending, and the key in the keyring.
    /// The keyring write is immediate and survives any crash here (the real one is queued off
    /// the engine thread and takes microseconds). A request without a provider never removes one.
    private func remember(_ project: SimulatedProject) {
        keys[project.fingerprint] = project.apiKey
        if project.usesJWT { authProviders.insert(project.fingerprint) }
        world.keyring[project.fingerprint] = project.apiKey
    }

    /// After a (re)start (`EngineLoop.resumeAfterStart`): re-arm the timers, answer what the
    /// previous process left waiting (its durability waits, module hooks and link resolutions).
    /// Timers are re-armed in order of due time (the real engine walks a dictionary; equal due
    /// times then fire in an unspecified order).
    private func resumeAfterStart() {
        let timers = state.timers.sorted { lhs, rhs in
            lhs.value != rhs.value ? lhs.value < rhs.value : "\(lhs.key)" < "\(rhs.key)"
        }
        for (purpose, due) in timers { schedule(purpose, at: due) }
        for request in state.durabilityWaits.keys.sorted() {
            post(.input(.durabilityConfirmed(DurabilityConfirmation(request: request, failure: nil)), .none))
        }
        for hook in state.hooks.keys.sorted() {
            post(.input(.moduleHookCompleted(ModuleHookCompletion(hook: hook, failure: "interrupted by a restart")), .none))
        }
        for job in state.linkJobs.keys.sorted() {
            post(.input(.linkResolved(LinkResolution(job: job, destination: nil, attribution: nil,
                                                     failure: "interrupted by a restart")), .none))
        }
    }

    func schedule(_ purpose: TimerPurpose, at due: JournalTime) {
        world.schedule(.timerDue(launch: launch, purpose, due), at: due)
    }

    // MARK: - Verification

    private func foldIntoShadow(kind: UInt32, payload: [UInt8], at time: JournalTime) {
        guard world.checksEveryInput else { return }
        do {
            shadow.evolve(try payload.withUnsafeBytes { try FactCodec.decode(kind: kind, payload: $0) }, at: time)
        } catch {
            world.report(.projection, "launch \(launch): a journaled fact of kind \(kind) does not decode: \(error)")
        }
    }

    /// Keeps the state after this input while its records may still be lost to a crash.
    private func recordBoundary() {
        let durable = writer.durableSequence
        while boundaries.count > 1 && boundaries[1].sequence <= durable { boundaries.removeFirst() }
        if boundaries.last?.sequence != lastSequence { boundaries.append((lastSequence, state)) }
        if boundaries.count > 4_096 { boundaries.removeFirst(boundaries.count - 4_096) }
    }
}

/// `JournalOutage`: a stretch during which the journal could not record.
struct SimulatedOutage {
    var reason: String
    var since: JournalTime
    var lostFacts: UInt64 = 0
    var retryDelayMilliseconds: Int64 = 1_000
    var retryScheduled = false

    static let maximumRetryDelay: Int64 = 60_000

    var description: String {
        "the journal has not recorded \(lostFacts) fact(s) since \(since) (\(reason)); recording resumes when a write succeeds"
    }
}

/// What an answer of the auth provider goes on to do (`EngineLoop.askProvider`'s closures).
enum ProviderAsk {
    /// `send`: the request waits for its JWT, asked for under token epoch `epoch`.
    case send(SimulatedRequest, epoch: UInt64)
    /// `requestToken`: a refresh the state asked for, under token epoch `epoch`.
    case refresh(project: ProjectFingerprint, request: UInt64, epoch: UInt64)
}
