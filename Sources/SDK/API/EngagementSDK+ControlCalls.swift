import SDKCore

// The control calls (the calls the switch machinery runs itself), each in its two forms, in the
// same order: on `EngagementSDK`, returning at once with an optional completion, and on
// `AwaitedCalls`, awaiting the outcome.
extension EngagementSDK {
    /// Starts the SDK on `project`: the first call an app makes, once per launch.
    ///
    /// If the journal was last on another project, this is a switch at launch: the previous
    /// project's identity and storage are cleared (never carried into this one), its device disable
    /// is kept and delivered, and the journal records it all; gated calls made meanwhile are held
    /// until it lands, as in any switch. Gated calls made before it fail with
    /// `CallFailure.notInitialized`. Calling it again for the project the SDK is on does nothing;
    /// for another project it is a switch.
    ///
    /// Returns at once, in synchronous and `async` code alike (it is never awaited): calls made
    /// after it on the same thread are processed after it. `completion`, if given, runs once on
    /// ``SDKConfiguration/callbackQueue``: `CallOutcome.applied(project:)` once the instance is
    /// started (after the teardown of a switch at launch, whose waiting steps are bounded by
    /// `EngineRules`), or `DiscardReason.shutdown`. To await that instead:
    /// `await sdk.outcome.initialize(project)` (``AwaitedCalls/initialize(_:)``).
    public func initialize(_ project: Project, completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        post(.initialize(project.reference(endpoints: configuration.regionEndpoints)),
             .project(project, completion.map(CallCompletion.outcome)))
    }

    /// Moves the running SDK to `project`: its key *and* configuration (the live key with another
    /// region, endpoint or auth is a switch too).
    ///
    /// A switch never fails and is never rolled back. Its teardown (disable push and wait for the
    /// disable to be durable, reset in-app and embedded, purge or deliver the outgoing queue, clear
    /// identity and storage, release the instance) waits only within the bounds of `EngineRules`;
    /// calls keep being processed meanwhile: gated calls are held and replayed on `project`, inline
    /// calls run on the outgoing project. A request for the project already requested joins that
    /// switch; switches requested while one runs are queued (at most one entry per project), and
    /// each starts after the previous one's held calls were replayed and its callbacks ran.
    ///
    /// Returns at once, in synchronous and `async` code alike (it is never awaited). To await the
    /// result instead: `await sdk.outcome.switchProject(to: project)`
    /// (``AwaitedCalls/switchProject(to:)``). `completion` runs once on
    /// ``SDKConfiguration/callbackQueue``, when the switch lands: `SwitchResult.switchedCleanly`
    /// or `SwitchResult.switchedWithWarnings` (in both cases the SDK is on `project`; a request for
    /// the project the SDK is already on, with no switch running, lands at once, clean); or, if the
    /// SDK shut down first, `SwitchResult.notPerformed` or `SwitchResult.interruptedByShutdown`
    /// (that one finishes at the next launch). The full contract is in docs/ARCHITECTURE.md ("The
    /// switch").
    public func switchProject(to project: Project, completion: @escaping @Sendable (SwitchResult) -> Void) {
        post(.switchProject(project.reference(endpoints: configuration.regionEndpoints)), .project(project, .switchResult(completion)))
    }

    /// Completes once every call made before it is in the journal and durable: killing the process
    /// afterwards loses none of them.
    ///
    /// Waits for the journal's sync (group commit), never for the network. Never held by a switch.
    /// Outcome: `CallOutcome.applied(project:)`, or `CallFailure.retriesExhausted(_:)` saying
    /// why the journal is not durable (a failed write or sync; see ``journalFailure``).
    ///
    /// Returns at once; `completion`, if given, runs as every call's does (``EngagementSDK``,
    /// "The contract of every call"). Awaited form: ``AwaitedCalls/flush()``.
    public func flush(completion: (@Sendable (CallOutcome) -> Void)? = nil) {
        submit(.flush, completion)
    }
}

extension AwaitedCalls {
    /// Starts the SDK on `project`, as ``EngagementSDK/initialize(_:completion:)`` does, and
    /// returns its outcome.
    ///
    /// Returns once the instance is started: as soon as the call is processed, or, when the
    /// journal was last on another project, after that switch at launch's teardown (its waiting
    /// steps bounded by `EngineRules`). Never waits for the network beyond those bounds.
    @discardableResult
    public func initialize(_ project: Project) async -> CallOutcome {
        await withCheckedContinuation { continuation in
            sdk.initialize(project) { continuation.resume(returning: $0) }
        }
    }

    /// Moves the SDK to `project`, as ``EngagementSDK/switchProject(to:completion:)`` does, and
    /// returns the result.
    ///
    /// Returns when the switch lands: after the switches requested before it and its own teardown
    /// (each waiting step bounded by `EngineRules`); at once for the project the SDK is on with no
    /// switch running, and after ``EngagementSDK/shutdown()``.
    @discardableResult
    public func switchProject(to project: Project) async -> SwitchResult {
        await withCheckedContinuation { continuation in
            sdk.switchProject(to: project) { continuation.resume(returning: $0) }
        }
    }

    /// Waits until every call made before it is durable in the journal, as
    /// ``EngagementSDK/flush(completion:)`` does, and returns its outcome.
    ///
    /// Returns once the journal synced them (group commit) or failed to; never waits for the
    /// network, and is never held by a switch.
    @discardableResult
    public func flush() async -> CallOutcome {
        await sdk.submit(.flush)
    }
}
