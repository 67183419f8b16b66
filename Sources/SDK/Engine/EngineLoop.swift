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
    let status: StatusBroadcaster
    let keyring: Keyring

    /// Where facts are recorded; replaced by a fresh one when the journal comes back after a failure.
    private(set) var recorder: any FactRecorder
    /// Opens the journal again after a failure (nil: a recorder that cannot be reopened).
    private let reopenRecorder: (@Sendable () throws -> any FactRecorder)?
    /// The projected state: changed only by facts this loop decided.
    private(set) var state: SDKState
    private(set) var lastSequence: UInt64
    /// While the journal cannot record: since when, why, how much is missing.
    private(set) var outage: JournalOutage?
    private var lastTime: JournalTime
    /// A rotation whose snapshot was too large is tried again once this sequence is written.
    private var rotationRetryAfter: UInt64 = 0
    static let rotationRetryRecords: UInt64 = 1_024

    // Side tables: what effects need and the journal must never hold.
    var keys: [ProjectFingerprint: String] = [:]
    var authProviders: [ProjectFingerprint: any AuthProvider] = [:]
    /// JWTs by project, for the identity and instance of the current ``tokenEpoch``.
    var tokens: [ProjectFingerprint: String] = [:]
    /// Counts identity changes, logouts and instance starts: a token asked for under an older
    /// epoch belongs to another user or instance and is never cached or used.
    var tokenEpoch: UInt64 = 0
    var completions: [CallID: CallCompletion] = [:]
    /// The calls of the switch in flight when the SDK stopped (they report "interrupted").
    var interruptedSwitchCalls: Set<CallID> = []
    let moduleRunner: ModuleRunner
    private var settleWaiters: [@Sendable () -> Void] = []
    private let keyringQueue = DispatchQueue(label: "engagement-sdk.keyring")

    init(configuration: SDKConfiguration, mailbox: Mailbox<EngineMessage>, activity: ActivityTracker,
         published: Locked<PublishedView>, status: StatusBroadcaster, recorder: any FactRecorder,
         reopenRecorder: (@Sendable () throws -> any FactRecorder)?, keyring: Keyring, restored: SDKState) {
        self.configuration = configuration
        self.mailbox = mailbox
        self.activity = activity
        self.published = published
        self.status = status
        self.recorder = recorder
        self.reopenRecorder = reopenRecorder
        self.keyring = keyring
        self.state = restored
        self.lastSequence = recorder.lastSequence
        self.lastTime = restored.time
        let modules = Dictionary(configuration.modules.map { ($0.info.name, $0) }, uniquingKeysWith: { first, _ in first })
        moduleRunner = ModuleRunner(modules: modules, mailbox: mailbox, activity: activity)
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
            for (index, message) in batch.enumerated() {
                switch message {
                case .input(let fact, let attachment):
                    handle(fact, attachment)
                case .barrier(let body):
                    body(view)
                case .wake:
                    break
                case .timerDue(let purpose, let due):
                    if state.timers[purpose] == due { handle(.timerFired(purpose), .none) }
                case .cacheToken(let project, let token, let epoch):
                    if epoch == tokenEpoch { tokens[project] = token }
                case .moduleHookReturned(let module, let hook, let failure):
                    moduleRunner.hookReturned(module: module, hook: hook, failure: failure)
                case .retryJournal:
                    resumeRecording()
                case .settle(let waiter):
                    settleWaiters.append(waiter)
                case .stop(let done):
                    stop(leftover: batch[(index + 1)...], done: done)
                    return
                }
            }
            publish()
            if mailbox.isEmpty && activity.isIdle { releaseSettleWaiters() }
        }
    }

    /// What engine-thread readers see now.
    private var view: EngineView {
        EngineView(state: state, lastSequence: lastSequence, idle: mailbox.isEmpty && activity.isIdle, journalFailure: outage?.description)
    }

    /// A small copy for reads made on this thread, and the switch status for the app's UI; the
    /// state itself is never shared, so its collections are mutated in place.
    private func publish() {
        let view = PublishedView(state: state)
        published.withLock { $0 = view }
        status.publish(view.switchStatus)
    }

    private func releaseSettleWaiters() {
        guard !settleWaiters.isEmpty else { return }
        let waiters = settleWaiters
        settleWaiters = []
        for waiter in waiters { waiter() }
    }

    // MARK: - Stopping

    /// The app shut the SDK down: every pending completion hears it (journaled), the journal
    /// closes, and whatever was posted after the stop is answered without being processed.
    private func stop(leftover: ArraySlice<EngineMessage>, done: @Sendable () -> Void) {
        interruptedSwitchCalls = Set(state.switching.inFlight?.calls ?? [])
        handle(.engineStopping, .none)
        publish()
        try? recorder.close()
        mailbox.close()
        var messages = Array(leftover)
        while let more = mailbox.takeAll() { messages += more }
        for message in messages {
            switch message {
            case .input(_, .completion(let completion?)), .input(_, .project(_, let completion?)):
                deliverOnCallbackQueue(completion)
            case .barrier(let body):
                body(view)
            case .settle(let waiter):
                settleWaiters.append(waiter)
            case .stop(let other):
                other()
            default:
                break
            }
        }
        releaseSettleWaiters()
        status.finish()
        done()
    }

    private func deliverOnCallbackQueue(_ completion: CallCompletion) {
        configuration.callbackQueue.async { completion.deliverShutdown() }
    }

    // MARK: - Inputs

    private func handle(_ input: Fact, _ attachment: EngineAttachment) {
        accept(attachment, for: input)
        let time = max(configuration.clock.now(), lastTime)
        lastTime = time
        if outage == nil && lastSequence >= rotationRetryAfter {
            do {
                try recorder.beginSegmentIfNeeded(time: time) { _ in StateCodec.encode(state) }
            } catch JournalError.recordTooLarge {
                // The state is too large for one snapshot record right now: the segment goes on
                // past its size bound, and the rotation is tried again once some more records
                // were written (not at every input: encoding a state that large is costly).
                rotationRetryAfter = lastSequence + Self.rotationRetryRecords
            } catch {
                beginOutage("\(error)", at: time)
            }
        }
        let facts = state.decide(input, at: time)
        record(facts, at: time)
        configuration.stateObserver?(state, lastSequence)
        runEffects(of: facts)
        if case .engineStarted = input { resumeAfterStart() }
    }

    /// Appends an input and its decisions as one batch (a crash never keeps half of a
    /// decision); while the journal is out, counts them as lost instead.
    private func record(_ facts: [Fact], at time: JournalTime) {
        if outage == nil {
            do {
                lastSequence = try recorder.record(facts.map { (FactCodec.kind(of: $0), FactCodec.payload(of: $0)) }, timestamp: time)
                return
            } catch {
                beginOutage("\(error)", at: time)
            }
        }
        outage?.lostFacts &+= UInt64(facts.count)
    }

    // MARK: - A journal that fails comes back

    /// The journal stopped accepting facts: go on in memory and try again later.
    private func beginOutage(_ reason: String, at time: JournalTime) {
        guard outage == nil else { return }
        outage = JournalOutage(reason: reason, since: time)
        scheduleJournalRetry()
    }

    private func scheduleJournalRetry() {
        guard var current = outage, !current.retryScheduled, reopenRecorder != nil else { return }
        current.retryScheduled = true
        let due = max(configuration.clock.now(), lastTime).advanced(byMilliseconds: current.retryDelayMilliseconds)
        current.retryDelayMilliseconds = min(current.retryDelayMilliseconds * 2, JournalOutage.maximumRetryDelay)
        outage = current
        let mailbox = mailbox
        configuration.clock.schedule(at: due) { mailbox.post(.retryJournal) }
    }

    /// Opens the journal again: a new segment whose snapshot is the state now, then a
    /// `journalGap` fact that says what is missing. On failure, tries again later.
    private func resumeRecording() {
        guard let current = outage, let reopenRecorder else { return }
        outage?.retryScheduled = false
        let time = max(configuration.clock.now(), lastTime)
        lastTime = time
        do {
            try? recorder.close()
            let fresh = try reopenRecorder()
            try fresh.beginSegment(time: time) { _ in StateCodec.encode(state) }
            let gap = Fact.journalGap(JournalGap(lostFacts: current.lostFacts, from: current.since, to: time, reason: current.reason))
            lastSequence = try fresh.record([(FactCodec.kind(of: gap), FactCodec.payload(of: gap))], timestamp: time)
            // The live state is the fold of the journal: the gap is one of its facts too.
            state.evolve(gap, at: time)
            recorder = fresh
            outage = nil
        } catch {
            scheduleJournalRetry()
        }
    }

    // MARK: - Attachments

    /// Stores what an input carries outside the journal: completions, keys, providers, tokens.
    private func accept(_ attachment: EngineAttachment, for input: Fact) {
        switch (attachment, input) {
        case (.completion(let completion?), .callReceived(let received)):
            completions[received.id] = completion
        case (.project(let project, let completion), .callReceived(let received)):
            if let completion { completions[received.id] = completion }
            remember(project)
        case (.token(let token, let epoch), .authTokenReceived(let receipt)):
            if epoch == tokenEpoch { tokens[receipt.project] = token }
        default:
            break
        }
    }

    /// Keeps a project's key and auth provider for sending, and files the key in the keyring
    /// (off the engine thread: the mailbox never waits for I/O). A request without a provider
    /// never removes one: whether requests carry a JWT follows the configuration the SDK is on
    /// (`ProjectRef.usesJWT`, changed only when an instance starts), so a queued switch to the
    /// same key without auth cannot strip the running instance of its tokens.
    private func remember(_ project: Project) {
        let fingerprint = project.fingerprint
        keys[fingerprint] = project.apiKey
        if let provider = project.config.authProvider { authProviders[fingerprint] = provider }
        let reference = project.reference(endpoints: configuration.regionEndpoints)
        let entry = KeyringEntry(apiKey: project.apiKey, region: reference.region, endpoint: reference.endpoint)
        let keyring = keyring
        keyringQueue.async { try? keyring.store(entry, for: fingerprint) }
    }

    /// After a (re)start: re-arm the timers, answer what the previous process left waiting
    /// (everything in a recovered journal is durable; its module hooks and link resolutions are
    /// gone). A landed switch's callbacks died with that process: `evolve` of the start already
    /// stopped waiting for them.
    private func resumeAfterStart() {
        for (purpose, due) in state.timers { schedule(purpose, at: due) }
        for request in state.durabilityWaits.keys.sorted() {
            mailbox.post(.input(.durabilityConfirmed(DurabilityConfirmation(request: request, failure: nil)), .none))
        }
        for hook in state.hooks.keys.sorted() {
            mailbox.post(.input(.moduleHookCompleted(ModuleHookCompletion(hook: hook, failure: "interrupted by a restart")), .none))
        }
        for job in state.linkJobs.keys.sorted() {
            mailbox.post(.input(.linkResolved(LinkResolution(job: job, destination: nil, attribution: nil,
                                                             failure: "interrupted by a restart")), .none))
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
    var switchStatus: SwitchStatus

    init(state: SDKState) {
        email = state.email
        userID = state.userID
        attribution = state.attribution
        pushToken = state.pushToken
        live = state.live?.fingerprint
        inAppMessageIDs = state.inAppMessageIDs
        embeddedMessageIDs = state.embeddedMessageIDs
        switchStatus = SwitchStatus(state)
    }
}
