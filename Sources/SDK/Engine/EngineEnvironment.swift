import Journal
import SDKCore

/// Everything the ``EngineShell`` does to the world outside the pure core goes through its
/// environment: the clock and its timers, the transport, the app's auth providers, the callback
/// queue, the modules, the keyring, the journal's reopening, and a few observation points.
///
/// The SDK runs the core over ``LiveEnvironment`` (URLSession, Dispatch, real modules); the
/// simulator runs the same core over a simulated environment (virtual clock, simulated backend,
/// storage that loses power, a callback queue that may reorder).
///
/// What implementers must guarantee: every method is called on the core's thread and returns
/// without waiting for the work it starts; each completion handed in is called at most once
/// (``requestToken(for:from:completion:)``: any number of times, the core takes the first), on
/// any thread; nothing here calls back into the core synchronously.
package protocol EngineEnvironment: AnyObject {
    /// Both of the SDK's clocks, now (``SDKClock/read()``).
    func readClock() -> ClockReading
    /// Runs `action` (on any thread) once the monotonic clock reaches `due` (µs).
    func schedule(atMonotonicMicroseconds due: Int64, _ action: @escaping @Sendable () -> Void)

    /// Sends an HTTP request made for `owner`; `completion` hears its result.
    func send(_ request: TransportRequest, for owner: EffectOwner, completion: @escaping @Sendable (TransportResult) -> Void)
    /// Asks `provider` (the app's, for `project`) for a JWT for `owner`.
    func requestToken(for project: ProjectFingerprint, from provider: any AuthProvider, owner: EffectOwner,
                      completion: @escaping @Sendable (Result<String, any Error>) -> Void)
    /// Runs an app completion on the callback queue; `landing` names the switch landing it
    /// belongs to, if any. The completions of one input run in the order they were handed in;
    /// an environment may hold them until ``callbacksHandedOver()``.
    func runCallback(landing: SwitchID?, _ body: @escaping @Sendable () -> Void)
    /// Runs a call's completion (one that no switch landing counts) on the callback queue, in
    /// order with the bodies of ``runCallback(landing:_:)``. The delivery is an effect: it
    /// counts as running, through `inbox`'s `effectBegan` and `effectEnded`, from this call until
    /// it returned (an environment may bracket several held deliveries once). By default, it
    /// is one body handed to ``runCallback(landing:_:)``, bracketed alone.
    func runCompletion(_ delivery: consuming CompletionDelivery, inbox: EngineInbox)
    /// The core started every effect of one input: completions held since the last call must
    /// now be on their way to the callback queue.
    func callbacksHandedOver()

    /// Whether a module of that name is installed.
    func hasModule(_ name: String) -> Bool
    /// Hands `signal` to module `name` and returns when it has (on the core's thread).
    func process(_ signal: ModuleSignal, context: ModuleContext, module name: String) throws
    /// Starts module `name`'s awaited handling of `signal` as hook `hook`; `returned` hears its
    /// end (with its failure), however late.
    func startAwaitedHook(_ hook: UInt64, _ signal: ModuleSignal, context: ModuleContext, module name: String,
                          returned: @escaping @Sendable (String?) -> Void)
    /// The core stopped waiting for hook `hook` of module `name` (its bound passed).
    func abandonAwaitedHook(_ hook: UInt64, module name: String)

    /// The API key the keyring holds for `project`.
    func storedKey(for project: ProjectFingerprint) -> String?
    /// Files a project's key in the keyring (without making the core wait for the disk);
    /// `finished` hears, once, on any thread, nil when it is filed or why the keyring could not
    /// file it (never dropped: the core journals it as `keyringWriteFailed`).
    func storeKey(_ entry: KeyringEntry, for project: ProjectFingerprint, finished: @escaping @Sendable (_ failure: String?) -> Void)
    /// Opens the journal again after a failure (nil when the recorder cannot be reopened).
    func reopenRecorder() throws -> (any FactRecorder)?

    /// Whether ``inputHandled(_:facts:state:lastSequence:)`` is to be called (handing the state
    /// over copies all of it, once per input).
    var observesInputs: Bool { get }
    /// An input was handled: its facts are recorded (unless the journal is out) and their
    /// effects started. Called only when ``observesInputs``.
    func inputHandled(_ input: Fact, facts: [Fact], state: SDKState, lastSequence: UInt64)
    /// The journal stopped accepting facts (it holds everything up to the last input recorded).
    func journalFailed(reason: String)
    /// The journal records again, from a new segment whose snapshot is followed by `gap`.
    func journalResumed(after gap: JournalGap, state: SDKState, lastSequence: UInt64)
}

extension EngineEnvironment {
    package func runCompletion(_ delivery: consuming CompletionDelivery, inbox: EngineInbox) {
        inbox.effectBegan()
        let delivery = delivery
        runCallback(landing: nil) {
            delivery.run()
            inbox.effectEnded()
        }
    }

    package func callbacksHandedOver() {}
    package var observesInputs: Bool { true }
    package func inputHandled(_ input: Fact, facts: [Fact], state: SDKState, lastSequence: UInt64) {}
    package func journalFailed(reason: String) {}
    package func journalResumed(after gap: JournalGap, state: SDKState, lastSequence: UInt64) {}
}
