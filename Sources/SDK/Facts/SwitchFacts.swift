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

/// How a step went.
public enum StepOutcome: Sendable, Hashable {
    case clean
    /// Done, but not cleanly; the reason is what `replay diagnose` shows.
    case noisy(String)
}

/// What the router did with a switch request.
public enum SwitchRouting: Sendable, Hashable {
    /// It starts now.
    case started
    /// Another switch (queued or in flight) already goes to this project; this request's
    /// callback fires when that one lands.
    case absorbed(into: SwitchID)
    /// Queued behind the switch in flight (or the last queued one).
    case enqueued(behind: SwitchID)
    /// The SDK is already on this project with nothing running: reported clean at once.
    case noop
    /// Before initialization, a switch is an initialization.
    case initialization
}

/// The result a switch reports.
public enum SwitchResult: Sendable, Hashable {
    /// Every teardown step was clean and the outgoing device's disable was confirmed durable.
    case switchedCleanly
    /// The SDK is on the new project, but some step was noisy (see the journal).
    case switchedWithWarnings
}
