import Foundation
import Journal
import ReplayKit
import SDK
import SDKTesting

/// The simulated world of one story: a virtual clock with its pending occurrences, the device's
/// storage and keyring, the app process (a ``SimulatedProcess`` running the SDK's real
/// `EngineShell`, replaced at each crash), the network and the ``SimulatedBackend``.
/// Single-threaded and deterministic: everything random comes from the story's seed, nothing
/// reads real time.
///
/// Unchecked Sendable: single-threaded. The completions the simulated app hands the SDK capture
/// the world, and they run only inside its loop, on the one thread that runs the story.
final class SimulationWorld: @unchecked Sendable { // single-threaded: every closure handed to the engine runs inside the world's loop
    /// The caller id of the app's completion handlers (the callback queue's thread).
    static let callbackCaller: UInt64 = 100
    static let journalDirectory = "/device/journal"
    /// The virtual time every story starts at: 2025-11-24T16:00:00Z.
    static let epoch = JournalTime(microsecondsSince1970: 1_764_000_000_000_000)

    let seed: UInt64
    private(set) var now = SimulationWorld.epoch
    /// How far the device's wall clock reads from the world's time (µs): moved by the story's
    /// clock jumps, never by time passing.
    private(set) var wallClockOffsetMicroseconds: Int64 = 0
    private var occurrences = OccurrenceQueue()
    /// The faults in force (calm while a story's end drains).
    private(set) var profile: FaultProfile
    private var faults: SimulationRandom
    let backend = SimulatedBackend()
    /// The catalog's projects as this story's app configures them (``FaultProfile/projectRetry``),
    /// and as it hands them to the SDK.
    let projects: [SimulatedProject]
    /// The users the app's auth server mints JWTs for (nil: anyone), and whether it refuses the
    /// others as signed out (``AuthProviderError/userSignedOut``) or fails for them in a way
    /// that may pass.
    var authSignedIn: Set<String>?
    var authRefusesSignedOut = true
    /// The catalog's projects as the app hands them to the SDK (with their keys and providers).
    let appProjects: [Project]
    /// Whether the device is offline: every request and tracked link fails at once, with no
    /// response, until the network is back.
    private(set) var offline = false
    /// While above zero, each request sent is held on the wire up to this much longer (drawn
    /// per request), as on a slow network.
    private(set) var slowNetworkMilliseconds: Int64 = 0
    /// Whether every answer to a request that reached the backend is lost on its way back.
    private(set) var lossyNetwork = false
    /// Whether message fetches' answers wait for a teardown's reset (``StoryStep/fetchAnswersAtReset(_:)``),
    /// and the answers waiting.
    private var holdsFetchAnswers = false
    private var heldFetchAnswers: [WorldOccurrence] = []
    /// The device's keyring: API keys by fingerprint; it survives crashes.
    var keyring: [ProjectFingerprint: String] = [:]
    /// While set, every keyring write fails with this reason and files nothing (a full disk,
    /// a locked keychain).
    var keyringWriteRefusal: String?
    private(set) var storage: FailingSyncStorage<InMemoryStorage>
    /// The running process; nil only while a crash is being handled.
    private(set) var process: SimulatedProcess?
    /// While a completion runs on the callback queue: whether it is one of a landing's, and
    /// whether the app may still call the SDK from it (not after shutdown).
    var runningCallback: (landed: Bool, reactionsAllowed: Bool)?
    /// The result each switch call's completion reported (checked against the journal's outcome).
    private(set) var switchResults: [CallID: SwitchResult] = [:]
    /// The launches during which the journal stopped recording (what they decided meanwhile,
    /// their stop included, may be missing from it).
    private(set) var launchesWithJournalFailure: Set<Int> = []
    private(set) var launch = 0
    private var nextCall: UInt64 = 1
    /// Whether projection equality is checked after every input (else at crashes and the end).
    let checksEveryInput: Bool
    /// What an ``EngineStore`` watches (nil in stories): each input's facts (or a journal gap),
    /// with the state after them.
    var inputObserver: ((_ facts: [Fact], _ state: SDKState) -> Void)?
    /// Answers a request that reached the backend before the backend does (nil: the backend
    /// answers); an ``EngineStore``'s scripted answers.
    var requestInterceptor: ((_ request: SimulatedRequest, _ time: JournalTime) -> TransportResult?)?
    /// Whether the modules fail what they handle for the instance of this generation, instead of
    /// the profile's odds (nil: the odds); an ``EngineStore``'s failing instances.
    var moduleFailureOverride: ((_ generation: UInt64) -> Bool)?

