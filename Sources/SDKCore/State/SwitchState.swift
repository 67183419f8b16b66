import Journal

/// The switch machinery's state: the gate, the switch in flight, the queue of requested switches.
package struct SwitchState: Sendable, Equatable {
    /// Calls held behind the gate while a switch runs, in arrival order.
    public var gate: FIFO<GatedCall> = []
    /// Bytes of arguments held behind the gate (the gate is bounded by count and bytes).
    public var gateBytes = 0
    /// The switch running now.
    public var inFlight: SwitchRun?
    /// Switches requested and waiting to start, in order.
    public var queue: [SwitchRequest] = []
    /// A switch that landed and whose callbacks have not run yet: the next one waits for them.
    public var awaitingCallbacks: SwitchID?
    public var nextSwitchNumber: UInt64 = 1
    /// A switch that landed while the delivery queue had no room for all its held calls: the
    /// rest are released to it, in order, as the queue drains, and calls the gate would hold still
    /// queue behind them. The next switch waits until the gate is empty.
    public var releasingHeldCalls: SwitchID?

    /// Whether calls that the gate holds must wait now: a switch runs, or a landed one is
    /// still releasing what it held.
    public var gateIsClosed: Bool { isSwitching || releasingHeldCalls != nil }

    /// Whether a switch runs now (``inFlight`` is set). A case test: `inFlight != nil` takes
    /// Optional's `==` for an Equatable run, copying the run and destroying both operands through
    /// their metadata, on every gated call.
    public var isSwitching: Bool {
        if case .some = inFlight { true } else { false }
    }

    /// The switch whose gate a call held now joins.
    public var gateOwner: SwitchID? { inFlight?.id ?? releasingHeldCalls }

    /// The project the app asked for last: the queue's tail, else the switch in flight, else nil
    /// (then it is the live project).
    public var requestedProject: ProjectRef? {
        queue.last?.project ?? inFlight?.to
    }
}

extension SwitchState {
    /// No switch. Here, not in the struct, so that the memberwise initializer the field
    /// declaration names exists (SDKState+Fields.swift).
    public init(_ empty: Void = ()) {}
}

/// A call held behind the gate.
package struct GatedCall: Sendable, Hashable {
    public var call: ReceivedCall
    public var madeAt: JournalTime
    public var bytes: Int
}

/// A switch requested and not started.
package struct SwitchRequest: Sendable, Hashable {
    public var id: SwitchID
    public var project: ProjectRef
    /// The calls whose completions fire when it lands (the request and any it absorbed).
    public var calls: [CallID]
}

/// A switch in progress.
package struct SwitchRun: Sendable, Hashable {
    public var id: SwitchID
    public var from: ProjectRef?
    public var to: ProjectRef
    public var calls: [CallID]
    public var startedAt: JournalTime
    /// The step running now and when it began.
    public var step: TeardownStepKind?
    public var stepStartedAt: JournalTime
    /// Why the switch is not clean, in the order the reasons arose.
    public var warnings: [String] = []
    /// Problems of module hooks during the current step (they gives the step a warning).
    public var stepProblems: [String] = []
    /// Tasks numbered from here on were made during the switch (inline calls, the outgoing
    /// disable): the purge leaves them alone.
    public var firstTaskOfWindow: UInt64 = .max
}
