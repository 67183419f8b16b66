import Journal
import SDK

/// What the simulated engine's mailbox holds: the subset of `EngineMessage` a single-threaded
/// world needs (no barriers or settling: the world drives the engine directly, and stops it with
/// ``SimulatedEngine/stop()``).
enum SimulatedMessage {
    /// An input for `decide`, with what travels beside it but never enters the journal.
    case input(Fact, SimulatedAttachment)
    /// A timer fell due: an input only if the state still waits on it (`EngineMessage.timerDue`).
    case timerDue(TimerPurpose, JournalTime)
    /// Keep a JWT the auth provider issued, unless the token epoch moved on since it was asked
    /// for (`EngineMessage.cacheToken`).
    case cacheToken(ProjectFingerprint, String, epoch: UInt64)
    /// A module's awaited hook returned, maybe after its bound (`EngineMessage.moduleHookReturned`).
    case moduleHookReturned(module: String, hook: UInt64, failure: String?)
    /// Time to try recording again after the journal failed (`EngineMessage.retryJournal`).
    case retryJournal
}