    // What the checks read afterwards.
    private(set) var failures: [SimulationFailure] = []
    /// Calls made, by id: the launch that made them and how often their completion ran.
    private(set) var callsMade: [CallID: (launch: Int, name: PublicCall.Name, completions: Int)] = [:]
    /// At each crash: the journal id and the sequence number through which it was durable.
    private(set) var crashes: [(journalID: UUID, durableSequence: UInt64)] = []
    /// When the running process's journal failed (the live state then stops being a fold of
    /// it): the launch, why, and the state the journal had kept.
    private(set) var journalFailure: (launch: Int, reason: String, state: SDKState)?
    private(set) var occurrencesRun = 0
    /// Known issues met, counted by explanation (not failures).
    private(set) var explained: [String: Int] = [:]
    /// When the calm end began (the network up for good, consent given, no fault): the liveness
    /// bounds count from here.
    private(set) var calmFrom: JournalTime?
    /// The world's time when each journal timestamp (µs) was first recorded: the audit measures
    /// its bounds on the world's clock, which no wall-clock jump moves.
    private(set) var worldTimeOfJournal: [Int64: JournalTime] = [:]
    /// When each call made was made, and when its completion first ran (world time).
    private(set) var callTimes: [CallID: (made: JournalTime, completed: JournalTime?)] = [:]
    /// Every request sent (its idempotency key and a digest of its body), and those an erasure
    /// settled over: none of these may leave again.
    private var sentRequests: Set<SentRequest> = []
    private var erasedRequests: Set<SentRequest> = []
    /// For each erasure asked for and not settled: what had been sent when the app asked.
    private var sentBeforeErasure: [CallID: Set<SentRequest>] = [:]
    /// A defect planted in the engine's environment, to show that a check finds it.
    let plantedDefect: PlantedDefect?
    /// Whether the running process opened a journal the previous one could not synchronize
    /// (it shut down during a journal outage): the bytes it recovered had never been made
    /// durable, so its recovery must have made them so.
    private var openedOverUnsyncedJournal = false
    /// The project each switch call with a reaction asked for, and the reactions made from the
    /// callbacks of switches that landed: the switch and the project it landed on.
    private var switchTargets: [CallID: ProjectFingerprint] = [:]
    private(set) var reactionTargets: [CallID: (switch: CallID, project: ProjectFingerprint)] = [:]

    init(seed: UInt64, profile: FaultProfile, checksEveryInput: Bool = true, plantedDefect: PlantedDefect? = nil) {
        self.seed = seed
        self.plantedDefect = plantedDefect
        self.profile = profile
        projects = SimulatedProject.catalog.map { $0.configured(retry: profile.projectRetry) }
        appProjects = projects.map(\.project)
        faults = SimulationRandom(seed: seed, stream: 3)
        storage = FailingSyncStorage(memory: InMemoryStorage())
        self.checksEveryInput = checksEveryInput
    }

    // MARK: - Randomness and time

    func draw(_ range: ClosedRange<Int64>) -> Int64 {
        faults.int64(range)
    }

    func chance(_ probability: Double) -> Bool {
        faults.chance(probability)
    }

    func schedule(_ occurrence: WorldOccurrence, at due: JournalTime) {
        occurrences.schedule(occurrence, at: max(due, now))
    }

    func schedule(_ occurrence: WorldOccurrence, after milliseconds: Int64) {
        occurrences.schedule(occurrence, at: now.advancedSaturating(milliseconds: milliseconds))
    }

    /// The device's clocks now: the monotonic one is the world's own time (one boot for the
    /// whole story); the wall clock reads it plus the jumps the story made.
    var clockReading: ClockReading {
        ClockReading(wall: JournalTime(microsecondsSince1970: now.microsecondsSince1970 &+ wallClockOffsetMicroseconds),
                     monotonicMicroseconds: now.microsecondsSince1970, boot: 1)
    }

    /// The device's wall clock jumps by `milliseconds` (either way): the user set the date, the
    /// network corrected it. The world's time, and the monotonic clock, do not move.
    func jumpWallClock(byMilliseconds milliseconds: Int64) {
        wallClockOffsetMicroseconds &+= milliseconds &* 1_000
    }

    /// The world's time when the monotonic clock reads `monotonic` (µs).
    func time(atMonotonicMicroseconds monotonic: Int64) -> JournalTime {
        JournalTime(microsecondsSince1970: monotonic)
    }

    /// When the next pending occurrence is due (nil: nothing is pending).
    var nextOccurrenceDue: JournalTime? { occurrences.nextDue }

