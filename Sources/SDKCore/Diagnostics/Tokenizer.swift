/// What turns a personal value into its redaction token (``KeyedHash`` does; a cache in front
/// of it may, as long as it gives the very same tokens).
package protocol Tokenizer: Sendable {
    /// The token of `value` as a `kind` (see ``KeyedHash/token(_:kind:)``).
    func token(_ value: String, kind: String) -> String

    /// Appends the JSON string of the token of the well-formed UTF-8 `value` as a `kind`: what
    /// ``JSONValue/writeString(_:to:)`` appends for `token(String(decoding: value, as:
    /// UTF8.self), kind: kind)`. A tokenizer that can find a token from the bytes (a request
    /// body's) without making the string does so.
    func writeToken(utf8 value: UnsafeBufferPointer<UInt8>, kind: String, to output: inout ScratchBytes)
}

extension Tokenizer {
    package func writeToken(utf8 value: UnsafeBufferPointer<UInt8>, kind: String, to output: inout ScratchBytes) {
        JSONValue.writeString(token(String(decoding: value, as: UTF8.self), kind: kind), to: &output)
    }
}

extension KeyedHash: Tokenizer {}
