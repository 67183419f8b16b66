import Dispatch
import Journal
import Locking
import SDKCore

/// The world the SDK's engine runs in: the configured clock, transport, callback queue and
/// modules, the device's keyring, and the journal directory to reopen after a failure.
///
/// Engine thread only (the ``EngineLoop`` that owns it is handed to that thread once).
final class LiveEnvironment: EngineEnvironment {
    private let configuration: SDKConfiguration
    private let keyring: Keyring
    private let reopen: (@Sendable () throws -> any FactRecorder)?
    private let modules: [String: any SDKModule]
    /// The task of each module's awaited hook still running.
    private var awaited: [String: (hook: UInt64, task: Task<Void, Never>)] = [:]
    private let keyringQueue = DispatchQueue(label: "engagement-sdk.keyring")
    /// What the app reads of the storage (``EngagementSDK/storageStatus``): failed keyring
    /// writes are noted there as well as journaled.
    private let health: Locked<StorageStatus>
    /// Completions handed in while the core starts one input's effects (``runCallback(landing:_:)``,
    /// ``runCompletion(_:inbox:)``), in order.
    ///
    /// Its accesses, and those of ``deliveriesInbox``, are not checked for exclusivity at run time
    /// (one check per call's completion and one per input, otherwise): both are touched only by
    /// this class's methods on the engine thread, and no access to either spans a call that could
    /// come back into this class.
    @exclusivity(unchecked) private var heldCallbacks: [HeldCallback] = []
    /// The inbox of the held deliveries, once one is held: the group counts as one effect
    /// running, begun at the first delivery and ended once the whole group ran.
    @exclusivity(unchecked) private var deliveriesInbox: EngineInbox?
    /// How many completions the last group handed over held: the room a new group is given at
    /// its first completion (an input that resolves a bulk request's calls holds hundreds, and
    /// growing to them one doubling at a time would copy the group nine times).
    @exclusivity(unchecked) private var lastGroupCount = 0

    /// A held completion: a body, or a call's completion with what it reports (a value, with no
    /// closure allocated for it).

    init(configuration: SDKConfiguration, keyring: Keyring, reopenRecorder: (@Sendable () throws -> any FactRecorder)?,
         health: Locked<StorageStatus>) {
        self.configuration = configuration
        self.health = health
        self.keyring = keyring
        reopen = reopenRecorder
        modules = Dictionary(configuration.modules.map { ($0.info.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func readClock() -> ClockReading { configuration.clock.read() }

    func schedule(atMonotonicMicroseconds due: Int64, _ action: @escaping @Sendable () -> Void) {
        configuration.clock.schedule(atMonotonicMicroseconds: due, action)
    }

    func send(_ request: TransportRequest, for owner: EffectOwner, completion: @escaping @Sendable (TransportResult) -> Void) {
        configuration.transport.send(request, completion: completion)
    }

    func requestToken(for project: ProjectFingerprint, from provider: any AuthProvider, owner: EffectOwner,
                      completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
        provider.requestToken(for: owner.user, completion: completion)
    }

    /// Holds an input's completions, so a bulk answer's hundreds of them reach the callback
    /// queue as one work item, in order.
    func runCallback(landing: SwitchID?, _ body: @escaping @Sendable () -> Void) {
        heldCallbacks.append(.body(body))
    }

    /// Held with the input's other completions; the held deliveries count as one effect, from
    /// the first of them until the group they go in ran (one `effectBegan` and one
    /// `effectEnded` for a bulk answer's hundreds of completions, not one each).
    func runCompletion(_ delivery: consuming CompletionDelivery, inbox: EngineInbox) {
        if deliveriesInbox == nil {
            inbox.effectBegan()
            deliveriesInbox = inbox
        }
        // Swapped out, appended to and swapped back: appended to in place, through the access
        // to the property, the delivery would be copied into the array (its completion, outcome
        // and destination retained, and the consumed original released) and the access ended
        // at run time; appended to a local, it is moved in.
        var held: [HeldCallback] = []
        swap(&held, &heldCallbacks)
        if held.isEmpty && held.capacity < lastGroupCount { held.reserveCapacity(lastGroupCount) }
        held.append(.delivery(delivery))
        swap(&held, &heldCallbacks)
    }

    func callbacksHandedOver() {
        // Most inputs hold nothing (and then no inbox): they return before touching the inbox.
        guard !heldCallbacks.isEmpty else { return }
        let inbox = deliveriesInbox
        deliveriesInbox = nil
        switch heldCallbacks.count {
        case 1:
            if case .body(let body) = heldCallbacks[0] {
                configuration.callbackQueue.async(execute: body)
                break
            }
            fallthrough
        default:
            lastGroupCount = heldCallbacks.count
            let group = HeldCallbackGroup(heldCallbacks)
            heldCallbacks = []
            configuration.callbackQueue.async {
                group.runAll()
                inbox?.effectEnded()
            }
            return
        }
        heldCallbacks.removeAll(keepingCapacity: true)
    }

    func hasModule(_ name: String) -> Bool { modules[name] != nil }

    func process(_ signal: ModuleSignal, context: ModuleContext, module name: String) throws {
        try modules[name]?.process(signal: signal, context: context)
    }

    func startAwaitedHook(_ hook: UInt64, _ signal: ModuleSignal, context: ModuleContext, module name: String,
                          returned: @escaping @Sendable (String?) -> Void) {
        guard let module = modules[name] else { return returned(nil) }
        let task = Task {
            var failure: String?
            do {
                try await module.processAwaited(signal: signal, context: context)
            } catch {
                failure = "\(error)"
            }
            returned(failure)
        }
        awaited[name] = (hook, task)
    }

    func abandonAwaitedHook(_ hook: UInt64, module name: String) {
        if let entry = awaited[name], entry.hook == hook { entry.task.cancel() }
    }

    func storedKey(for project: ProjectFingerprint) -> String? {
        keyring.entry(for: project)?.apiKey
    }

    /// Off the engine thread: the mailbox never waits for the keyring file. A failure is noted
    /// in the app's ``StorageStatus`` before `finished` hears it (which journals it).
    func storeKey(_ entry: KeyringEntry, for project: ProjectFingerprint, finished: @escaping @Sendable (_ failure: String?) -> Void) {
        let keyring = keyring
        let health = health
        keyringQueue.async {
            do {
                try keyring.store(entry, for: project)
                finished(nil)
            } catch {
                let reason = "\(error)"
                health.withLock { $0.noteKeyringWriteFailure(reason) }
                finished(reason)
            }
        }
    }

    /// Waits until every key handed to ``storeKey(_:for:)`` is filed: after a shutdown, the
    /// next instance (in this process or the next) finds every key its journal may need.
    func finishKeyringWrites() {
        keyringQueue.sync {}
    }

    func reopenRecorder() throws -> (any FactRecorder)? {
        try reopen?()
    }

    var observesInputs: Bool { configuration.stateObserver != nil }

    func inputHandled(_ input: Fact, facts: [Fact], state: SDKState, lastSequence: UInt64) {
        configuration.stateObserver?(state, lastSequence)
    }
}
