import SDK
import Simulation
import Testing

/// Swift Testing's side of ``EngineStore``: each expectation records an issue at the caller's
/// line when the store disagrees, listing what is unexpected and what is missing.
extension EngineStore {
    /// The facts journaled since the last expectation (or take) are exactly `expected`, in
    /// order, as ``EngineStore/describe(_:)`` renders them.
    func expectFacts(_ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        if let mismatch = Self.mismatch(expected: expected, actual: takeFacts()) {
            Issue.record("facts: \(mismatch)", sourceLocation: sourceLocation)
        }
    }

    /// Among the facts journaled since the last expectation, those `include` keeps are exactly
    /// `expected` (the others are taken too, unchecked).
    func expectFacts(where include: (Fact) -> Bool, _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let actual = takeFactValues().filter(include).map(describe)
        if let mismatch = Self.mismatch(expected: expected, actual: actual) {
            Issue.record("facts: \(mismatch)", sourceLocation: sourceLocation)
        }
    }

    /// The effects asked for since the last expectation are exactly `expected`, in order.
    func expectEffects(_ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        if let mismatch = Self.mismatch(expected: expected, actual: takeEffects()) {
            Issue.record("effects: \(mismatch)", sourceLocation: sourceLocation)
        }
    }

    /// The requests that reached the backend since the last expectation are exactly `expected`
    /// (`B events/track {…}`), in arrival order.
    func expectRequests(_ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        if let mismatch = Self.mismatch(expected: expected, actual: takeRequests().map(\.description)) {
            Issue.record("requests: \(mismatch)", sourceLocation: sourceLocation)
        }
    }

    /// The simulator's own checks (projection equality after every input, …) found nothing.
    func expectNoSimulationFailures(sourceLocation: SourceLocation = #_sourceLocation) {
        for failure in simulationFailures { Issue.record("simulation: \(failure)", sourceLocation: sourceLocation) }
    }
}

extension Fact {
    /// Facts of the switch: routing, start, teardown steps, landing, cancellation.
    var isSwitchFact: Bool {
        switch self {
        case .switchRouted, .switchStarted, .teardownStepBegan, .teardownStepFinished, .switchLanded, .switchCancelled: true
        default: false
        }
    }

    /// The gate's decisions.
    var isGateDecision: Bool {
        if case .gateDecided = self { true } else { false }
    }

    /// How calls ended: `callResolved`, `callsResolved`.
    var isResolution: Bool {
        switch self {
        case .callResolved, .callsResolved: true
        default: false
        }
    }

    /// The delivery queue's facts: tasks queued, joined, sent, retried and completed.
    var isDelivery: Bool {
        switch self {
        case .taskQueued, .eventBatched, .taskDispatched, .retryScheduled, .taskCompleted, .transportCompleted: true
        default: false
        }
    }
}
