import Dispatch
import Foundation
import Journal
import Locking
import SDKCore

/// The engagement SDK: one instance per workspace, each with its own journal directory.
///
/// ## The contract of every call
///
/// - **It returns at once.** A call posts its input to the instance's mailbox and returns; it
///   never waits for the network, the disk, a module or a switch. The one wait is back-pressure:
///   while 16,384 messages already wait in the mailbox, the calling thread waits until the engine
///   takes them (nothing is dropped). A call made on the engine thread never waits. The calls are
///   synchronous, so in `async` code too they are made without `await` and return at once; the
///   forms that wait for the outcome are apart, on ``outcome`` (`await sdk.outcome.flush()`).
/// - **In order.** Calls made from one thread are processed in the order they were made.
/// - **One engine thread.** Each instance decides everything on one thread of its own
///   (`engagement-sdk.engine`) and journals each input with its decisions before acting on them.
///   HTTP, the journal's syncs, awaited module hooks and completions run elsewhere.
/// - **Exactly one outcome.** A completion runs exactly once, on
///   ``SDKConfiguration/callbackQueue`` (never on the caller's thread, never on the engine thread),
///   after its outcome was decided and journaled; its awaited form (``outcome``) returns that same
///   value. A call never throws and never traps on its arguments: unusable ones resolve as
///   `CallFailure.rejected(_:)`, naming the argument.
/// - **Getters see what came before.** A property read blocks the calling thread until every call
///   made before it on that thread was processed (a module reading on the engine thread sees the
///   state as of the last inputs it handled). After ``shutdown()`` reads return the last state.
///
/// ## Outcomes
///
/// - `CallOutcome.applied(project:)`: the call took effect inside the SDK; nothing was sent.
/// - `CallOutcome.delivered(project:status:)`: its request reached the project, which answered 2xx.
/// - `CallOutcome.failed(_:)`: `CallFailure.rejected(_:)`, `CallFailure.notInitialized`
///   (before ``initialize(_:completion:)``), `CallFailure.httpStatus(_:code:message:)` (a status
///   retrying cannot fix), `CallFailure.retriesExhausted(_:)` (5xx and 429 for
///   `RetryRules.maxAttempts` answers, with backoff), `CallFailure.authentication(_:)` (no
///   usable JWT).
/// - `CallOutcome.discarded(_:)`: dropped on purpose and journaled: `DiscardReason.queueFull(capacity:)`,
///   `DiscardReason.gateFull(capacity:)`, `DiscardReason.purgedByLogout`,
///   `DiscardReason.purgedBySwitch(_:)`, `DiscardReason.undeliveredAtSwitch(_:)`,
///   `DiscardReason.expired(ageLimit:)`, `DiscardReason.shutdown`.
///
/// A call that sends a request completes when the project's last answer for it came. A request
/// that gets no answer at all (offline, refused, dropped, timed out) is never used up: it waits, in
/// call order, trying again with a backoff that doubles up to `RetryRules.maxDelayMilliseconds`,
/// and goes at once when the app calls ``networkBecameReachable()``; its completion runs when it is
/// finally answered, or when it expires (`EngineRules.deliveryAgeLimitMilliseconds`, 7 days). A
/// process killed before that never runs the completion; the request, already in the journal, is
/// sent again after the next launch under the same `Idempotency-Key`, and the backend takes it
/// once.
///
/// Every argument has a limit (`CallLimits`): a call over one is rejected at once
/// (`CallFailure.rejected(_:)`, naming the field and its limit) and journaled by its name and
/// that reason only.
///
/// ## During a switch
///
/// Identity, profile, commerce, event, push-token and fetch calls are *gated*: while a switch runs
/// they are held, at most `EngineRules.gateCapacity` calls (`EngineRules.gateByteCapacity`
/// bytes), and run in order against the new project once it lands; their completions run then.
/// Push opens, in-app and embedded tracking, attribution and universal links run *inline*, against
/// the project the SDK is on now. ``initialize(_:completion:)``, ``switchProject(to:completion:)``
/// and ``flush(completion:)`` are never held.
public final class EngagementSDK: Sendable {
    /// This SDK's version, sent in every request's `SDK-Version` header and recorded in the journal.
    public static let version = "0.1.0"

