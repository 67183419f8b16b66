import Journal

/// What the engine thread handles, in mailbox order.
enum EngineMessage: Sendable {
    /// An input for `decide`, with what must travel with it but never enter the journal.
    case input(Fact, EngineAttachment)
    /// Runs on the engine thread once every earlier message was handled (reads, settling).
    case barrier(@Sendable (EngineView) -> Void)
    /// Nothing to do but look around (an effect ended).
    case wake
    /// A timer the engine set fell due; it becomes a `timerFired` input only if the state still
    /// waits on it (a step that already finished does not), so stale timers leave no trace.
    case timerDue(TimerPurpose, JournalTime)
    /// Keep a JWT the auth provider issued for a request (never journaled), unless the identity
    /// or the instance changed since it was asked for (`epoch`).
    case cacheToken(ProjectFingerprint, String, epoch: UInt64)
    /// A module's awaited hook returned (maybe after its bound): its module may run its next work.
    case moduleHookReturned(module: String, hook: UInt64, failure: String?)
    /// Time to try recording again after the journal failed.
    case retryJournal
    /// Run `waiter` once the engine is idle: nothing queued, nothing in flight.
    case settle(@Sendable () -> Void)
    /// Close the journal and end the thread; `done` runs last.
    case stop(@Sendable () -> Void)
}

/// Things an input carries that the journal must never hold.
enum EngineAttachment: Sendable {
    case none
    /// A public call's completion.
    case completion(CallCompletion?)
    /// `initialize` or `switchProject`: the project with its key and auth provider.
    case project(Project, CallCompletion?)
    /// A fresh JWT from the auth provider, asked for under token epoch `epoch`.
    case token(String, epoch: UInt64)
}

/// How a call's caller hears back.
enum CallCompletion: Sendable {
    case outcome(@Sendable (CallOutcome) -> Void)
    case switchResult(@Sendable (SwitchResult) -> Void)
    case link(@Sendable (UniversalLinkResult) -> Void)
}

extension CallCompletion {
    /// Tells the caller its call will never be processed: the SDK shut down first.
    func deliverShutdown() {
        switch self {
        case .outcome(let body): body(.discarded(.shutdown))
        case .switchResult(let body): body(.notPerformed)
        case .link(let body): body(UniversalLinkResult(outcome: .discarded(.shutdown), destination: nil))
        }
    }
}

/// What engine-thread readers may look at.
struct EngineView: Sendable {
    var state: SDKState
    var lastSequence: UInt64
    var idle: Bool
    /// Why the journal stopped accepting facts, if it did.
    var journalFailure: String?
}
