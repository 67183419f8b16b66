import Journal
import SDK

/// What the simulated engine's mailbox holds: the subset of `EngineMessage` a single-threaded
/// world needs (no barriers, settling or stopping: the world drives the engine directly).
enum SimulatedMessage {
    /// An input for `decide`, with what travels beside it but never enters the journal.
    case input(Fact, SimulatedAttachment)
    /// A timer fell due: an input only if the state still waits on it (`EngineMessage.timerDue`).
    case timerDue(TimerPurpose, JournalTime)
    /// Keep a JWT the auth provider issued (`EngineMessage.cacheToken`).
    case cacheToken(ProjectFingerprint, String)
}
