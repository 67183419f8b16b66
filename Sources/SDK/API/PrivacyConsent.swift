/// Whether the user agreed that the SDK sends their data (``EngagementSDK/setConsent(_:completion:)``).
public enum PrivacyConsent: String, Sendable, Hashable, CaseIterable {
    /// The SDK works as usual (the default of a new install).
    case granted
    /// No request leaves for any project; calls resolve at once as
    /// `DiscardReason.consentDeclined` and the journal keeps only their shape.
    case declined
}