    /// Runs the engine and every occurrence due up to `target`, then sets the clock there.
    ///
    /// Liveness: a world that runs ``occurrenceBudget`` occurrences in one story is busy doing
    /// nothing (a timer that fires and is set again at the same instant, a retry that never
    /// waits): the story reports it and drops what is pending, so it ends.
    func advance(to target: JournalTime) {
        while true {
            process?.drainMailbox()
            if occurrencesRun >= Self.occurrenceBudget {
                report(.liveness, "the world ran \(occurrencesRun) occurrences by \(now) (the story's budget): something never stops happening")
                occurrences = OccurrenceQueue()
                break
            }
            guard let (due, occurrence) = occurrences.popDue(notAfter: target) else { break }
            if due > now {
                now = due
                occurrencesThisInstant = 0
            }
            occurrencesThisInstant += 1
            if occurrencesThisInstant == Self.instantBudget {
                report(.liveness, "the world ran \(Self.instantBudget) occurrences at \(now) without time moving: something happens again and again at one instant")
                occurrences = OccurrenceQueue()
                break
            }
            occurrencesRun += 1
            run(occurrence)
        }
        process?.drainMailbox()
        if target > now { now = target }
    }

    /// The calm end of a story: no more faults; runs until nothing is pending (or reports that
    /// the world never settles).
    ///
    /// Liveness: nothing waits forever. Whatever is left must end within the age limit (plus
    /// ``settleSlackMilliseconds``) of the calm end; past it the world stops and says what waits.
    func settle(maximumOccurrences: Int = 200_000) {
        profile = profile.calmed()
        storage.repair()
        offline = false
        slowNetworkMilliseconds = 0
        lossyNetwork = false
        holdFetchAnswersForReset(false)
        calmFrom = now
        let ageLimit = process?.state.rules.deliveryAgeLimitMilliseconds ?? EngineRules().deliveryAgeLimitMilliseconds
        let deadline = now.advancedSaturating(milliseconds: ageLimit + Self.settleSlackMilliseconds)
        let budget = occurrencesRun + maximumOccurrences
        while true {
            process?.drainMailbox()
            guard let due = occurrences.nextDue else { break }
            if due > deadline {
                let state = process?.state
                let waiting = state.map { state in
                    state.tasks.values.sorted { $0.task.id < $1.task.id }.prefix(3)
                        .map { "\($0.task.id) \($0.task.path) (\($0.status)\($0.aside.map { ", aside: \($0.reason)" } ?? ""))" }
                        .joined(separator: "; ")
                } ?? ""
                report(.liveness, "something still waits \((deadline.microsecondsSince1970 - calmFrom!.microsecondsSince1970) / 3_600_000_000) h after the calm end (the age limit and a day): "
                       + "\(state?.tasks.count ?? 0) task(s) queued" + (waiting.isEmpty ? "" : ": " + waiting))
                return
            }
            advance(to: due)
            if occurrencesRun > budget {
                report(.settle, "the world did not settle within \(maximumOccurrences) occurrences after the story ended")
                return
            }
        }
        process?.drainMailbox()
    }

    /// How many occurrences one story may run: two million (the longest the generator draws,
    /// a process alive for three days with hourly tokens, or a task aside for a week at the
    /// SDK's default backoff, run a few ten thousand).
    static let occurrenceBudget = 2_000_000
    /// How many occurrences may run at one instant of the world's time (a picker tapped two
    /// hundred times runs a few thousand).
    static let instantBudget = 100_000
    private var occurrencesThisInstant = 0

    /// How long past the age limit the calm end may take to settle (ms): a day.
    static let settleSlackMilliseconds: Int64 = 86_400_000

    /// A journal record was written at `timestamp` now.
    func noteJournalTime(_ timestamp: JournalTime) {
        if worldTimeOfJournal[timestamp.microsecondsSince1970] == nil { worldTimeOfJournal[timestamp.microsecondsSince1970] = now }
    }

    /// The world's time when the journal wrote a record stamped `time` (the stamp itself if
    /// none was written so, e.g. one a crash lost).
    func worldTime(ofJournal time: JournalTime) -> JournalTime {
        worldTimeOfJournal[time.microsecondsSince1970] ?? time
    }

    private func run(_ occurrence: WorldOccurrence) {
        switch occurrence {
        case .requestArrives(let request, let launch, let sentAt, let answerLost, let completion):
            let result = requestInterceptor?(request, now) ?? backend.process(request, at: now, profile: profile, random: &faults)
            let answer = WorldOccurrence.engine(launch: launch) { completion(answerLost ? .networkError("timed out") : result) }
            if holdsFetchAnswers && !answerLost && Self.messageFetchPaths.contains(request.path) {
                if resetHasBegun {
                    schedule(answer, after: 0)
                } else {
                    heldFetchAnswers.append(answer)
                }
            } else if answerLost {
                schedule(answer, at: sentAt.advancedSaturating(milliseconds: profile.timeoutMilliseconds))
            } else {
                schedule(answer, after: draw(profile.latencyMilliseconds))
            }
            return
        case .diskRepaired:
            storage.repair()
            return
        case .engine, .callbackRuns:
            // The process's own: run below, when it is the launch they were scheduled for.
            break
        }
        guard let process, occurrence.launch == launch else { return }
        switch occurrence {
        case .engine(_, let action):
            action()
        case .callbackRuns:
            process.core.environment.runNextCallback()
        case .requestArrives, .diskRepaired:
            break
        }
    }

