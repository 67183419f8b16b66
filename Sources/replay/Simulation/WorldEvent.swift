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
    /// The auth provider answers ask `ask` (a token, or nil: it failed).
    case providerAnswers(launch: Int, ask: UInt64, token: String?)
    /// The bound on the auth provider's answer to ask `ask` passed.
    case providerBound(launch: Int, ask: UInt64, milliseconds: Int64)
    /// A tracked link's host answered the GET `resolveLink` made.
    case linkAnswer(launch: Int, LinkResolution)
    /// The disk finishes the flush of durability request `request`.
    case durabilityDue(launch: Int, request: UInt64)
    /// An awaited module hook returns.
    case hookReturns(launch: Int, module: String, hook: UInt64, failure: String?)
    /// The callback queue runs its next item.
    case callbackRuns(launch: Int)
    /// The group-commit bound passed for the journal's pending group.
    case groupCommitDue(launch: Int)
    /// The engine's backoff to record again after a journal failure passed.
    case journalRetry(launch: Int)
    /// The failing disk works again (whatever process runs).
    case diskRepaired
}

extension WorldEvent {
    /// The launch whose process the event answers (0: none in particular).
    var launch: Int {
        switch self {
        case .timerDue(let launch, _, _), .requestArrives(_, let launch, _, _), .transportAnswer(let launch, _),
             .providerAnswers(let launch, _, _), .providerBound(let launch, _, _), .linkAnswer(let launch, _),
             .durabilityDue(let launch, _), .hookReturns(let launch, _, _, _), .callbackRuns(let launch),
             .groupCommitDue(let launch), .journalRetry(let launch):
            launch
        case .diskRepaired:
            0
        }
    }
}
