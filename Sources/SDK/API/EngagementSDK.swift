import Dispatch
import Foundation
import Journal
import Locking

/// The engagement SDK: one instance per workspace, each with its own journal directory.
///
/// Every public call returns at once; calls made from one thread are processed in the order
/// they were made. Each call's completion resolves exactly once (delivered, applied, failed or
/// discarded), on ``SDKConfiguration/callbackQueue``. Getters see every call made before them on
/// the same thread. Everything the SDK does is journaled; `replay` reads the journal.
public final class EngagementSDK: Sendable {
    /// This SDK's version.
    public static let version = "0.1.0"

    public let configuration: SDKConfiguration
    /// What opening the journal found (a torn tail truncated, corruption kept aside).
    public let journalRecovery: RecoveryReport
    /// Facts in the journal that could not be decoded when the state was rebuilt (skipped).
    public let undecodableFacts: [UInt64]

    private let mailbox: Mailbox<EngineMessage>
    private let published: Locked<PublishedView>
    let status: StatusBroadcaster
    private let stopped = Locked(false)
    private let engineThread = Locked<UInt64?>(nil)
    /// Call ids the restored journal still refers to (calls the previous process left pending,
    /// tasks, held calls): a new call never gets one, so no old outcome reaches a new completion.
    private let callIDsInUse: Set<UUID>

