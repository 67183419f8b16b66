import Dispatch
import Foundation
import Journal
import Locking

/// The engine: one serial mailbox, drained by one thread. For each input it runs `decide`,
/// appends the resulting facts to the journal, and starts their effects (requests, timers,
/// module hooks, completions), whose results come back as inputs.
///
/// Unchecked Sendable: the loop is built on the thread that creates the SDK and handed to the
/// engine thread when that thread starts (`Thread.start` orders the two); from then on only the
/// engine thread touches its mutable properties. Everything other threads use (the mailbox,
/// the published view, the activity count) is itself Sendable.
final class EngineLoop: @unchecked Sendable { // mutable state touched by the engine thread only
    let configuration: SDKConfiguration
    let mailbox: Mailbox<EngineMessage>
    let activity: ActivityTracker
    let published: Locked<PublishedView>
    let recorder: any FactRecorder
    let keyring: Keyring

    /// The projected state: changed only by facts this loop appended.
    private(set) var state: SDKState
    private(set) var lastSequence: UInt64
    /// Why the journal stopped accepting facts, if it did (the SDK keeps working in memory).
    private(set) var journalFailure: String?
    private var lastTime: JournalTime
    /// A rotation whose snapshot was too large is tried again once this sequence is written.
    private var rotationRetryAfter: UInt64 = 0
    static let rotationRetryRecords: UInt64 = 1_024

    // Side tables: what effects need and the journal must never hold.
    var keys: [ProjectFingerprint: String] = [:]
    var authProviders: [ProjectFingerprint: any AuthProvider] = [:]
    var tokens: [ProjectFingerprint: String] = [:]
    var completions: [CallID: CallCompletion] = [:]
    let modules: [String: any SDKModule]
    var moduleFailures: [String: String] = [:]
    private var settleWaiters: [@Sendable () -> Void] = []
    private let keyringQueue = DispatchQueue(label: "engagement-sdk.keyring")

    init(configuration: SDKConfiguration, mailbox: Mailbox<EngineMessage>, activity: ActivityTracker,
         published: Locked<PublishedView>, recorder: any FactRecorder, keyring: Keyring, restored: SDKState) {
        self.configuration = configuration
        self.mailbox = mailbox
        self.activity = activity
        self.published = published
        self.recorder = recorder
        self.keyring = keyring
        self.state = restored
        self.lastSequence = recorder.lastSequence
        self.lastTime = restored.time
        self.modules = Dictionary(configuration.modules.map { ($0.info.name, $0) }, uniquingKeysWith: { first, _ in first })
        for fingerprint in keyring.fingerprints {
            if let entry = keyring.entry(for: fingerprint) { keys[fingerprint] = entry.apiKey }
        }
        for project in configuration.knownProjects {
            keys[project.fingerprint] = keys[project.fingerprint] ?? project.apiKey
            if let provider = project.config.authProvider { authProviders[project.fingerprint] = provider }
        }
    }

    /// The thread's body: handle messages until stopped.
    func run() {
        while let batch = mailbox.takeAll() {
            for message in batch {
                switch message {
                case .input(let fact, let attachment):
                    handle(fact, attachment)
                case .barrier(let body):
                    body(EngineView(state: state, lastSequence: lastSequence, idle: mailbox.isEmpty && activity.isIdle,
                                    journalFailure: journalFailure))
                case .wake:
                    break
                case .timerDue(let purpose, let due):
                    if state.timers[purpose] == due { handle(.timerFired(purpose), .none) }
                case .cacheToken(let project, let token):
                    tokens[project] = token
                case .settle(let waiter):
                    settleWaiters.append(waiter)
                case .stop(let done):
                    try? recorder.close()
                    mailbox.close()
                    releaseSettleWaiters()
                    done()
                    return
                }
            }
            // A small copy for reads made on this thread; the state itself is never shared, so
            // its collections are mutated in place.
            let view = PublishedView(state: state)
            published.withLock { $0 = view }
            if mailbox.isEmpty && activity.isIdle { releaseSettleWaiters() }
        }
    }

    private func releaseSettleWaiters() {
        guard !settleWaiters.isEmpty else { return }
        let waiters = settleWaiters
        settleWaiters = []
        for waiter in waiters { waiter() }
    }

    // MARK: - Inputs

