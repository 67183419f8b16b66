import Journal
import SDKCore

/// The engine without a thread: for each event it runs `decide`, appends the resulting facts to
/// the journal as one bundle, and starts the effects those facts ask for through its
/// ``EngineEnvironment``, whose results come back as events through its ``EngineInbox``.
///
/// The SDK's ``EngineLoop`` runs it on the engine thread; the simulator runs the same core on a
/// virtual clock. It is not thread-safe: one thread (its host's) calls it, always the same.
package final class EngineShell<Environment: EngineEnvironment> {
    package let environment: Environment
    let inbox: EngineInbox

    /// Where facts are recorded; replaced by a fresh one when the journal comes back after a failure.
    private(set) var recorder: any FactRecorder
    /// The projected state: changed only by facts this core decided.
    package var state: SDKState { projected }
    package var lastSequence: UInt64 { recordedSequence }
    /// While the journal cannot record: since when, why, how much is missing.
    package var outage: JournalOutage? { journalOutage }

    // The storage of the three above, internal like `recorder`: with every access to them in
    // this module, the optimizer proves the accesses never overlap and drops their run-time
    // exclusivity checks (one per access, at several accesses per input).
    //
    // Except for `decide`'s: it modifies the state through a call into SDKCore, which the
    // optimizer cannot see through, so that access would be checked at run time on every input.
    // Unchecked is safe: the core runs on its host's one thread, and `decide` is pure SDKCore
    // code that cannot reach this core, so nothing reads or writes `projected` while it runs.
    @exclusivity(unchecked) private(set) var projected: SDKState
    private(set) var recordedSequence: UInt64
    private(set) var journalOutage: JournalOutage?
    private var lastTime: JournalTime
    /// The journal's time, read off the environment's monotonic clock.
    private var clock: JournalClock
    /// A rotation whose snapshot was too large is tried again once this sequence is written.
    private var rotationRetryAfter: UInt64 = 0
    /// How long the journal keeps records (``SDKConfiguration/journalRetentionAge``); nil: only
    /// its byte budget bounds it.
    private let retentionAge: Duration?
    /// How often (journal time, µs) the journal is asked to delete what aged out: a quarter of
    /// the age, at most an hour.
    private let retentionCheckMicroseconds: Int64
    /// When (journal time, µs) the journal is next asked to delete what aged out.
    private var nextRetentionCheck = Int64.min
    /// The records of the input being recorded, reused from input to input (its buffers keep
    /// their size, so recording allocates nothing once they have grown).
    private var bundle = RecordBundle()
    /// The facts of the input being handled, decided into the same array from input to input
    /// (they stay until the next input empties it).
    private var decided: [Fact] = []

    let sdkVersion: String

    // Side tables: what effects need and the journal must never hold.
    var keys: [ProjectFingerprint: String] = [:]
    var authProviders: [ProjectFingerprint: any AuthProvider] = [:]
    /// JWTs of the current instance, by project and by the user each was issued for: a request
    /// is only ever sent with a token issued for the user its task was made for.
    var tokens: [JWTKey: String] = [:]
    /// Counts instance starts: a token asked for under an older epoch belongs to another
    /// instance and is never cached.
    var tokenEpoch: UInt64 = 0
    /// Each pending call's completion. Not checked for exclusivity at run time (a check per
    /// insertion and removal otherwise, since either may release a completion, whose release
    /// can run code the compiler does not see): only this core touches it, on its host's one
    /// thread, and a completion released here can only post to the mailbox, never reach the core.
    @exclusivity(unchecked) var completions = CompletionTable()
    /// The calls of the switch in flight when the SDK stopped (they report "interrupted").
    var interruptedSwitchCalls: Set<CallID> = []
    /// Landings whose completions are still running in the app's code.
    var landings: [SwitchID: LandingCallbacks] = [:]
    var moduleRunner = ModuleRunner()
    /// The background time the SDK holds, if any (`EngineShell+Background.swift`). Read after
    /// every stimulus: not checked for exclusivity at run time (only this core touches it, on its
    /// host's one thread, and nothing it calls while it is being changed reaches back to it).
    @exclusivity(unchecked) var background: BackgroundSession?
    /// Background tasks begun in this process: the last one's number.
    var backgroundTasksBegun: UInt64 = 0
    /// The app's background time ended (it may be suspended any moment) and it has not come back
    /// to the foreground: the journal is closed, and its lock given back, whenever the engine
    /// is idle (`EngineShell+Suspension.swift`).
    package internal(set) var suspended = false
    /// The journal is closed for a suspension: the next input opens it again first.
    var journalGivenBack = false
    /// Whom the effect being started acts for (``EffectOwner``): the restored state's user and
    /// instance, then kept up to date fact by fact by the `identityChanged` and
    /// `instanceStarted` effects.
    var owner = EffectOwner(user: nil, instance: 0)

    /// A core over `restored` (the state the journal folds to), recording into `recorder`.
    package init(environment: Environment, inbox: EngineInbox, recorder: any FactRecorder, restored: SDKState,
                 knownProjects: [Project], sdkVersion: String, retentionAge: Duration? = nil) {
        self.environment = environment
        self.retentionAge = retentionAge
        let ageMicroseconds = retentionAge?.wholeMicroseconds ?? 0
        retentionCheckMicroseconds = max(min(ageMicroseconds / 4, EngineBounds.retentionCheckMicroseconds), 1)
        self.inbox = inbox
        self.recorder = recorder
        self.sdkVersion = sdkVersion
        projected = restored
        owner = EffectOwner(user: UserIdentity(email: restored.email, userID: restored.userID), instance: restored.generation)
        recordedSequence = recorder.lastSequence
        lastTime = restored.time
        clock = JournalClock(restored: restored, reading: environment.readClock())
        for project in knownProjects {
            keys[project.fingerprint] = project.apiKey
            if let provider = project.config.authProvider { authProviders[project.fingerprint] = provider }
        }
    }

    /// Handles one stimulus: an input is decided, journaled and its effects started; the others
    /// end an effect.
    ///
    /// Consumed: the engine loop moves each stimulus out of the mailbox's take, and an input's fact and
    /// attachment are handed on from it without another copy.
    package func handle(_ stimulus: consuming EngineStimulus) {
        switch consume stimulus {
        case .input(let fact, let attachment):
            handle(consume fact, consume attachment)
        case .timerDue(let purpose, let due):
            if projected.timers[purpose] == due { handle(.timerFired(purpose), .none) }
        case .tokenIssued(let key, let token, let epoch, let task, let request, let owner, let completion):
            if epoch == tokenEpoch { tokens[key] = token }
            // While the JWT was asked for, the user may have declined, or an erasure let go of
            // the task: nothing leaves then. The attempt ends with no response (a task still
            // queued waits for consent; an erased one's answer is ignored).
            guard projected.tasks[task] != nil, !projected.consentDeclined else {
                return completion(.networkError("not sent: the user declined, or the task was erased, while its JWT was asked for"))
            }
            environment.send(request, for: owner, completion: completion)
        case .moduleHookReturned(let module, let hook, let failure):
            moduleRunner.hookReturned(module: module, hook: hook, failure: failure, core: self)
        case .landingCallbackReturned(let landing):
            landingCallbackReturned(landing)
        case .retryJournal:
            resumeRecording()
        case .journalFailed(let reason):
            beginOutage(reason, at: now())
        case .enteredBackground(let time):
            enterBackground(time)
        case .enteredForeground:
            suspended = false
            if background != nil { endBackgroundTask(.foreground) }
            if journalGivenBack { takeJournalBack(at: now()) }
        case .backgroundJournalFlushed(let task, let failure):
            backgroundJournalFlushed(task: task, failure: failure)
        case .backgroundDeadline(let task):
            if background?.task == task { endBackgroundTask(.deadline) }
        case .backgroundTimeExpired(let task):
            backgroundTimeExpired(task: task)
        case .keyringWriteFailed(let project, let reason):
            handle(.keyringWriteFailed(project: project, reason: reason), .none)
        }
        // Background time is given back as soon as its flush is done (one branch per stimulus
        // otherwise).
        if background != nil { endBackgroundTaskIfFlushed() }
    }

    /// Whether a snapshot of the state now would be large (``EngineBounds/largeSnapshotBytes``),
    /// so that a due rotation waits for a smaller one.
    private var snapshotIsLarge: Bool {
        // Field by field: `capacityHint(for: projected)` would copy the whole state on each input
        // that asks (every input of a burst after the bound).
        let hint = StateCodec.capacityHint(pendingCalls: projected.pendingCalls.count, queuedBytes: projected.queueFootprint,
                                           queuedEvents: projected.queuedEvents, heldEvents: projected.heldEvents.count,
                                           gateBytes: projected.switching.gateBytes, gatedCalls: projected.switching.gate.count)
        return hint > EngineBounds.largeSnapshotBytes
    }

    /// The app shut the SDK down: every pending completion hears it (journaled) and the journal
    /// closes. The host answers whatever was posted after the stop.
    package func stop() {
        interruptedSwitchCalls = Set(projected.switching.inFlight?.calls ?? [])
        if background != nil { endBackgroundTask(.shutdown) }
        handle(.engineStopping, .none)
        try? recorder.close()
    }

    /// Records into `fresh` from now on (the journal reopened after a suspension).
    func replaceRecorder(with fresh: any FactRecorder) {
        recorder = fresh
    }

    // MARK: - Inputs

    /// Decides one of the background task's input facts (`EngineShell+Background.swift`).
    func handleBackground(_ input: Fact) {
        handle(input, .none)
    }

    /// Consumes `input` (moved into the decided facts) and `attachment` (its completion moved
    /// into the table): neither is copied.
    private func handle(_ input: consuming Fact, _ attachment: consuming EngineAttachment) {
        accept(attachment, for: input)
        let reading = environment.readClock()
        let time = max(clock.time(at: reading), lastTime)
        lastTime = time
        if case .engineStarted(var start) = input {
            // The anchor a relaunch in the same boot carries the journal's time on from.
            start.clock = MonotonicReading(microseconds: reading.monotonicMicroseconds, boot: reading.boot)
            decide(.engineStarted(start), at: time)
            resumeAfterStart()
        } else {
            decide(consume input, at: time)
        }
        // A wall clock that jumped is journaled after the input that noticed it (after the
        // engine start at a launch): the journal's time did not jump with it.
        if let jump = clock.jump(in: reading, at: time, offset: projected.clockOffsetMicroseconds) {
            decide(.clockJumped(wall: reading.wall, jumpMicroseconds: jump), at: time)
        }
    }

    /// The journal's time now (never before the last input's).
    func now() -> JournalTime {
        let time = max(clock.time(at: environment.readClock()), lastTime)
        lastTime = time
        return time
    }

    /// Schedules `action` once the journal's time reaches `due` (on the monotonic clock).
    func schedule(at due: JournalTime, _ action: @escaping @Sendable () -> Void) {
        environment.schedule(atMonotonicMicroseconds: clock.monotonicMicroseconds(at: due), action)
    }

    /// Decides `input` at `time`, records it with its decisions as one bundle and starts their
    /// effects; a rotation or retention due goes first.
    private func decide(_ input: consuming Fact, at time: JournalTime) {
        if journalGivenBack { takeJournalBack(at: time) }
        if journalOutage == nil && recordedSequence >= rotationRetryAfter {
            do {
                try recorder.beginSegmentIfNeeded(time: time, snapshotIsLarge: { snapshotIsLarge }) { _ in StateCodec.encode(projected) }
            } catch JournalError.recordTooLarge {
                // The state is too large for one snapshot record right now: the segment goes on
                // past its size bound, and the rotation is tried again once some more records
                // were written (not at every input: encoding a state that large is costly).
                rotationRetryAfter = recordedSequence + EngineBounds.rotationRetryRecords
            } catch {
                beginOutage("\(error)", at: time)
            }
        }
        if retentionAge != nil && time.microsecondsSince1970 >= nextRetentionCheck { removeAgedRecords(at: time) }
        var facts: [Fact] = []
        swap(&facts, &decided)
        // Filled as a local (one access to the property, not one per fact), then put back
        // with its storage for the next input.
        var records = RecordBundle()
        swap(&records, &bundle)
        projected.decide(consume input, at: time, into: &facts, records: &records)
        record(facts, records, at: time)
        swap(&records, &bundle)
        if environment.observesInputs {
            // The input is the first fact decided.
            environment.inputHandled(facts[0], facts: facts, state: projected, lastSequence: recordedSequence)
        }
        runEffects(of: facts)
        swap(&facts, &decided)
    }

    /// Appends an input and its decisions (`facts`, encoded as `records` by `decide`) as one
    /// bundle (a crash never keeps half of a decision); while the journal is out, counts them as
    /// lost instead.
    private func record(_ facts: [Fact], _ records: borrowing RecordBundle, at time: JournalTime) {
        if journalOutage == nil {
            do {
                recordedSequence = try recorder.record(records, timestamp: time)
                return
            } catch JournalError.recordTooLarge(let bytes, let limit) {
                // One input's record, not the disk: the journal stays on (the writer refused
                // the bundle before numbering any of it).
                recordTooLarge(facts, bytes: bytes, limit: limit, at: time)
                return
            } catch {
                beginOutage("\(error)", at: time)
                // The writer may have numbered the bundle (or part of it) before it failed: those
                // records are the reopened journal's to hold or to lose, and counted then. The
                // rest were never numbered. (Only this input's records, and the snapshot of a
                // rotation it began, follow `recordedSequence`.)
                let numbered = recorder.recordsHandedOut(after: recordedSequence).map { $0.count - UInt64($0.snapshots) } ?? 0
                journalOutage?.countUnrecorded(facts.count - Int(min(numbered, UInt64(facts.count))), at: time)
                return
            }
        }
        journalOutage?.countUnrecorded(facts.count, at: time)
    }

    /// The facts of one input could not be recorded: one of their records is over the journal's
    /// limit (``CallLimits`` keep every call's well under it: this is a backstop). A new segment
    /// begins whose snapshot holds the state with those facts (when the state fits one record),
    /// then a `journalGap` says which input's facts are missing and why; the journal records on.
    /// If even that fails, the journal is out as for any other failure.
    private func recordTooLarge(_ facts: [Fact], bytes: Int, limit: Int, at time: JournalTime) {
        let what = if case .callReceived(let received)? = facts.first {
            "the \(received.call.name.rawValue) call \(received.id)"
        } else {
            "the input \(facts.first.map { FactKind(rawValue: FactCodec.kind(of: $0))?.name ?? "?" } ?? "?")"
        }
        let reason = "\(facts.count) fact(s) of \(what) not recorded: a record of \(bytes) bytes is over the journal's limit of \(limit)"
        let gap = JournalGap(lostFacts: UInt64(facts.count), from: time, to: time, reason: reason, firstLostSequence: recordedSequence &+ 1)
        do {
            do {
                try recorder.beginSegment(time: time, skippingThrough: nil) { _ in StateCodec.encode(projected) }
            } catch JournalError.recordTooLarge {
                // The state is too large for a snapshot now as well: the gap goes in this
                // segment, and a rotation is tried again later (the fold of this segment lacks
                // the input's facts until then; the gap says so).
                rotationRetryAfter = recordedSequence + EngineBounds.rotationRetryRecords
            }
            var gapRecord = RecordBundle()
            FactCodec.append(.journalGap(gap), to: &gapRecord)
            recordedSequence = try recorder.record(gapRecord, timestamp: time)
            projected.evolve(.journalGap(gap), at: time)
        } catch {
            beginOutage("\(error)", at: time)
            journalOutage?.countUnrecorded(facts.count, at: time)
        }
    }

    // MARK: - Retention and erasure

    /// Asks the journal to delete the segments older than ``retentionAge``; asked again
    /// ``retentionCheckMicroseconds`` later.
    private func removeAgedRecords(at time: JournalTime) {
        guard let retentionAge, journalOutage == nil else { return }
        nextRetentionCheck = time.microsecondsSince1970 &+ retentionCheckMicroseconds
        do {
            try recorder.removeRecords(olderThan: retentionAge, at: time) { _ in StateCodec.encode(projected) }
        } catch JournalError.recordTooLarge {
            // The state is too large for a snapshot right now: tried again at the next check.
        } catch {
            beginOutage("\(error)", at: time)
        }
    }

    /// Erases the journal for `eraseLocalData` (`call`): a new segment begins with the state
    /// now (already without the user), every older one is deleted, cached JWTs are forgotten;
    /// then `localDataErased` says how much went, or why nothing did.
    func eraseLocalData(call: CallID) {
        forgetTokens()
        // Stamped with the time of the input that asked, the state's own: a relaunch that
        // restores this snapshot restores exactly the state the engine had.
        let time = lastTime
        var erasure = LocalDataErasure.nothingErased(call: call, failure: nil)
        if let journalOutage {
            erasure.erased.failure = "the journal is out: \(journalOutage.reason)"
        } else {
            do {
                var erased = try recorder.eraseAll(time: time) { _ in StateCodec.encode(projected) }
                recordedSequence = recorder.lastSequence
                // The fact's failure says why records are still there: files left behind, not
                // deletions that may not be durable.
                erased.failure = erased.segmentsLeft > 0
                    ? "\(erased.segmentsLeft) segment(s) of \(erased.bytesLeft) bytes could not be deleted: " + (erased.failure ?? "no reason given")
                    : nil
                erasure.erased = erased
            } catch {
                erasure.erased.failure = "\(error)"
            }
        }
        inbox.post(.input(.localDataErased(erasure), .none))
    }

    // MARK: - A journal that fails comes back

    /// The journal stopped accepting facts: go on in memory and try again later.
    func beginOutage(_ reason: String, at time: JournalTime) {
        guard journalOutage == nil else { return }
        journalOutage = JournalOutage(reason: reason, since: time, numberedThrough: recorder.lastSequence)
        environment.journalFailed(reason: reason)
        scheduleJournalRetry()
    }

    private func scheduleJournalRetry() {
        guard var current = journalOutage, !current.retryScheduled else { return }
        current.retryScheduled = true
        let due = now().advanced(byMilliseconds: current.retryDelayMilliseconds)
        current.retryDelayMilliseconds = min(current.retryDelayMilliseconds * 2, JournalOutage.maximumRetryDelay)
        journalOutage = current
        let inbox = inbox
        schedule(at: due) { inbox.post(.retryJournal) }
    }

    /// Opens the journal again: a new segment whose snapshot is the state now, then a
    /// `journalGap` fact that says what is missing. On failure, tries again later.
    ///
    /// The new segment begins past every sequence number a writer gave out, and the gap counts
    /// the numbered records the reopened journal does not hold (the first reopening says which
    /// it holds: its recovery made them durable) with the facts decided since.
    private func resumeRecording() {
        guard var current = journalOutage else { return }
        current.retryScheduled = false
        let time = now()
        try? recorder.close()
        current.numberedThrough = max(current.numberedThrough, recorder.lastSequence)
        journalOutage = current
        do {
            guard let fresh = try environment.reopenRecorder() else { return }
            if current.lostRecords == nil {
                current.lostRecords = JournalOutage.LostRecords(
                    keptThrough: fresh.recoveredThrough, handedOut: recorder.recordsHandedOut(after: fresh.recoveredThrough))
                journalOutage = current
            }
            // From here on the fresh writer is the one that numbers: if this attempt fails, the
            // next one begins past whatever it gave out.
            recorder = fresh
            try fresh.beginSegment(time: time, skippingThrough: current.numberedThrough) { _ in StateCodec.encode(projected) }
            let gap = current.gap(to: time)
            var gapRecord = RecordBundle()
            FactCodec.append(.journalGap(gap), to: &gapRecord)
            recordedSequence = try fresh.record(gapRecord, timestamp: time)
            // The live state is the fold of the journal: the gap is one of its facts too.
            projected.evolve(.journalGap(gap), at: time)
            journalOutage = nil
            environment.journalResumed(after: gap, state: projected, lastSequence: recordedSequence)
        } catch {
            scheduleJournalRetry()
        }
    }

    // MARK: - Attachments

    /// Stores what an input carries outside the journal: completions, keys, providers, tokens.
    private func accept(_ attachment: consuming EngineAttachment, for input: Fact) {
        // One after the other, not as a tuple: a tuple of the two would copy both.
        switch consume attachment {
        case .none, .completion(nil):
            break
        case .completion(let completion?):
            if let call = input.receivedCallID { keepCompletion(consume completion, for: call) }
        case .project(let project, let completion):
            guard case .callReceived(let received) = input else { break }
            if let completion { keepCompletion(completion, for: received.id) }
            if let reference = received.call.carriedProject { remember(project, as: reference) }
        case .token(let token, let user, let epoch):
            if case .authTokenReceived(let receipt) = input, epoch == tokenEpoch { tokens[JWTKey(project: receipt.project, user: user)] = token }
        case .refusedToken(let key):
            tokens[key] = nil
        }
    }

    /// Files a call's completion until the call resolves.
    private func keepCompletion(_ completion: consuming CallCompletion, for call: CallID) {
        completions.insert(completion, for: call)
    }

    /// The completion filed for `call`, taken out of the table.
    func takeCompletion(for call: CallID) -> CallCompletion? {
        completions.remove(call)
    }

    /// Keeps a project's key and auth provider for sending, and files the key in the keyring. A
    /// request without a provider never removes one: whether requests carry a JWT follows the
    /// configuration the SDK is on (`ProjectRef.usesJWT`, changed only when an instance
    /// starts), so a queued switch to the same key without auth cannot strip the running
    /// instance of its tokens.
    ///
    /// `reference` is the project as the call journaled it (made from `project` by the API):
    /// its fingerprint, region and endpoint are not computed again here.
    private func remember(_ project: Project, as reference: ProjectRef) {
        let fingerprint = reference.fingerprint
        keys[fingerprint] = project.apiKey
        if let provider = project.config.authProvider { authProviders[fingerprint] = provider }
        let inbox = inbox
        // In flight until filed, so `settle()` waits for it (and for its failure's fact).
        inbox.effectBegan()
        environment.storeKey(KeyringEntry(apiKey: project.apiKey, region: reference.region, endpoint: reference.endpoint), for: fingerprint) { failure in
            if let failure { inbox.finish(.keyringWriteFailed(project: fingerprint, reason: failure)) } else { inbox.effectEnded() }
        }
    }

    /// After a (re)start: re-arm the timers (in order of due time), answer what the previous
    /// process left waiting (everything in a recovered journal was made durable by its
    /// recovery, unless the disk refused: then the journal is out from the start and the waits
    /// fail; its module hooks and link resolutions are gone). A landed switch's callbacks died
    /// with that process: `evolve` of the start already stopped waiting for them.
    private func resumeAfterStart() {
        let timers = projected.timers.sorted { lhs, rhs in
            lhs.value != rhs.value ? lhs.value < rhs.value : "\(lhs.key)" < "\(rhs.key)"
        }
        for (purpose, due) in timers { schedule(purpose, at: due) }
        for request in projected.durabilityWaits.keys.sorted() {
            inbox.post(.input(.durabilityConfirmed(DurabilityConfirmation(request: request, failure: journalOutage?.description)), .none))
        }
        for hook in projected.hooks.keys.sorted() {
            inbox.post(.input(.moduleHookCompleted(ModuleHookCompletion(hook: hook, failure: "interrupted by a restart")), .none))
        }
        for job in projected.linkJobs.keys.sorted() {
            inbox.post(.input(.linkResolved(LinkResolution(job: job, destination: nil, attribution: nil,
                                                           failure: "interrupted by a restart")), .none))
        }
        // An erasure the previous process asked for and never confirmed is carried out now:
        // its snapshot may not have been durable (the old records are still there), or it was
        // and only the confirmation was lost; either way the journal is erased again.
        var erasures: [CallID] = []
        for index in projected.pendingCalls.indices where projected.pendingCalls[index].value.name == .eraseLocalData {
            erasures.append(projected.pendingCalls[index].key)
        }
        for call in erasures.sorted() { eraseLocalData(call: call) }
    }

    func schedule(_ purpose: TimerPurpose, at due: JournalTime) {
        let inbox = inbox
        schedule(at: due) { inbox.post(.timerDue(purpose, due)) }
    }
}
