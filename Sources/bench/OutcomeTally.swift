import Locking
import SDK
import Synchronization

/// Counts how a benchmark's calls ended, so a rate is reported only for the path it claims:
/// `bench sdk` claims delivered tracks, and a run in which any call was discarded or failed is
/// invalid (it would be measuring the cost of discarding).
///
/// The common outcomes are counted with one atomic add each, so the tally adds next to nothing
/// to the instructions `bench sdk --callgrind` counts per call (a string-keyed dictionary under
/// a lock would add a share of its own); the rare ones are kept by name.
final class OutcomeTally: Sendable {
    private let delivered = Atomic<Int>(0)
    private let applied = Atomic<Int>(0)
    private let others = Locked<[String: Int]>([:])

    /// The completion to hand to each call.
    var completion: @Sendable (CallOutcome) -> Void {
        { [self] outcome in
            switch outcome {
            case .delivered: delivered.add(1, ordering: .relaxed)
            case .applied: applied.add(1, ordering: .relaxed)
            case .failed(let failure): count("failed: \(failure)")
            case .discarded(let reason): count("discarded: \(reason)")
            }
        }
    }

    /// A rare outcome, by its name (made safe as a JSON key).
    private func count(_ name: String) {
        let key = name.replacingOccurrences(of: "\"", with: "'")
        others.withLock { $0[key, default: 0] += 1 }
    }

    /// Outcomes by name.
    var outcomes: [String: Int] {
        var all = others.withLock { $0 }
        let (delivered, applied) = (delivered.load(ordering: .relaxed), applied.load(ordering: .relaxed))
        if delivered > 0 { all["delivered"] = delivered }
        if applied > 0 { all["applied"] = applied }
        return all
    }

    /// Whether all `calls` were delivered.
    func allDelivered(_ calls: Int) -> Bool {
        let outcomes = outcomes
        return outcomes["delivered"] == calls && outcomes.count == 1
    }
}
