import SDKCore

/// What ``EngagementSDK/handleUniversalLink(_:completion:)`` found.
public struct UniversalLinkResult: Sendable, Hashable {
    /// How the call ended: applied (the link resolved, its attribution kept), failed (it could
    /// not be resolved, or it resolved after the instance that asked was replaced), discarded.
    public var outcome: CallOutcome
    /// Where to take the user: the tracked link's destination, or the link itself when it is not
    /// a tracked link; nil when a tracked link could not be resolved.
    public var destination: String?

    /// A result with this outcome and destination.
    public init(outcome: CallOutcome, destination: String?) {
        self.outcome = outcome
        self.destination = destination
    }
}
