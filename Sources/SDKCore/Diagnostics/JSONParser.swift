import Journal

/// Parses JSON text into a ``JSONValue`` (objects keep their key order), for redacting request
/// bodies. Depth is limited, and numbers keep their integer-ness.
package struct JSONParser {
    package struct Failure: Error {}

    package static let maximumDepth = 64

    private let bytes: [UInt8]
    private var position = 0

    /// The value `bytes` hold, or nil when they are not exactly one JSON value.
    package static func parse(_ bytes: [UInt8]) -> JSONValue? {
        var parser = JSONParser(bytes: bytes)
        guard let value = try? parser.value(depth: 0) else { return nil }
        parser.skipWhitespace()
        return parser.position == bytes.count ? value : nil
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard depth < Self.maximumDepth else { throw Failure() }
        skipWhitespace()
        guard position < bytes.count else { throw Failure() }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            position += 1
            var members: [(String, JSONValue)] = []
            skipWhitespace()
            if take(UInt8(ascii: "}")) { return .object(members) }
            repeat {
                skipWhitespace()
                let key = try string()
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { throw Failure() }
                members.append((key, try value(depth: depth + 1)))
                skipWhitespace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { throw Failure() }
            return .object(members)
        case UInt8(ascii: "["):
            position += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if take(UInt8(ascii: "]")) { return .array(elements) }
            repeat {
                elements.append(try value(depth: depth + 1))
                skipWhitespace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "]")) else { throw Failure() }
            return .array(elements)
        case UInt8(ascii: "\""):
            return .string(try string())
        default:
            // A keyword, else a number (a byte that starts neither fails there).
            guard let keyword = JSONSyntax.Keyword(startingWith: bytes[position]) else { return try number() }
            guard let length = keyword.length(in: bytes, at: position) else { throw Failure() }
            position += length
            return keyword.bool.map(JSONValue.bool) ?? .null
        }
    }

    private mutating func string() throws(Failure) -> String {
        guard take(UInt8(ascii: "\"")) else { throw Failure() }
        let start = position
        switch JSONSyntax.plainRun(in: bytes, from: start) {
        case .closed(let end, _):
            position = end + 1
            guard let text = Self.text(bytes[start..<end]) else { throw Failure() }
            return text
        case .escape(let at):
            position = at
        case .broken:
            throw Failure()
        }
        // An escape: the text is decoded into UTF-8 bytes, validated once at the closing quote.
        var decoded = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = UTF8Validation.string(decoded) else { throw Failure() }
                return text
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { throw Failure() }
                let escape = bytes[position]
                position += 1
                if let byte = JSONSyntax.unescaped(escape) {
                    decoded.append(byte)
                } else {
                    guard escape == UInt8(ascii: "u") else { throw Failure() }
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code), take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")) {
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw Failure() }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw Failure() }
                    UTF8.encode(scalar) { decoded.append($0) }
                }
            case 0..<0x20:
                throw Failure()
            default:
                decoded.append(byte)
            }
        }
        throw Failure()
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard bytes.count - position >= 4 else { throw Failure() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = JSONSyntax.hexValue(bytes[position]) else { throw Failure() }
            position += 1
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private mutating func number() throws(Failure) -> JSONValue {
        let start = position
        while position < bytes.count, JSONSyntax.isNumberByte(bytes[position]) { position += 1 }
        guard position > start else { throw Failure() }
        if let integer = Self.shortInteger(bytes[start..<position]) { return .integer(integer) }
        guard let text = UTF8Validation.string(bytes[start..<position]) else { throw Failure() }
        if let integer = Int64(text) { return .integer(integer) }
        if let number = Double(text), number.isFinite { return .number(number) }
        throw Failure()
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// `bytes` as text when they are valid UTF-8: ASCII (most of a request body) is taken as it
    /// is, anything else validated.
    private static func text(_ bytes: ArraySlice<UInt8>) -> String? {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.allSatisfy { $0 < 0x80 } ? String(decoding: buffer, as: UTF8.self) : UTF8Validation.string(buffer)
        }
    }

    /// The value of an optional `-` and 1 to 18 decimal digits (which always fit an `Int64`), as
    /// `Int64(text)` reads them; nil for any other number's text, which takes the general path.
    private static func shortInteger(_ bytes: ArraySlice<UInt8>) -> Int64? {
        let negative = bytes.first == UInt8(ascii: "-")
        let digits = negative ? bytes.dropFirst() : bytes
        guard (1...18).contains(digits.count) else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return negative ? -value : value
    }
}