    // MARK: - The auth provider, the link host, the disk

    /// The app's auth provider is asked for a token: it answers after its latency with a JWT
    /// for the user and instance the app is on now, or fails; sometimes it answers only past
    /// the bound, or twice; with a late provider, sometimes never (only the SDK's bound answers).
    func askAuthProvider(project: ProjectFingerprint, user: String?, instance: UInt64, launch: Int, bound: Int64,
                         completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
        if profile.authLate > 0, chance(profile.authLate / 2) { return }
        var answer: Result<String, any Error> = chance(profile.authFailure)
            ? .failure(SimulatedFailure(description: "simulated auth provider failure"))
            : .success(backend.issueToken(for: project, user: user, instance: instance, at: now))
        // The app's auth server mints only for the users signed in to it.
        if let signedIn = authSignedIn, let user, !signedIn.contains(user) {
            answer = authRefusesSignedOut ? .failure(AuthProviderError.userSignedOut)
                                          : .failure(SimulatedFailure(description: "simulated auth server: \(user) is not signed in"))
        }
        var latency = draw(profile.authLatencyMilliseconds)
        if chance(profile.authLate) { latency = bound + draw(1...5_000) }
        schedule(.engine(launch: launch) { completion(answer) }, after: latency)
        if chance(profile.authLate) { schedule(.engine(launch: launch) { completion(answer) }, after: latency + draw(0...50)) }
    }

    /// `resolveLink`'s GET reaches the links host (or not); its answer is a redirect whose
    /// `Location` is the destination and whose cookies name the campaign, template and message.
    func resolveLink(_ url: String, launch: Int, completion: @escaping @Sendable (TransportResult) -> Void) {
        let code = url.split(separator: "/").last.map(String.init) ?? ""
        let result: TransportResult
        if offline {
            schedule(.engine(launch: launch) { completion(.networkError(Self.offlineError)) }, after: 0)
            return
        } else if chance(profile.refused) {
            result = .networkError("connection refused")
        } else if code == "gone" {
            result = .response(status: 404, headers: [:], body: Data())
        } else {
            result = .response(status: 303, headers: [
                "location": "https://shop.sim.test/\(code)",
                "set-cookie": "iterableEmailCampaignId=41; Path=/, iterableTemplateId=42; Path=/, iterableMessageId=\(code); Path=/",
            ], body: Data())
        }
        schedule(.engine(launch: launch) { completion(result) }, after: draw(profile.linkLatencyMilliseconds))
    }

    /// A flush reaches the disk: it may fail once, the disk may fail every sync for a while,
    /// or it may fill up for a while (every write fails, leaving part of its bytes).
    func maybeBreakDisk() {
        if chance(profile.syncFailure) { storage.armSyncFailure() }
        if profile.diskOutage > 0, chance(profile.diskOutage), !storage.isBroken {
            storage.breakDisk()
            schedule(.diskRepaired, after: draw(500...90_000))
        }
        if profile.diskFull > 0, chance(profile.diskFull), !storage.isFull {
            storage.fillDisk()
            schedule(.diskRepaired, after: draw(500...90_000))
        }
    }

    // MARK: - The network

    /// What the client hears for a request sent while the device is offline.
    static let offlineError = "not connected to the internet"

    /// The device loses its network (``StoryStep/offline``) or gets it back.
    func setOffline(_ offline: Bool) {
        self.offline = offline
    }

    /// Answers to requests on the wire are lost from now on (on), or come back (off).
    func setLossyNetwork(_ on: Bool) {
        lossyNetwork = on
    }

    /// Requests sent from now on are held on the wire up to `milliseconds` longer (0: no longer).
    func setSlowNetwork(milliseconds: Int64) {
        slowNetworkMilliseconds = max(0, milliseconds)
    }

    /// The paths of message fetches (whose answers ``holdFetchAnswersForReset(_:)`` holds).
    static let messageFetchPaths: Set<String> = ["inApp/getMessages", "embedded-messaging/messages"]

    /// Message fetches' answers wait for the next teardown's reset (on), or go now (off).
    func holdFetchAnswersForReset(_ on: Bool) {
        holdsFetchAnswers = on
        if !on { releaseHeldFetchAnswers() }
    }

    /// Answers still held go now.
    private func releaseHeldFetchAnswers() {
        for answer in heldFetchAnswers { schedule(answer, after: 0) }
        heldFetchAnswers.removeAll()
    }

