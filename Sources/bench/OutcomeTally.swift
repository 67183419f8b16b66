import Locking
import SDK

/// Counts how a benchmark's calls ended, so a rate is reported only for the path it claims:
/// `bench sdk` claims delivered tracks, and a run in which any call was discarded or failed is
/// invalid (it would be measuring the cost of discarding).
final class OutcomeTally: Sendable {
    private let counts = Locked<[String: Int]>([:])

    /// The completion to hand to each call.
    var completion: @Sendable (CallOutcome) -> Void {
        { [counts] outcome in
            // A JSON key as it is (the rare failure's text made safe; the common case is free).
            let key: String = switch outcome {
            case .delivered: "delivered"
            case .applied: "applied"
            case .failed(let failure): "failed: \(failure)".replacingOccurrences(of: "\"", with: "'")
            case .discarded(let reason): "discarded: \(reason)".replacingOccurrences(of: "\"", with: "'")
            }
            counts.withLock { $0[key, default: 0] += 1 }
        }
    }

    /// Outcomes by name.
    var outcomes: [String: Int] { counts.withLock { $0 } }

    /// Whether all `calls` were delivered.
    func allDelivered(_ calls: Int) -> Bool { outcomes["delivered"] == calls && outcomes.count == 1 }
}
