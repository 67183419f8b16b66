/// What turns a personal value into its redaction token (``KeyedHash`` does; a cache in front
/// of it may, as long as it gives the very same tokens).
package protocol Tokenizer: Sendable {
    /// The token of `value` as a `kind` (see ``KeyedHash/token(_:kind:)``).
    func token(_ value: String, kind: String) -> String
}

extension KeyedHash: Tokenizer {}