    /// A module is handed a teardown's reset: the fetch answers held for it come back now,
    /// while the module handles it, as an answer on the network's thread would (each reaches
    /// the engine's mailbox before the reset's end does).
    func messagesResetting() {
        let answers = heldFetchAnswers
        heldFetchAnswers.removeAll()
        for case .engine(let owner, let action) in answers where owner == launch { action() }
    }

    /// Whether the switch in flight has begun resetting messages (and not landed yet): a fetch
    /// answered now is answered during its teardown.
    private var resetHasBegun: Bool {
        guard let step = process?.state.switching.inFlight?.step else { return false }
        return step != .disablePush && step != .deliverPending
    }

    /// The app tells the SDK the network is reachable (`EngagementSDK.networkBecameReachable()`).
    func networkBecameReachable() {
        process?.post(.input(.networkReachable, .none))
    }

    /// The transport: offline, a request fails at once with no response; else it is refused,
    /// lost on the way, or reaches the backend (whose answer may be lost); the client hears back
    /// after the latency (longer on a slow network) or its timeout.
    func transmit(_ request: SimulatedRequest, launch: Int, completion: @escaping @Sendable (TransportResult) -> Void) {
        checkPrivacy(of: request)
        if case .repeatsRequests? = plantedDefect {
            // A transport that sends each request again on its own a minute later.
            schedule(.engine(launch: launch) { [self] in
                checkPrivacy(of: request)
                if !offline { schedule(.requestArrives(request, launch: 0, sentAt: now, answerLost: true, completion: { _ in }), after: 1) }
            }, after: 60_000)
        }
        var completion = completion
        if case .answersLost(let path)? = plantedDefect, request.path == path { completion = { _ in } }
        if offline {
            schedule(.engine(launch: launch) { completion(.networkError(Self.offlineError)) }, after: 0)
            return
        }
        var latency = draw(profile.latencyMilliseconds)
        if slowNetworkMilliseconds > 0 { latency += draw(0...slowNetworkMilliseconds) }
        // A fetch whose answer waits for a reset reaches the backend at once (its answer is
        // what comes late).
        if holdsFetchAnswers && Self.messageFetchPaths.contains(request.path) { latency = 0 }
        if chance(profile.refused) {
            schedule(.engine(launch: launch) { completion(.networkError("connection refused")) }, after: latency)
        } else if chance(profile.lostBeforeBackend) {
            schedule(.engine(launch: launch) { completion(.networkError("timed out")) }, after: profile.timeoutMilliseconds)
        } else {
            schedule(.requestArrives(request, launch: launch, sentAt: now, answerLost: chance(profile.lostAfterBackend) || lossyNetwork, completion: completion),
                     after: latency)
        }
    }

    /// Privacy on the wire: no request leaves while the user declined, and none that an erasure
    /// settled over leaves again.
    private func checkPrivacy(of request: SimulatedRequest) {
        if process?.state.consentDeclined == true {
            report(.privacy, "launch \(launch): \(request.path) (idempotency key \(request.idempotencyKey)) left while the user had declined, at \(now)")
        }
        // A request leaves only for a task the SDK holds (an erasure let go of the rest).
        if let process, !process.state.tasks.values.contains(where: { $0.task.idempotencyKey(stream: process.writer.journalID) == request.idempotencyKey }) {
            report(.privacy, "launch \(launch): \(request.path) (idempotency key \(request.idempotencyKey)) left at \(now) for a task the SDK no longer holds")
        }
        let sent = SentRequest(request)
        if erasedRequests.contains(sent) {
            report(.privacy, "launch \(launch): \(request.path) (idempotency key \(request.idempotencyKey)) left again at \(now), after an erasure settled over it")
        }
        sentRequests.insert(sent)
    }

    /// An erasure settled (its completion ran): nothing sent before the app asked for it may
    /// leave again (what was sent since is for tasks made after it).
    private func erasureSettled(_ call: CallID) {
        if let before = sentBeforeErasure.removeValue(forKey: call) { erasedRequests.formUnion(before) }
    }

    // MARK: - The app

