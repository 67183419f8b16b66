// The payloads of switch facts: routing, teardown steps, landing. Small records, grouped here.

/// The steps of a teardown, in the order they run.
public enum TeardownStepKind: String, Sendable, Hashable, CaseIterable {
    case disablePush = "disable push"
    case deliverPending = "deliver pending events"
    case resetInApp = "reset in-app"
    case resetEmbedded = "reset embedded"
    case purgeQueue = "purge queue"
    case clearIdentity = "clear identity"
    case clearProjectStorage = "clear project storage"
    case releaseInstance = "release instance"
    case startInstance = "start instance"
}

extension TeardownStepKind {
    /// Where the step comes in a teardown: steps run in this order (some may be skipped).
    var order: Int { Self.allCases.firstIndex(of: self)! }
}

extension MessageKind {
    /// The teardown step that resets messages of this kind.
    var resetStep: TeardownStepKind {
        switch self {
        case .inApp: .resetInApp
        case .embedded: .resetEmbedded
        }
    }
}

/// How a step went.
package enum StepOutcome: Sendable, Hashable {
    case clean
    /// Done, but not cleanly; the reason is what `replay diagnose` shows.
    case warning(String)
}

/// What the router did with a switch request.
package enum SwitchRouting: Sendable, Hashable {
    /// It starts now.
    case started
    /// Another switch (queued or in flight) already goes to this project; this request's
    /// callback fires when that one lands.
    case absorbed(into: SwitchID)
    /// Queued behind the switch in flight (or the last queued one).
    case enqueued(behind: SwitchID)
    /// A switch to this project was already queued (not in flight, not the tail): that entry
    /// moved to the tail of the queue and this request joined it, so the queue never holds two
    /// entries for one project.
    case moved(entry: SwitchID)
    /// The SDK is already on this project with nothing running: reported clean at once.
    case noop
    /// Before initialization, a switch is an initialization.
    case initialization
}

/// The result a switch reports to the app.
///
/// Both "switched" cases mean the SDK *is* on the requested project: a switch never fails and
/// is never rolled back. The other cases are for switches the SDK stopped before finishing.
public enum SwitchResult: Sendable, Hashable {
    /// The SDK is on the new project; every teardown step was clean and the outgoing device's
    /// disable was confirmed durable.
    case switchedCleanly
    /// The SDK is on the new project, but some step ended with a warning (see the journal); normal for an
    /// app with no push token.
    case switchedWithWarnings
    /// The SDK stopped (`EngagementSDK.shutdown()`) before this switch began: it is on the
    /// project it was on, and the request is forgotten (it does not run at the next launch).
    case notPerformed
    /// The SDK stopped while this switch's teardown ran: the switch is recorded in the journal
    /// and finishes at the next launch, on the requested project.
    case interruptedByShutdown
}
