/// ``KeyedHash``'s tokens, for one thread at a time: the very same tokens, each computed with a
/// libcrypto context the hasher keeps and starts again (``ReusableHMACContext``) rather than
/// one duplicated and freed per token, which costs about a third more.
///
/// Not Sendable: make one per thread with ``KeyedHash/makeTokenHasher()``, or keep it behind a
/// lock.
package final class TokenHasher {
    private let context: ReusableHMACContext

    init(_ context: ReusableHMACContext) {
        self.context = context
    }

    /// The token ``KeyedHash/token(_:kind:)`` gives for `value` as a `kind`.
    package func token(_ value: String, kind: String) -> String {
        KeyedHash.token(value, kind: kind, digest: context.digest)
    }
}