    private func handle(_ input: Fact, _ attachment: EngineAttachment) {
        accept(attachment, for: input)
        let time = max(configuration.clock.now(), lastTime)
        lastTime = time
        if journalFailure == nil && lastSequence >= rotationRetryAfter {
            do {
                try recorder.beginSegmentIfNeeded(time: time) { _ in StateCodec.encode(state) }
            } catch JournalError.recordTooLarge {
                // The state is too large for one snapshot record right now: the segment goes on
                // past its size bound, and the rotation is tried again once some more records
                // were written (not at every input: encoding a state that large is costly).
                rotationRetryAfter = lastSequence + Self.rotationRetryRecords
            } catch {
                journalFailure = "\(error)"
            }
        }
        let facts = state.decide(input, at: time)
        if journalFailure == nil {
            // An input and its decisions are one batch: a crash never keeps half of a decision.
            do {
                lastSequence = try recorder.record(facts.map { (FactCodec.kind(of: $0), FactCodec.payload(of: $0)) }, timestamp: time)
            } catch {
                journalFailure = "\(error)"
            }
        }
        configuration.stateObserver?(state, lastSequence)
        runEffects(of: facts)
        if case .engineStarted = input { resumeAfterStart() }
    }

    /// Stores what an input carries outside the journal: completions, keys, providers, tokens.
    private func accept(_ attachment: EngineAttachment, for input: Fact) {
        switch (attachment, input) {
        case (.completion(let completion?), .callReceived(let received)):
            completions[received.id] = completion
        case (.project(let project, let completion), .callReceived(let received)):
            if let completion { completions[received.id] = completion }
            remember(project)
        case (.token(let token), .authTokenReceived(let receipt)):
            tokens[receipt.project] = token
        default:
            break
        }
    }

    /// Keeps a project's key and auth provider for sending, and files the key in the keyring
    /// (off the engine thread: the mailbox never waits for I/O).
    private func remember(_ project: Project) {
        let fingerprint = project.fingerprint
        keys[fingerprint] = project.apiKey
        if let provider = project.config.authProvider {
            authProviders[fingerprint] = provider
        } else {
            authProviders[fingerprint] = nil
        }
        let reference = project.reference(endpoints: configuration.regionEndpoints)
        let entry = KeyringEntry(apiKey: project.apiKey, region: reference.region, endpoint: reference.endpoint)
        let keyring = keyring
        keyringQueue.async { try? keyring.store(entry, for: fingerprint) }
    }

    /// After a (re)start: re-arm the timers, answer what the previous process left waiting
    /// (everything in a recovered journal is durable; its module hooks are gone). A landed
    /// switch's callbacks died with that process: `evolve` of the start already stopped
    /// waiting for them.
    private func resumeAfterStart() {
        for (purpose, due) in state.timers { schedule(purpose, at: due) }
        for request in state.durabilityWaits.keys.sorted() {
            mailbox.post(.input(.durabilityConfirmed(DurabilityConfirmation(request: request, failure: nil)), .none))
        }
        for hook in state.hooks.keys.sorted() {
            mailbox.post(.input(.moduleHookCompleted(ModuleHookCompletion(hook: hook, failure: "interrupted by a restart")), .none))
        }
    }

    /// Posts an input from an effect that just ended, then lets settle waiters look again.
    func finishEffect(with input: Fact, _ attachment: EngineAttachment = .none) {
        mailbox.post(.input(input, attachment))
        if activity.end() { mailbox.post(.wake) }
    }

    func schedule(_ purpose: TimerPurpose, at due: JournalTime) {
        let mailbox = mailbox
        configuration.clock.schedule(at: due) { mailbox.post(.timerDue(purpose, due)) }
    }
}

/// What getters called on the engine thread (from a module's handler) read: the state's public
/// face after the last batch of inputs.
struct PublishedView: Sendable {
    var email: String?
    var userID: String?
    var attribution: AttributionInfo?
    var pushToken: String?
    var live: ProjectFingerprint?
    var inAppMessageIDs: [String]
    var embeddedMessageIDs: [String]

    init(state: SDKState) {
        email = state.email
        userID = state.userID
        attribution = state.attribution
        pushToken = state.pushToken
        live = state.live?.fingerprint
        inAppMessageIDs = state.inAppMessageIDs
        embeddedMessageIDs = state.embeddedMessageIDs
    }
}
