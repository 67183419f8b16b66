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
    let writer: JournalWriter

    /// The projected state: changed only by facts this engine decided.
    private(set) var state: SDKState
    private(set) var lastSequence: UInt64
    /// Why the journal stopped accepting facts, if it did (the engine keeps working in memory).
    private(set) var journalFailure: String?
    private var lastTime: JournalTime

    // Side tables, as in `EngineLoop`: what effects need and the journal never holds.
    var keys: [ProjectFingerprint: String] = [:]
    /// Projects whose auth provider this process was given (with `initialize`/`switchProject`).
    var authProviders: Set<ProjectFingerprint> = []
    var tokens: [ProjectFingerprint: String] = [:]
    var completions: [CallID: SimulatedCompletion] = [:]
    var moduleFailures: [String: String] = [:]
    /// The module names plugged in (`EngineLoop.modules`).
    let moduleNames: Set<String>

    private var mailbox: [SimulatedMessage] = []
    private var mailboxHead = 0
    var callbackQueue: [CallbackWork] = []
    var callbackQueueHead = 0

    // Verification.
    /// The fold of the journal's decoded payloads since this launch began.
    private var shadow: SDKState
    /// The state after each input whose last record may not be durable yet (plus the last
    /// durable one): a crash must leave exactly one of them.
    private(set) var boundaries: [(sequence: UInt64, state: SDKState)] = []
    /// Whether a group-commit bound is scheduled for the pending group.
    private var groupCommitScheduled = false
    /// The group-commit bound (`GroupCommit.maxDelay`'s default, 2 ms).
    static let groupCommitMilliseconds: Int64 = 2
    /// How many inputs this engine handled.
    private(set) var inputsHandled = 0

    init(world: SimulationWorld, launch: Int, writer: JournalWriter, restored: SDKState, modules: [ModuleDescriptor]) {
        self.world = world
        self.launch = launch
        self.writer = writer
        state = restored
        shadow = restored
        lastSequence = writer.lastSequence
        lastTime = restored.time
        moduleNames = Set(modules.map(\.name))
        for (fingerprint, key) in world.keyring { keys[fingerprint] = key }
        boundaries = [(writer.lastSequence, restored)]
    }

    // MARK: - The mailbox

    var mailboxIsEmpty: Bool { mailboxHead == mailbox.count }

    func post(_ message: SimulatedMessage) {
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
            case .cacheToken(let project, let token):
                tokens[project] = token
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

    // MARK: - Inputs

    /// `EngineLoop.handle`: begin a segment if due, decide, journal the facts, run their effects.
    private func handle(_ input: Fact, _ attachment: SimulatedAttachment) {
        accept(attachment, for: input)
        let time = max(world.now, lastTime)
        lastTime = time
        if journalFailure == nil {
            do {
                if try writer.rotateIfNeeded(time: time, snapshot: { _ in StateCodec.encode(state) }) {
                    boundaries.append((writer.lastSequence, state))
                }
            } catch {
                journalFailure = "\(error)"
                world.noteJournalFailure(state: state, reason: journalFailure ?? "")
            }
        }
        let before = state
        let facts = state.decide(input, at: time)
        if journalFailure == nil {
            // `EngineLoop.handle`: an input and its decisions are one atomic batch.
            let records = facts.map { (kind: FactCodec.kind(of: $0), payload: FactCodec.payload(of: $0)) }
            do {
                lastSequence = try writer.appendBatch(records, timestamp: time)
                for record in records { foldIntoShadow(kind: record.kind, payload: record.payload, at: time) }
            } catch {
                journalFailure = "\(error)"
                world.noteJournalFailure(state: before, reason: journalFailure ?? "")
            }
        }
        inputsHandled += 1
        if journalFailure == nil {
            world.checkProjection(live: state, journalFold: shadow, after: input, inputNumber: inputsHandled, launch: launch)
            recordBoundary()
        }
        scheduleGroupCommitIfPending()
        runEffects(of: facts)
        if case .engineStarted = input { resumeAfterStart() }
    }

    /// The group-commit thread's 2 ms bound, on the virtual clock: once a group is pending, it
    /// is cut and made durable 2 ms later. (With `FaultProfile.groupsCutInsideInputs` groups
    /// are also cut every 64 records, as the SDK's default; the journal still never cuts inside
    /// one input's batch.)
    private func scheduleGroupCommitIfPending() {
        guard journalFailure == nil, !groupCommitScheduled, writer.lastSequence > writer.durableSequence else { return }
        groupCommitScheduled = true
        world.schedule(.groupCommitDue(launch: launch), at: world.now.advancedSaturating(milliseconds: Self.groupCommitMilliseconds))
    }

    /// The pending group's bound passed: cut it and make it durable.
    func commitGroup() {
        groupCommitScheduled = false
        guard journalFailure == nil else { return }
        do {
            try writer.sync()
        } catch {
            // The group reached the file before its sync failed: the journal holds it all.
            journalFailure = "\(error)"
            world.noteJournalFailure(state: state, reason: journalFailure ?? "")
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
        case (.token(let token), .authTokenReceived(let receipt)):
            tokens[receipt.project] = token
        default:
            break
        }
    }

    /// `EngineLoop.remember`: the key and auth provider for sending, and the key in the keyring.
    /// The keyring write is immediate and survives any crash here (the real one is queued off
    /// the engine thread and takes microseconds).
    private func remember(_ project: SimulatedProject) {
        keys[project.fingerprint] = project.apiKey
        if project.usesJWT { authProviders.insert(project.fingerprint) } else { authProviders.remove(project.fingerprint) }
        world.keyring[project.fingerprint] = project.apiKey
    }

    /// After a (re)start (`EngineLoop.resumeAfterStart`): re-arm the timers, answer what the
    /// previous process left waiting. Timers are re-armed in order of due time (the real engine
    /// walks a dictionary; equal due times then fire in an unspecified order).
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
