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
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default:
            return try number()
        }
    }

    private mutating func string() throws(Failure) -> String {
        guard take(UInt8(ascii: "\"")) else { throw Failure() }
        var text = ""
        var raw: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let tail = String(validating: raw, as: UTF8.self) else { throw Failure() }
                return text + tail
            case UInt8(ascii: "\\"):
                guard let head = String(validating: raw, as: UTF8.self), position < bytes.count else { throw Failure() }
                text += head
                raw.removeAll()
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): text += "\""
                case UInt8(ascii: "\\"): text += "\\"
                case UInt8(ascii: "/"): text += "/"
                case UInt8(ascii: "b"): text += "\u{08}"
                case UInt8(ascii: "f"): text += "\u{0C}"
                case UInt8(ascii: "n"): text += "\n"
                case UInt8(ascii: "r"): text += "\r"
                case UInt8(ascii: "t"): text += "\t"
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code), take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")) {
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw Failure() }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw Failure() }
                    text.unicodeScalars.append(scalar)
                default:
                    throw Failure()
                }
            case 0..<0x20:
                throw Failure()
            default:
                raw.append(byte)
            }
        }
        throw Failure()
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard bytes.count - position >= 4 else { throw Failure() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            position += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Failure()
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private mutating func number() throws(Failure) -> JSONValue {
        let start = position
        while position < bytes.count, "+-0123456789.eE".utf8.contains(bytes[position]) { position += 1 }
        guard position > start, let text = String(validating: bytes[start..<position], as: UTF8.self) else { throw Failure() }
        if let integer = Int64(text) { return .integer(integer) }
        if let number = Double(text), number.isFinite { return .number(number) }
        throw Failure()
    }

    private mutating func literal(_ word: String) throws(Failure) {
        for byte in word.utf8 {
            guard take(byte) else { throw Failure() }
        }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func skipWhitespace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }
}