    /// The configuration this instance was made with (read-only: an instance never changes its wiring).
    public let configuration: SDKConfiguration
    /// What opening the journal found: a torn tail truncated, corruption set aside. Known once the
    /// initializer returns; never changes afterwards. Empty when the files could not be opened at
    /// launch (``storageStatus``): the later opening's recovery is not reported here.
    public let journalRecovery: RecoveryReport
    /// The journal sequences of facts that could not be decoded when the state was rebuilt (skipped,
    /// never a crash); empty for a fresh journal, and when the files could not be opened at launch.
    public let undecodableFacts: [UInt64]
    /// What the app reads of the storage (``storageStatus``).
    let storageHealth: Locked<StorageStatus>

    private let mailbox: Mailbox<EngineMessage>
    private let published: Locked<PublishedView>
    let status: StatusBroadcaster
    private let stopped = Locked(false)
    private let engineThread = Locked<UInt64?>(nil)
    /// Names ``settle(timeout:)``'s waiters, so one that timed out can be dropped.
    private let settleIDs = Locked<UInt64>(0)
    /// Call ids the restored journal still refers to (calls the previous process left pending,
    /// tasks, held calls): a new call never gets one, so no old outcome reaches a new completion.
    private let callIDsInUse: Set<UUID>

    /// Opens the journal in the configuration's directory (creating it, mode 0700, or restoring its
    /// state) and starts the instance's engine thread. The journal's directory and files, and each
    /// keyring file, get the configuration's protection class and backup exclusion
    /// (``SDKConfiguration/journalProtection`` and the like).
    ///
    /// Blocks the calling thread while it restores: it reads the newest snapshot and folds the facts
    /// after it (at most twice ``SDKConfiguration/journalSegmentRecords``). It sends nothing for the app
    /// before ``initialize(_:completion:)``; a restored instance resumes delivering what was queued,
    /// and a switch a crash interrupted continues. Throws when the directory cannot be created, the
    /// keyring cannot be read, the journal cannot be opened or the system refuses a protection class or
    /// backup exclusion (``StoredItemAttributeError``); nothing is started then.
    ///
    /// Except when the keyring or journal cannot be opened *yet* (`EPERM`: a file protection class
    /// on a device not unlocked since boot): then it returns in the "storage unavailable" mode
    /// (``storageStatus``): calls are held in memory, bounded
    /// (``SDKConfiguration/storageHoldCapacity``), nothing is sent and no identity or key is made,
    /// until the files open (``protectedDataDidBecomeAvailable()``, or a retry every
    /// ``SDKConfiguration/storageRetryInterval``); then the held calls are journaled in order
    /// after a `storageWasUnavailable` fact and delivery resumes. Before anything,
    /// throws a ``ConfigurationError`` naming the first configuration value outside its range
    /// (``SDKConfiguration/validate()``): nothing is created then.
    public init(configuration: SDKConfiguration) throws {
        try configuration.validate()
        self.configuration = configuration
        try FileManager.default.createDirectory(atPath: configuration.storageDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        var options = JournalOptions()
        options.rotation = .onRequest
        options.segmentBytes = configuration.journalSegmentBytes
        options.segmentRecords = configuration.journalSegmentRecords
        options.retainedBytes = configuration.journalRetainedBytes
        options.groupCommit = configuration.groupCommit
        options.maxRecordBytes = SegmentFormat.maxRecordBytesLimit
        options.producer = "engagement-sdk/\(configuration.sdkVersion) \(Self.platform)"
        options.storage = configuration.journalStorage
        // One writer per journal, across the app's processes (``SDKConfiguration/processRole``).
        options.locksDirectory = true
        // The group-commit thread's failure reaches the engine at once, not at the next append.
        let mailbox = Mailbox<EngineMessage>()
        options.backgroundFailureObserver = { error in mailbox.post(.stimulus(.journalFailed(error.description))) }
        let opener = StorageOpener(configuration: configuration, options: options)
        let opened: OpenedStorage?
        let unavailable: String?
        do {
            opened = try opener.open()
            unavailable = nil
        } catch where StorageOpener.isProtectedDataUnavailable(error) {
            opened = nil
            unavailable = "\(error)"
        }
        journalRecovery = opened?.recovery ?? RecoveryReport()
        undecodableFacts = opened?.restored.undecodable.map(\.sequence) ?? []
        callIDsInUse = opened?.restored.state.callIDsInUse ?? []

        let state = opened?.restored.state ?? SDKState()
        let published = Locked(PublishedView(state: state))
        let status = StatusBroadcaster(initial: SwitchStatus(state))
        let health = Locked(StorageStatus.available)
        self.mailbox = mailbox
        self.published = published
        self.status = status
        storageHealth = health
        let modules = configuration.modules.map { ModuleDescriptor(name: $0.info.name, notifications: $0.notificationNames) }
        let sdkVersion = configuration.sdkVersion
        let rules = configuration.rules
        let makeStart: @Sendable (Bool) -> Fact = { restored in
            .engineStarted(EngineStart(sdkVersion: sdkVersion, restored: restored, options: rules, modules: modules))
        }
        let engineThread = engineThread
        let thread: Thread
        if let opened {
            let loop = EngineLoop(configuration: configuration, mailbox: mailbox, activity: ActivityTracker(),
                                  published: published, status: status, storage: opened, health: health)
            thread = Thread {
                engineThread.withLock { $0 = Self.currentThreadID() }
                loop.run()
            }
            mailbox.post(.input(makeStart(opened.restored.hadFacts), .none))
        } else {
            let wait = StorageWait(configuration: configuration, mailbox: mailbox, published: published, status: status, health: health,
                                   opener: opener, failure: unavailable ?? "", makeStart: makeStart)
            wait.armRetry()
            thread = Thread {
                engineThread.withLock { $0 = Self.currentThreadID() }
                guard let (loop, first) = wait.run() else { return }
                loop.run(startingWith: first)
            }
        }
        thread.name = "engagement-sdk.engine"
        thread.start()
    }

    deinit {
        shutdown()
    }

    /// Stops the engine and closes the journal (everything appended becomes durable).
    ///
    /// Blocks the calling thread until the engine handled the stop and the journal's last group was
    /// synced: bounded by the disk, never by the network or an awaited module hook (neither is
    /// waited for).
    /// Every completion still pending resolves as `DiscardReason.shutdown` (journaled); a switch that
    /// had not begun reports `SwitchResult.notPerformed`, one in its teardown
    /// `SwitchResult.interruptedByShutdown`. Those completions are queued on the callback queue
    /// before this returns and may run after it. Calls made afterwards resolve at once the same way,
    /// on the callback queue; ``switchStatusUpdates()`` streams finish. Safe to call more than once,
    /// from any thread but the engine's (a module's handler would wait for itself). Also called when
    /// the instance is deinitialized.
    public func shutdown() {
        guard !stopped.withLock({ was in defer { was = true }; return was }) else { return }
        let done = DispatchSemaphore(value: 0)
        if mailbox.post(.stop { done.signal() }) { done.wait() }
    }

    /// Returns once every call made before it is processed and nothing the SDK started is still in
    /// flight (requests, flushes, keys being filed in the keyring, module hooks, completions).
    ///
    /// Timers do not count: a test on a `ManualClock` (SDKTesting) advances it and settles again. It has no
    /// bound of its own: a request waits for its timeout, an awaited module hook until it returns
    /// (use ``settle(timeout:)`` for a bound). Returns at once after ``shutdown()``.
    public func settle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if !mailbox.post(.settle(id: nil) { continuation.resume() }) { continuation.resume() }
        }
    }

    /// Like ``settle()``, but gives up once `timeout` has passed on the SDK's clock.
    ///
    /// The clock is ``SDKConfiguration/clock``: real time by default; a `ManualClock` (SDKTesting) moves only when
    /// advanced, so the bound passes only then. Returns whether the SDK settled (true at once after
    /// ``shutdown()``); never cancels or changes what is in flight. A call that timed out leaves
    /// nothing behind: polling it while something stays in flight does not grow any list.
    @discardableResult
    public func settle(timeout: Duration) async -> Bool {
        let clock = configuration.clock
        let due = clock.read().monotonicMicroseconds &+ timeout.wholeMicroseconds
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let once = OneShotCompletion<Bool> { continuation.resume(returning: $0) }
            let id = settleIDs.withLock { next in
                defer { next &+= 1 }
                return next
            }
            // The waiter is posted before its timeout is armed: a timeout's `forgetSettle` then
            // always finds it in the mailbox ahead of itself.
            guard mailbox.post(.settle(id: id) { once.deliver(true) }) else {
                once.deliver(true)
                return
            }
            let mailbox = mailbox
            clock.schedule(atMonotonicMicroseconds: due) {
                if once.deliver(false) { mailbox.post(.forgetSettle(id)) }
            }
        }
    }

    /// The most messages that ever waited in the mailbox at once, and the bound at which public
    /// calls wait for room (tests of the overload behaviour read them).
    var mailboxHighWaterMark: Int { mailbox.highWaterMark }
    var mailboxCapacity: Int { mailbox.capacity }

    // MARK: - Submitting calls

    /// Hands a call to the mailbox; `completion` hears its outcome.
    func submit(_ call: consuming PublicCall, _ completion: (@Sendable (CallOutcome) -> Void)?) {
        post(call, .completion(completion.map(CallCompletion.outcome)))
    }

    func submit(_ call: PublicCall) async -> CallOutcome {
        await withCheckedContinuation { continuation in
            submit(call) { continuation.resume(returning: $0) }
        }
    }

    /// The call and its attachment are consumed: moved into the mailbox's message, not copied.
    func post(_ call: consuming PublicCall, _ attachment: consuming EngineAttachment) {
        let received = ReceivedCall(id: makeCallID(), caller: Self.currentThreadID(), call: consume call)
        // A closed mailbox hands the message back: its completion hears of the shutdown.
        if case .stimulus(.input(_, let attachment))? = mailbox.postWaitingForRoom(.input(.callReceived(consume received), consume attachment)) {
            let completion: CallCompletion? = switch attachment {
            case .completion(let completion): completion
            case .project(_, let completion): completion
            case .none, .token, .refusedToken: nil
            }
            if let completion { configuration.callbackQueue.async { completion.deliverShutdown() } }
        }
    }

    /// A fresh call id: the configured generator's, skipping any the restored journal still uses.
    private func makeCallID() -> CallID {
        func next() -> CallID {
            if let custom = configuration.customCallIDs { CallID(custom()) } else { configuration.callIDGenerator.nextCallID() }
        }
        var id = next()
        // Empty after a fresh start: the caller's path then pays for no lookup.
        while !callIDsInUse.isEmpty && callIDsInUse.contains(id.uuid) { id = next() }
        return id
    }

    /// The engine's state and last journal sequence once every earlier call was processed.
    func engineView() -> EngineView? {
        let result = Locked<EngineView?>(nil)
        let barrier = DispatchSemaphore(value: 0)
        guard mailbox.post(.barrier { view in
            result.withLock { $0 = view }
            barrier.signal()
        }) else { return nil }
        barrier.wait()
        return result.withLock { $0 }
    }

    /// Posts an input that is not a call (a notification).
    func mailboxPost(_ input: Fact) {
        mailbox.post(.input(input, .none))
    }

    /// Asks the engine to try opening the SDK's files now (``protectedDataDidBecomeAvailable()``).
    func mailboxPostOpenStorage() {
        mailbox.post(.openStorage(byTimer: false))
    }

    /// Posts a stimulus that is not an input (the app's phase); false after the shutdown.
    @discardableResult
    func mailboxPost(stimulus: EngineStimulus) -> Bool {
        mailbox.post(.stimulus(stimulus))
    }

    /// Reads the state once every call made before on this thread was processed. On the engine
    /// thread itself (a module's handler) it reads the state as of the last inputs it handled.
    func read<Value: Sendable>(_ body: @escaping @Sendable (PublishedView) -> Value) -> Value {
        if engineThread.withLock({ $0 }) != Self.currentThreadID() && !stopped.withLock({ $0 }) {
            let result = Locked<Value?>(nil)
            let barrier = DispatchSemaphore(value: 0)
            if mailbox.post(.barrier { view in
                result.withLock { $0 = body(PublishedView(state: view.state)) }
                barrier.signal()
            }) {
                barrier.wait()
                if let value = result.withLock({ $0 }) { return value }
            }
        }
        return body(published.withLock { $0 })
    }

    static func currentThreadID() -> UInt64 {
        CurrentThread.id
    }

    static var platform: String {
        #if os(Linux)
        let system = "linux"
        #else
        let system = "darwin"
        #endif
        #if arch(x86_64)
        return system + "-x86_64"
        #elseif arch(arm64)
        return system + "-arm64"
        #else
        return system
        #endif
    }
}
