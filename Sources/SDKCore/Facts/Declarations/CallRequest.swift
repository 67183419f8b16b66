/// The request a public call becomes, as its ``CallDeclaration`` states it.
package enum CallRequest: Sendable, Hashable {
    /// No request of its own: the call changes the SDK's state (identity, attribution), or the
    /// switch machinery handles it.
    case none
    /// A POST to `path` of one JSON object: the user at its top (by email, else by user id),
    /// then each argument under its name in the public API; an absent optional one is left out.
    case post(path: String)
    /// A request of its own shape (a nested user, a query, a time, a value of the SDK's state),
    /// which ``RequestBody`` builds for this shape alone.
    case built(BuiltRequest)
}
