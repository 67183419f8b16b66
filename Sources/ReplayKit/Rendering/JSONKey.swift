import SDK

/// A member's key as ``FactJSON`` hands it to a ``JSONMemberSink``: a literal (every key of
/// FactJSON's own vocabulary) or a string made at run time (a data field's). A sink that
/// writes bytes writes a literal from its bytes, with no string made, retained or released.
struct JSONKey: ExpressibleByStringLiteral {
    private enum Storage {
        case literal(StaticString)
        case text(String)
    }

    private let storage: Storage

    init(stringLiteral literal: StaticString) {
        storage = .literal(literal)
    }

    init(_ text: String) {
        storage = .text(text)
    }

    /// The key as a string.
    var string: String {
        switch storage {
        case .literal(let literal): literal.description
        case .text(let text): text
        }
    }

    /// The key's UTF-8 bytes (well-formed), valid during `body`.
    @inline(__always)
    func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch storage {
        case .literal(let literal):
            return literal.withUTF8Buffer(body)
        case .text(let text):
            return text.utf8.withContiguousBytes(body)
        }
    }

    /// Whether the key is `literal`'s text, compared byte for byte.
    static func == (key: JSONKey, literal: StaticString) -> Bool {
        key.withUTF8 { $0.hasSameBytes(as: literal) }
    }
}
