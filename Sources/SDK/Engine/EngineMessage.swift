import Journal
import SDKCore

/// What the engine thread's mailbox holds: stimuli for the ``EngineShell``, and the thread's own
/// business (reads, settling, stopping).
enum EngineMessage: Sendable {
    /// A stimulus for the shell.
    case stimulus(EngineStimulus)
    /// Runs on the engine thread once every earlier message was handled (reads, settling).
    case barrier(@Sendable (EngineView) -> Void)
    /// Nothing to do but look around (an effect ended).
    case wake
    /// Run `waiter` once the engine is idle: nothing queued, nothing in flight. `id` names a
    /// waiter that may give up (``forgetSettle(_:)``).
    case settle(id: UInt64?, @Sendable () -> Void)
    /// The settle waiter `id` gave up (its timeout passed): drop it.
    case forgetSettle(UInt64)
    /// Close the journal and end the thread; `done` runs last.
    case stop(@Sendable () -> Void)
    /// Try to open the SDK's files again (the storage-unavailable mode, ``StorageWait``): the app
    /// said protected data became available, or the retry timer fired (`byTimer`). Ignored once
    /// they are open.
    case openStorage(byTimer: Bool)
}

extension EngineMessage {
    /// An input for `decide` (what the public API posts).
    static func input(_ fact: consuming Fact, _ attachment: consuming EngineAttachment) -> EngineMessage {
        .stimulus(.input(fact, attachment))
    }
}

/// What engine-thread readers may look at.
struct EngineView: Sendable {
    var state: SDKState
    var lastSequence: UInt64
    var idle: Bool
    /// Why the journal stopped accepting facts, if it did.
    var journalFailure: String?
    /// Settle waiters waiting for the engine to be idle.
    var settleWaiters: Int
}