    /// Starts the app process over the device's storage, as `EngagementSDK.init` does: opens
    /// (recovering) the journal, restores the state, and posts `engineStarted`.
    /// `boundaries` are the states the crashed process had after each input that a crash could
    /// have cut at: the restored state must be one of them.
    func startProcess(after boundaries: [(sequence: UInt64, state: SDKState)]? = nil, trustedUnsynced: Bool = false) {
        launch += 1
        openedOverUnsyncedJournal = false
        var options = JournalOptions()
        options.rotation = .onRequest
        options.segmentBytes = 8 << 10
        options.retainedBytes = nil
        if profile.groupsCutInsideInputs {
            options.groupCommit = GroupCommit(maxRecords: 64, maxDelay: nil, synchronizesEachGroup: true)
        } else {
            // Groups never fill up inside an input's facts: the simulated group-commit bound cuts
            // them between inputs (see `SimulatedRecorder`).
            options.groupCommit = GroupCommit(maxRecords: Int(options.maxRecordsPerFrame), maxDelay: nil, synchronizesEachGroup: true)
            options.maxGroupBytes = 1 << 20
        }
        options.maxRecordBytes = SegmentFormat.maxRecordBytesLimit
        options.producer = "engagement-sdk/\(EngagementSDK.version) simulated"
        options.storage = storage
        options.journalID = Self.journalID(seed: seed, launch: launch)
        let monotonic = UInt64(launch) * 1_000_000_000
        options.monotonicNanoseconds = { monotonic }
        let writer: JournalWriter
        let restored: StateRestorer.Restored
        do {
            writer = try JournalWriter(directory: Self.journalDirectory, options: options, snapshot: nil)
            restored = try StateRestorer.restore(directory: Self.journalDirectory, storage: storage)
        } catch {
            report(.journal, "launch \(launch): the SDK could not open its journal: \(error)")
            process = nil
            return
        }
        if !restored.undecodable.isEmpty {
            report(.journal, "launch \(launch): \(restored.undecodable.count) fact(s) of the recovered journal do not decode (first: seq \(restored.undecodable[0].sequence))")
        }
        if let boundaries { compareRecovery(writer: writer, restored: restored.state, boundaries: boundaries, trustedUnsynced: trustedUnsynced) }
        let modules: [ModuleDescriptor] = profile.withModules
            ? BuiltInModules.standard().map { ModuleDescriptor(name: $0.info.name, notifications: $0.notificationNames) } : []
        let process = SimulatedProcess(world: self, launch: launch, writer: writer, options: options,
                                       restored: restored.state, modules: Set(modules.map(\.name)))
        self.process = process
        process.post(.input(.engineStarted(EngineStart(sdkVersion: EngagementSDK.version, restored: restored.hadFacts,
                                                      options: profile.rules, modules: modules)), .none))
    }

    /// Power loss: keep what the journal synchronized (plus `tail`), forget the process, and
    /// relaunch `relaunchMilliseconds` later (requests already on the wire still arrive meanwhile).
    func crash(tail: CrashTail, relaunchMilliseconds: Int64) {
        guard let process else {
            startProcess()
            return
        }
        crashes.append((process.writer.journalID, process.writer.durableSequence))
        // After the journal came back, a crash before its new segment is durable may leave the
        // old segment's tail, which no boundary describes. Nor does one describe a journal the
        // launch opened and could not make durable (its writer opened stopped, trusting nothing
        // past its sealed segments): a crash before the engine heard of it may take that tail.
        let durable = process.writer.durableSequence
        let boundaries = process.journalFailure == nil && durable >= process.resumedAt
            && durable >= (process.boundaries.first?.sequence ?? 0) ? process.boundaries : nil
        let survivor = storage.memory.simulatePowerLoss(tail.lossTail)
        self.process = nil
        storage = FailingSyncStorage(memory: survivor)
        let trusted = openedOverUnsyncedJournal
        advance(to: now.advancedSaturating(milliseconds: relaunchMilliseconds))
        startProcess(after: boundaries, trustedUnsynced: trusted)
    }

    private func compareRecovery(writer: JournalWriter, restored: SDKState, boundaries: [(sequence: UInt64, state: SDKState)],
                                 trustedUnsynced: Bool) {
        let recovered = writer.lastSequence
        guard let first = boundaries.first else { return }
        if recovered < first.sequence && trustedUnsynced {
            report(.journal, "launch \(launch): the journal recovered through seq \(recovered), but the crashed launch had opened it through seq \(first.sequence) and taken that for durable: its predecessor shut down during a journal outage, and the tail it never synchronized was trusted without being made durable")
            return
        }
        if recovered < first.sequence {
            report(.journal, "launch \(launch): the journal recovered through seq \(recovered), but seq \(first.sequence) had been made durable before the crash")
            return
        }
        guard let boundary = boundaries.last(where: { $0.sequence == recovered }) else {
            let around = boundaries.map(\.sequence).filter { $0 < recovered }.last
            report(.journal, "launch \(launch): the crash cut the journal at seq \(recovered), inside the facts of one input (the input before it ended at seq \(around.map(String.init) ?? "?")): the restored state never existed")
            return
        }
        if restored != boundary.state {
            report(.projection, "launch \(launch): the state restored from the journal (through seq \(recovered)) differs from the live state the crashed process had there"
                   + Self.firstDifference(restored, boundary.state))
        }
    }

