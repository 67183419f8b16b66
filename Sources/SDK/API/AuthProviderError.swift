/// What an ``AuthProvider`` fails with to say that no JWT can ever be had for the user it was
/// asked for, rather than failing in a way that may pass (offline, its server down).
public enum AuthProviderError: Error, Sendable, Hashable {
    /// The user is no longer signed in: the SDK fails that user's request at once
    /// (`CallFailure.authentication(_:)`), never tries again, and goes on with the requests of
    /// other users.
    case userSignedOut
}