    /// Opens (creating or restoring) the journal in the configuration's directory and starts
    /// the engine. A restored instance resumes delivery of what was queued.
    public init(configuration: SDKConfiguration) throws {
        self.configuration = configuration
        try FileManager.default.createDirectory(atPath: configuration.storageDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let keyring = try Keyring(path: configuration.keyringPath)
        var options = JournalOptions()
        options.rotation = .onRequest
        options.segmentBytes = configuration.journalSegmentBytes
        options.segmentRecords = configuration.journalSegmentRecords
        options.retainedBytes = configuration.journalRetainedBytes
        options.groupCommit = configuration.groupCommit
        options.maxRecordBytes = SegmentFormat.maxRecordBytesLimit
        options.producer = "engagement-sdk/\(configuration.sdkVersion) \(Self.platform)"
        options.storage = configuration.journalStorage
        // The group-commit thread's failure reaches the engine at once, not at the next append.
        let mailbox = Mailbox<EngineMessage>()
        options.backgroundFailureObserver = { error in mailbox.post(.event(.journalFailed(error.description))) }
        let recorder: any FactRecorder
        let reopen: (@Sendable () throws -> any FactRecorder)?
        let restored: StateRestorer.Restored
        if let override = configuration.recorderOverride {
            recorder = override
            reopen = nil
            restored = StateRestorer.Restored(state: SDKState(), hadFacts: false, undecodable: [])
            journalRecovery = RecoveryReport()
        } else {
            let writer = try JournalWriter(directory: configuration.journalDirectory, options: options, snapshot: nil)
            recorder = writer
            let directory = configuration.journalDirectory
            let reopenOptions = options
            reopen = { try JournalWriter(directory: directory, options: reopenOptions, snapshot: nil) }
            restored = try StateRestorer.restore(directory: configuration.journalDirectory, storage: configuration.journalStorage)
            journalRecovery = writer.recovery
        }
        undecodableFacts = restored.undecodable.map(\.sequence)
        callIDsInUse = restored.state.callIDsInUse

        let published = Locked(PublishedView(state: restored.state))
        let status = StatusBroadcaster(initial: SwitchStatus(restored.state))
        self.mailbox = mailbox
        self.published = published
        self.status = status
        let loop = EngineLoop(configuration: configuration, mailbox: mailbox, activity: ActivityTracker(),
                              published: published, status: status, recorder: recorder, reopenRecorder: reopen, keyring: keyring,
                              restored: restored.state)
        let engineThread = engineThread
        let thread = Thread {
            engineThread.withLock { $0 = Self.currentThreadID() }
            loop.run()
        }
        thread.name = "engagement-sdk.engine"
        thread.start()
        let modules = configuration.modules.map { ModuleDescriptor(name: $0.info.name, notifications: $0.notificationNames) }
        mailbox.post(.input(.engineStarted(EngineStart(
            sdkVersion: configuration.sdkVersion, restored: restored.hadFacts, options: configuration.rules, modules: modules)), .none))
    }

    deinit {
        shutdown()
    }

    /// Stops the engine and closes the journal (everything appended becomes durable). Blocks the
    /// calling thread until the engine stopped. Every completion still pending resolves as
    /// ``DiscardReason/shutdown`` (journaled); a switch that had not begun reports
    /// ``SwitchResult/notPerformed``, one in its teardown ``SwitchResult/interruptedByShutdown``.
    /// Calls made afterwards resolve at once the same way, on the callback queue. Safe to call
    /// more than once, from any thread but the engine's.
    public func shutdown() {
        guard !stopped.withLock({ was in defer { was = true }; return was }) else { return }
        let done = DispatchSemaphore(value: 0)
        if mailbox.post(.stop { done.signal() }) { done.wait() }
    }

    /// Returns once every call made before it is processed and nothing the SDK started is still
    /// in flight (requests, flushes, module hooks, completions). Timers do not count: a test on
    /// a ``ManualClock`` advances it and settles again. Returns at once after ``shutdown()``.
    public func settle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if !mailbox.post(.settle { continuation.resume() }) { continuation.resume() }
        }
    }

    /// Like ``settle()``, but gives up once `timeout` has passed on the SDK's clock
    /// (``SDKConfiguration/clock``: real time by default, a ``ManualClock`` moves only when
    /// advanced). Returns whether the SDK settled.
    @discardableResult
    public func settle(timeout: Duration) async -> Bool {
        let clock = configuration.clock
        let due = clock.now().advanced(by: timeout)
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let once = OneShotCompletion<Bool> { continuation.resume(returning: $0) }
            clock.schedule(at: due) { once.deliver(false) }
            if !mailbox.post(.settle { once.deliver(true) }) { once.deliver(true) }
        }
    }

    /// The most messages that ever waited in the mailbox at once, and the bound at which public
    /// calls wait for room (tests of the overload behaviour read them).
    var mailboxHighWaterMark: Int { mailbox.highWaterMark }
    var mailboxCapacity: Int { mailbox.capacity }

    // MARK: - Submitting calls

    /// Hands a call to the mailbox; `completion` hears its outcome.
    func submit(_ call: PublicCall, _ completion: (@Sendable (CallOutcome) -> Void)?) {
        post(call, .completion(completion.map(CallCompletion.outcome)))
    }

    func submit(_ call: PublicCall) async -> CallOutcome {
        await withCheckedContinuation { continuation in
            submit(call) { continuation.resume(returning: $0) }
        }
    }

    func post(_ call: PublicCall, _ attachment: EngineAttachment) {
        let received = ReceivedCall(id: CallID(makeCallID()), caller: Self.currentThreadID(), call: call)
        if !mailbox.postWaitingForRoom(.input(.callReceived(received), attachment)) {
            let completion: CallCompletion? = switch attachment {
            case .completion(let completion): completion
            case .project(_, let completion): completion
            default: nil
            }
            if let completion { configuration.callbackQueue.async { completion.deliverShutdown() } }
        }
    }

    /// A fresh call id: the configured generator's, skipping any the restored journal still uses.
    private func makeCallID() -> UUID {
        var id = configuration.makeCallID()
        // Empty after a fresh start: the caller's path then pays for no lookup.
        while !callIDsInUse.isEmpty && callIDsInUse.contains(id) { id = configuration.makeCallID() }
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

    /// Reads the state once every call made before on this thread was processed. On the engine
    /// thread itself (a module's handler) it reads the state as of the last batch of inputs.
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
        UInt64(pthread_self())
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