    /// A public call from `caller`, as `EngagementSDK.post` makes it; returns its id.
    @discardableResult
    func makeCall(_ call: StoryCall, caller: UInt64) -> CallID? {
        guard let process else { return nil }
        // The seed rotated, not as it is: a call's wire id mixes the call's high word with the
        // journal id's by exclusive or first (`WireCallID`), and the journal id carries the seed
        // in the same bits, so `seed ^ 0xCA11` gave every seed's n-th call the same wire id.
        let id = CallID(Self.uuid((seed << 20 | seed >> 44) ^ 0xCA11, nextCall))
        nextCall += 1
        let received: (PublicCall, EngineAttachment)
        let heard: CallCompletion = .outcome { [self] _ in completionRan(id) }
        switch call {
        case .initialize(let index):
            let project = projects[index % projects.count]
            received = (.initialize(project.reference), .project(appProjects[index % projects.count], heard))
        case .switchProject(let index, let reaction):
            let project = projects[index % projects.count]
            received = (.switchProject(project.reference), .project(appProjects[index % projects.count], .switchResult { [self] result in
                switchCompletionRan(id, result: result, reaction: reaction)
            }))
            if reaction != nil { switchTargets[id] = project.fingerprint }
        case .sdk(let publicCall):
            received = (publicCall, .completion(heard))
        }
        callsMade[id] = (launch, received.0.name, 0)
        callTimes[id] = (now, nil)
        if case .sdk(.eraseLocalData) = call { sentBeforeErasure[id] = sentRequests }
        process.post(.input(.callReceived(ReceivedCall(id: id, caller: caller, call: received.0)), received.1))
        return id
    }

    /// The app calls the SDK from a switch's completion (re-identifies the user): when the
    /// completion was one of a landing's, the call must land on the project that switch landed
    /// on. (A no-op's completion is not waited on: a switch the app asks for meanwhile may begin
    /// first, and gate the call.)
    func makeReaction(_ reaction: PublicCall, fromSwitch call: CallID, landed: Bool) {
        guard let id = makeCall(.sdk(reaction), caller: Self.callbackCaller) else { return }
        if landed, let target = switchTargets[call] {
            reactionTargets[id] = (call, target)
        }
    }

    /// The app shuts the SDK down (`EngagementSDK.shutdown()`): every call made before hears
    /// back exactly once (the callback queue runs what the stop dispatched), the journal is
    /// closed, the process ends (nothing is lost: no power loss) and the app relaunches
    /// `relaunchMilliseconds` later.
    func shutdown(relaunchMilliseconds: Int64) {
        guard let process else {
            startProcess()
            return
        }
        process.drainMailbox()
        process.stop()
        process.core.environment.runRemainingCallbacks()
        let stoppedLaunch = launch
        for (call, made) in callsMade.sorted(by: { $0.key < $1.key }) where made.launch == stoppedLaunch && made.completions != 1 {
            report(.settle, "at shutdown, the completion of call \(call) (\(made.name.rawValue)) ran \(made.completions) time(s)")
        }
        let unsynced = process.journalFailure != nil
        let boundaries = unsynced ? nil : [(process.lastSequence, process.state)]
        self.process = nil
        advance(to: now.advancedSaturating(milliseconds: relaunchMilliseconds))
        startProcess(after: boundaries)
        openedOverUnsyncedJournal = unsynced
    }

    /// The switch queue never holds two entries for one project, however often a picker is tapped.
    func checkSwitchQueue(_ state: SDKState, after input: Fact) {
        let queue = state.switching.queue
        guard queue.count > 1 else { return }
        for later in 1..<queue.count {
            for earlier in 0..<later where queue[earlier].project == queue[later].project {
                report(.contract, "launch \(launch), after \(FactSummary.text(input)): the switch queue holds \(queue[earlier].id) and \(queue[later].id), both for \(queue[later].project.fingerprint)")
                return
            }
        }
    }

    /// A notification the system sends the app (`EngagementSDK.mailboxPost`).
    func notify(_ name: String) {
        process?.post(.input(.notificationReceived(name), .none))
    }

    /// A call's completion ran on the callback queue.
    func completionRan(_ call: CallID) {
        guard let made = callsMade[call] else {
            report(.settle, "a completion ran for call \(call), which the app never made")
            return
        }
        if made.completions > 0 { report(.settle, "the completion of call \(call) (\(made.name.rawValue)) ran more than once") }
        callsMade[call]?.completions += 1
        if callTimes[call]?.completed == nil { callTimes[call]?.completed = now }
        if made.name == .eraseLocalData { erasureSettled(call) }
    }

