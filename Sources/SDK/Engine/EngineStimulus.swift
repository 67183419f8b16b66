import Journal
import SDKCore

/// A stimulus: what the ``EngineShell`` handles, in the order its host hands them over: inputs
/// for `decide`, and the ends of effects that are not facts (a timer fell due, a token to
/// cache, a hook or a completion returned, time to record again). The engine thread's mailbox
/// carries stimuli inside EngineMessage, beside the thread's own business.
package enum EngineStimulus: Sendable {
    /// An input for `decide`, with what must travel with it but never enter the journal.
    case input(Fact, EngineAttachment)
    /// A timer the engine set fell due; it becomes a `timerFired` input only if the state still
    /// waits on it (a step that already finished does not), so stale timers leave no trace.
    case timerDue(TimerPurpose, JournalTime)
    /// The auth provider issued a JWT for `request`, which waited for it: send the request with
    /// it, and keep the token (never journaled) for its project and user unless the instance
    /// changed since it was asked for (`epoch`).
    ///
    /// Boxed (`indirect`), as the other rare, large payloads: every stimulus is moved through the
    /// mailbox, and unboxed the largest case sized them all (219 bytes, where an input needs 80).
    indirect case tokenIssued(JWTKey, String, epoch: UInt64, task: TaskID, request: TransportRequest, owner: EffectOwner,
                              completion: @Sendable (TransportResult) -> Void)
    /// A module's awaited hook returned (maybe after its bound): its module may run its next work.
    case moduleHookReturned(module: String, hook: UInt64, failure: String?)
    /// One completion a switch landing dispatched has returned from the app's code.
    case landingCallbackReturned(SwitchID)
    /// Time to try recording again after the journal failed.
    case retryJournal
    /// The journal failed outside an append (its group-commit thread could not sync): the
    /// engine goes on in memory until it records again, as when an append fails.
    case journalFailed(String)
    /// The app went to the background with this much time to finish work
    /// (``EngagementSDK/applicationDidEnterBackground(_:)``).
    case enteredBackground(BackgroundTime)
    /// The app is coming back to the foreground (``EngagementSDK/applicationWillEnterForeground()``).
    case enteredForeground
    /// The flush background task `task` asked for returned: everything recorded before it is
    /// durable, or `failure` says why not.
    case backgroundJournalFlushed(task: UInt64, failure: String?)
    /// Background task `task`'s budget, less the margin, ran out.
    case backgroundDeadline(task: UInt64)
    /// The system took background task `task`'s time back (``BackgroundTime/expire()``).
    case backgroundTimeExpired(task: UInt64)
    /// Filing `project`'s key in the keyring failed (``EngineEnvironment/storeKey(_:for:finished:)``).
    indirect case keyringWriteFailed(project: ProjectFingerprint, reason: String)
}

/// Things an input carries that the journal must never hold.
package enum EngineAttachment: Sendable {
    case none
    /// A public call's completion.
    case completion(CallCompletion?)
    /// `initialize` or `switchProject`: the project with its key and auth provider (boxed: see
    /// ``EngineStimulus/tokenIssued(_:_:epoch:task:request:owner:completion:)``).
    indirect case project(Project, CallCompletion?)
    /// A fresh JWT from the auth provider for `user`, asked for under token epoch `epoch`.
    indirect case token(String, user: UserIdentity?, epoch: UInt64)
    /// The project refused the JWT this exchange carried (401 `InvalidJwtPayload`): it is never
    /// sent again (dropped from the cache whether or not a refresh follows).
    indirect case refusedToken(JWTKey)
}

/// How a call's caller hears back.
package enum CallCompletion: Sendable {
    case outcome(@Sendable (CallOutcome) -> Void)
    case switchResult(@Sendable (SwitchResult) -> Void)
    case link(@Sendable (UniversalLinkResult) -> Void)
}

extension CallCompletion {
    /// Tells the caller its call will never be processed: the SDK shut down first.
    package func deliverShutdown() {
        switch self {
        case .outcome(let body): body(.discarded(.shutdown))
        case .switchResult(let body): body(.notPerformed)
        case .link(let body): body(UniversalLinkResult(outcome: .discarded(.shutdown), destination: nil))
        }
    }

    /// Tells the caller its call was refused before it reached the engine, for `reason` (the
    /// storage-unavailable hold was full): never processed, never journaled.
    package func deliverRefused(_ reason: String) {
        switch self {
        case .outcome(let body): body(.failed(.rejected(reason)))
        case .switchResult(let body): body(.notPerformed)
        case .link(let body): body(UniversalLinkResult(outcome: .failed(.rejected(reason)), destination: nil))
        }
    }
}
