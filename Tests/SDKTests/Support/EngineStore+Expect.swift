import SDK
import Simulation
import Testing

/// Swift Testing's side of ``EngineStore``: each expectation takes what it asserts and records
/// an issue at the caller's line when the store disagrees, listing what is unexpected and what
/// is missing. What no expectation took and no skip named fails the test when it ends
/// (``ExhaustiveStoreTrait``, or ``EngineStore/finish(sourceLocation:)`` called by the test).
extension EngineStore {
    /// The facts journaled and not yet taken are exactly `expected`, in order, as
    /// ``EngineStore/describe(_:)`` renders them.
    func expectFacts(_ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        if let mismatch = Self.mismatch(expected: expected, actual: takeFacts()) {
            Issue.record("facts: \(mismatch)", sourceLocation: sourceLocation)
        }
    }

    /// Among the facts journaled and not yet taken, those `include` keeps are exactly
    /// `expected`. Only those are taken: the others stay for a later expectation or an explicit
    /// ``EngineStore/skipReceivedFacts()``.
    func expectFacts(where include: (Fact) -> Bool, _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        if let mismatch = Self.mismatch(expected: expected, actual: takeFacts(where: include)) {
            Issue.record("facts: \(mismatch)", sourceLocation: sourceLocation)
        }
    }

    /// The effects asked for and not yet taken are exactly `expected`, in order.
    func expectEffects(_ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        if let mismatch = Self.mismatch(expected: expected, actual: takeEffects()) {
            Issue.record("effects: \(mismatch)", sourceLocation: sourceLocation)
        }
    }

    /// Among the effects asked for and not yet taken, those `include` keeps are exactly
    /// `expected`; only those are taken.
    func expectEffects(where include: (Effect) -> Bool, _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        if let mismatch = Self.mismatch(expected: expected, actual: takeEffects(where: include)) {
            Issue.record("effects: \(mismatch)", sourceLocation: sourceLocation)
        }
    }

    /// The requests that reached the backend and were not yet taken are exactly `expected`
    /// (`B events/track {…}`), in arrival order.
    func expectRequests(_ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        if let mismatch = Self.mismatch(expected: expected, actual: takeRequests().map(\.description)) {
            Issue.record("requests: \(mismatch)", sourceLocation: sourceLocation)
        }
    }

    /// The simulation failures found and not yet taken are exactly `expected` (`privacy: …`).
    func expectSimulationFailures(_ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        if let mismatch = Self.mismatch(expected: expected, actual: takeSimulationFailures()) {
            Issue.record("simulation failures: \(mismatch)", sourceLocation: sourceLocation)
        }
    }

    /// Records an issue at `sourceLocation` for each kind of thing the test neither took nor
    /// skipped (facts, effects, requests, simulation failures): how many, and the first few in
    /// `replay cat`'s words. What it reports is taken: a later check reports only what came after.
    func finish(sourceLocation: SourceLocation = #_sourceLocation) {
        for message in takeUnasserted() {
            Issue.record("exhaustive store: \(message)", sourceLocation: sourceLocation)
        }
    }
}

extension Fact {
    /// Facts of the switch: routing, start, teardown steps, landing, cancellation; read from the
    /// declarations (the switch family but the gate's decisions), so a new switch fact is in it.
    var isSwitchFact: Bool {
        declaration?.family == .switch && !isGateDecision
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

extension Effect {
    /// A call's completion handed to the callback queue (what the app hears, and when).
    var isCompletion: Bool {
        if case .complete = self { true } else { false }
    }

    /// A task's attempt handed to the transport.
    var isSend: Bool {
        if case .send = self { true } else { false }
    }
}