    /// A switch call's completion ran: its result is kept for the audit (which compares it with
    /// the outcome the journal resolved the call with), and the app may call the SDK from it.
    func switchCompletionRan(_ call: CallID, result: SwitchResult, reaction: PublicCall?) {
        completionRan(call)
        switchResults[call] = result
        if let reaction, let running = runningCallback, running.reactionsAllowed {
            makeReaction(reaction, fromSwitch: call, landed: running.landed)
        }
    }

    // MARK: - Checks during the story

    func report(_ check: SimulationCheck, _ message: String) {
        if failures.count < 50 { failures.append(SimulationFailure(check: check, message: message)) }
    }

    /// Projection equality after one input: the live state against the fold of the decoded facts.
    func checkProjection(live: SDKState, journalFold: SDKState, after input: Fact, inputNumber: Int, launch: Int) {
        guard checksEveryInput, live != journalFold else { return }
        report(.projection, "launch \(launch), input #\(inputNumber) (\(FactSummary.text(input))): the live state differs from the fold of the journaled facts"
               + Self.firstDifference(journalFold, live))
    }

    /// After a journal outage the gap is exact: the segment the journal resumes in begins past
    /// every number a writer gave out; the gap counts every fact decided since `anchor` (input
    /// by input in `decided`) that the journal does not hold, starts at the first of them (when
    /// one was lost), and names the number after the last record the journal kept.
    func checkGap(_ gap: JournalGap, segmentBase: UInt64, anchor: UInt64, decided: [(count: Int, time: JournalTime)],
                  numberedThrough: UInt64, launch: Int) {
        if segmentBase <= numberedThrough {
            report(.journal, "launch \(launch): the segment begun after the journal outage starts at seq \(segmentBase), but the writer that failed had given out numbers through seq \(numberedThrough): a number used twice")
        }
        var kept = 0
        var lastKept: UInt64 = 0
        do {
            let cursor = try JournalReader(directory: Self.journalDirectory, storage: storage.memory).records()
            while let record = try cursor.nextView(), record.sequence < segmentBase {
                lastKept = record.sequence
                if record.sequence > anchor && !record.isSnapshot { kept += 1 }
            }
        } catch {
            report(.journal, "launch \(launch): the journal does not read across the outage: \(error)")
            return
        }
        let total = decided.reduce(0) { $0 + $1.count }
        if gap.lostFacts != UInt64(max(0, total - kept)) || kept > total {
            report(.journal, "launch \(launch): the journal gap counts \(gap.lostFacts) lost fact(s), but \(total - kept) of the \(total) decided after seq \(anchor) are not in the journal (it holds \(kept))")
        }
        var before = 0
        if let firstLost = decided.first(where: { before += $0.count; return before > kept }), gap.from != firstLost.time {
            report(.journal, "launch \(launch): the journal gap starts at \(gap.from), but the first fact it lost was decided at \(firstLost.time)")
        }
        if let first = gap.firstLostSequence, first != lastKept + 1 {
            report(.journal, "launch \(launch): the journal gap says seq \(first) is the first lost, but the journal's records end at seq \(lastKept)")
        }
    }

    /// The running process's journal stopped accepting facts; `state` is what it kept (the
    /// last outage counts: after a gap the journal holds everything up to the next one).
    func noteJournalFailure(state: SDKState, reason: String) {
        journalFailure = (launch, reason, state)
        launchesWithJournalFailure.insert(launch)
    }

    // MARK: - Helpers

    /// Where two states first differ, as `replay diff` would name it.
    static func firstDifference(_ from: SDKState, _ to: SDKState) -> String {
        let diff = DocumentDiff(from: StateDocument.make(from), to: StateDocument.make(to))
        return diff.changes.first.map { " (first difference: \($0.path))" } ?? " (outside what `replay state` shows)"
    }

    /// The journal id of a seed's launch: ``uuid(_:_:)`` of the seed and the launch, with the
    /// seed's bits 12 and up moved above the version digit rather than overwritten by it, so every
    /// seed below 2^60 has ids of its own (a fleet kept with `--keep` is told apart by journal id)
    /// and seeds below 4096 keep the ids they always had.
    static func journalID(seed: UInt64, launch: Int) -> UUID {
        uuid(((seed >> 12) << 16) | (seed & 0x0FFF), UInt64(launch))
    }

    /// A version-4-shaped UUID made of two numbers (deterministic ids for calls and journals).
    static func uuid(_ high: UInt64, _ low: UInt64) -> UUID {
        let h = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x4000
        let l = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        func byte(_ value: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: value >> (56 - 8 * index)) }
        return UUID(uuid: (byte(h, 0), byte(h, 1), byte(h, 2), byte(h, 3), byte(h, 4), byte(h, 5), byte(h, 6), byte(h, 7),
                           byte(l, 0), byte(l, 1), byte(l, 2), byte(l, 3), byte(l, 4), byte(l, 5), byte(l, 6), byte(l, 7)))
    }
}
