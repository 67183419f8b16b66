import Journal

/// Parses JSON text into a ``JSONValue`` (objects keep their key order and every repeated key),
/// through ``JSONReader``: for redacting request bodies and reading the backend's answers. Depth
/// is limited, and numbers keep their integer-ness.
package enum JSONParser {
    package static let maximumDepth = 64

    /// The value `bytes` hold, or nil when they are not exactly one JSON value.
    package static func parse(_ bytes: [UInt8]) -> JSONValue? {
        bytes.withUnsafeBytes { input in
            var reader = JSONReader(input)
            guard let value = try? value(&reader, depth: 0) else { return nil }
            reader.skipWhitespace()
            return reader.isAtEnd ? value : nil
        }
    }

    private static func value(_ reader: inout JSONReader, depth: Int) throws(JSONReader.Failure) -> JSONValue {
        guard depth < maximumDepth else { throw reader.failure("nested deeper than \(maximumDepth) levels") }
        reader.skipWhitespace()
        guard let byte = reader.next else { throw reader.failure("a value expected") }
        switch byte {
        case UInt8(ascii: "{"):
            var members: [(String, JSONValue)] = []
            try reader.readObject { key, reader throws(JSONReader.Failure) in members.append((key, try value(&reader, depth: depth + 1))) }
            return .object(members)
        case UInt8(ascii: "["):
            var elements: [JSONValue] = []
            try reader.readArray { reader throws(JSONReader.Failure) in elements.append(try value(&reader, depth: depth + 1)) }
            return .array(elements)
        case UInt8(ascii: "\""):
            return .string(try reader.string())
        default:
            if let keyword = try reader.keyword() { return keyword.bool.map(JSONValue.bool) ?? .null }
            return try number(&reader)
        }
    }

    /// An integer when the run reads as an `Int64` (`Int64(text)`: a sign, then digits), else a
    /// finite `Double`.
    private static func number(_ reader: inout JSONReader) throws(JSONReader.Failure) -> JSONValue {
        let run = reader.numberRun()
        let text = reader.bytes(run)
        guard !text.isEmpty else { throw reader.failure("a value expected") }
        if let integer = JSONReader.integer(text) { return .integer(integer) }
        // `Int64(text)` reads a leading `+` too.
        let spelled = String(decoding: text, as: UTF8.self)
        if let integer = Int64(spelled) { return .integer(integer) }
        if let number = Double(spelled), number.isFinite { return .number(number) }
        reader.rewind(to: run.lowerBound)
        throw reader.failure("`\(spelled)` is not a number")
    }
}
