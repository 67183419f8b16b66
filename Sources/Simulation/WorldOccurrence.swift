import Journal
import SDK

/// Something that happens in the simulated world at a virtual time. Occurrences that answer the
/// process (timers, answers, hook ends, flushes, the callback queue) carry the launch they belong
/// to and vanish if that process crashed; a request already on the wire reaches the backend anyway.
enum WorldOccurrence {
    /// Something the engine's environment scheduled (a timer, an answer, a hook's return, the
    /// disk finishing a flush, the group-commit bound): runs `action`.
    case engine(launch: Int, () -> Void)
    /// A request reaches the backend; its answer goes back to `launch` (if it still runs).
    case requestArrives(SimulatedRequest, launch: Int, sentAt: JournalTime, answerLost: Bool,
                        completion: @Sendable (TransportResult) -> Void)
    /// The callback queue runs its next item.
    case callbackRuns(launch: Int)
    /// The failing disk works again (whatever process runs).
    case diskRepaired
}

extension WorldOccurrence {
    /// The launch whose process the occurrence answers (0: none in particular).
    var launch: Int {
        switch self {
        case .engine(let launch, _), .requestArrives(_, let launch, _, _, _), .callbackRuns(let launch):
            launch
        case .diskRepaired:
            0
        }
    }
}
