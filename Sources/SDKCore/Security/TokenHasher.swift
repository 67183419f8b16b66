/// ``KeyedHash``'s tokens, the very same, each computed from the key's HMAC pads
/// (``HMACPads``): no crypto context is allocated, started or freed per token, which would
/// be most of a token's cost.
///
/// Make one with ``KeyedHash/makeTokenHasher()``; a value, safe to use from any thread.
package struct TokenHasher: Sendable {
    private let pads: HMACPads

    init(_ pads: HMACPads) {
        self.pads = pads
    }

    /// The token ``KeyedHash/token(_:kind:)`` gives for `value` as a `kind`.
    package func token(_ value: String, kind: String) -> String {
        KeyedHash.token(value, kind: kind, digest: pads.digest)
    }

    /// The token for the value whose UTF-8 bytes are `value` (a value read from a request body,
    /// with no string made for it).
    package func token(utf8 value: UnsafeBufferPointer<UInt8>, kind: String) -> String {
        KeyedHash.token(utf8: value, kind: kind, digest: pads.digest)
    }
}
