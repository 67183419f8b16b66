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

/// `EngineAttachment` for the simulation: the project of `initialize`/`switchProject` (its key
/// and whether it has an auth provider), the call's completion, a fresh token.
enum SimulatedAttachment {
    case none
    case completion(SimulatedCompletion)
    case project(SimulatedProject, SimulatedCompletion)
    case token(String)
}

/// How the story hears back from a call (`CallCompletion`): the outcome, or for a switch its
/// result, and optionally a call the app makes from inside the completion.
struct SimulatedCompletion {
    var isSwitch: Bool
    /// The call the app makes from the completion (a switch callback re-identifying the user).
    var reaction: PublicCall?
}

/// Work on the simulated callback queue, run one item at a time in order.
enum CallbackWork {
    /// A call's completion runs with its outcome (or its switch's result).
    case completion(CallID, CallOutcome, SwitchResult, SimulatedCompletion)
    /// Every completion of a landed switch ran: tell the engine (`callbacksDelivered`).
    case callbacksRan(SwitchID)
}
