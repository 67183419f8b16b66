import SDKCore

/// What the SDK's project switching is doing, for an app's UI (a spinner, "moving to EU...").
/// Read it with ``EngagementSDK/switchStatus`` or follow it with
/// ``EngagementSDK/switchStatusUpdates()``.
public enum SwitchStatus: Sendable, Hashable {
    /// No switch runs: the SDK is on `project` (nil before initialization).
    case idle(project: ProjectFingerprint?)
    /// A switch from `from` to `to` runs; `step` is the teardown step in progress, `heldCalls`
    /// the calls its gate holds for the new project, `queuedSwitches` the requests waiting behind it.
    case switching(from: ProjectFingerprint?, to: ProjectFingerprint, step: TeardownStepKind?, heldCalls: Int, queuedSwitches: Int)
    /// The switch landed on `project`; the calls its gate held are still being released to it, in
    /// order, as the delivery queue makes room (the journal records each as `replayed` on the
    /// project: docs/FORMAT.md).
    case releasingHeldCalls(project: ProjectFingerprint, heldCalls: Int, queuedSwitches: Int)

    /// The status a state shows.
    init(_ state: SDKState) {
        let switching = state.switching
        if let run = switching.inFlight {
            self = .switching(from: run.from?.fingerprint, to: run.to.fingerprint, step: run.step, heldCalls: switching.gate.count,
                              queuedSwitches: switching.queue.count)
        } else if switching.releasingHeldCalls != nil, let live = state.live {
            self = .releasingHeldCalls(project: live.fingerprint, heldCalls: switching.gate.count, queuedSwitches: switching.queue.count)
        } else {
            self = .idle(project: state.live?.fingerprint)
        }
    }

    /// Whether no switch runs or releases its held calls.
    public var isIdle: Bool {
        if case .idle = self { true } else { false }
    }
}
