import Journal
import SDK

/// Something that happens in the simulated world at a virtual time. Events that answer the
/// process (timers, answers, hook ends, the callback queue) carry the launch they belong to and
/// vanish if that process crashed; a request already on the wire reaches the backend anyway.
enum WorldEvent {
    /// A timer the engine set is due (`EngineMessage.timerDue`).
    case timerDue(launch: Int, TimerPurpose, JournalTime)
    /// A request reaches the backend; its answer goes back to `launch` (if it still runs).
    case requestArrives(SimulatedRequest, launch: Int, sentAt: JournalTime, answerLost: Bool)
    /// The transport hands an exchange's end to the engine.
    case transportAnswer(launch: Int, TransportCompletion)
    /// The auth provider answers the token request `send` made for a JWT project's request.
    case tokenForRequest(launch: Int, SimulatedRequest)
    /// The auth provider answers a refresh (`authRefreshRequested`).
    case refreshAnswer(launch: Int, project: ProjectFingerprint, request: UInt64)
    /// The disk finishes the flush of durability request `request`.
    case durabilityDue(launch: Int, request: UInt64)
    /// An awaited module hook returns.
    case hookReturns(launch: Int, ModuleHookCompletion)
    /// The callback queue runs its next item.
    case callbackRuns(launch: Int)
    /// The group-commit bound passed for the journal's pending group.
    case groupCommitDue(launch: Int)
}

extension WorldEvent {
    /// The launch whose process the event answers.
    var launch: Int {
        switch self {
        case .timerDue(let launch, _, _), .requestArrives(_, let launch, _, _), .transportAnswer(let launch, _),
             .tokenForRequest(let launch, _), .refreshAnswer(let launch, _, _), .durabilityDue(let launch, _),
             .hookReturns(let launch, _), .callbackRuns(let launch), .groupCommitDue(let launch):
            launch
        }
    }
}
