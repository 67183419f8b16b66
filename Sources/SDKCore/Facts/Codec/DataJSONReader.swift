import Journal

/// Reads the JSON a data object is stored as since format 1.3 (``DataObject``, field 2) back
/// into its members.
///
/// The writer (``DataValue/writeJSON(to:depth:fidelity:)``) stores JSON only when it reads back
/// exactly, and this reader is how: a number that is an optional minus and digits within
/// `Int64` is an ``DataValue/integer(_:)``, every other number a ``DataValue/number(_:)`` (the
/// writer writes a `Double` with a point or an exponent). It reads any JSON, not only the
/// writer's: whitespace between tokens, every escape, a repeated key (the last one wins, as for
/// entries). Every read is bounds-checked; malformed input throws ``CodecError`` with the
/// offset, never traps. Nesting is limited as the writer limits it (``DataValue/maxDepth``
/// levels, the object itself the first): whatever this reads, written again as entries (a
/// message per level and member), stays within ``FieldReader/maxDepth``.
struct DataJSONReader {
    private let input: UnsafeRawBufferPointer
    private var position = 0
    private let baseOffset: Int

    /// The members of the JSON object in `bytes` (nothing may follow it but whitespace), which
    /// sit at `baseOffset` in the payload.
    static func members(of bytes: UnsafeRawBufferPointer, baseOffset: Int) throws(CodecError) -> [String: DataValue] {
        var reader = DataJSONReader(input: bytes, baseOffset: baseOffset)
        reader.skipWhitespace()
        let members = try reader.object(level: 1)
        reader.skipWhitespace()
        guard reader.position == bytes.count else { throw reader.failure("bytes after the data fields' JSON") }
        return members
    }

    private init(input: UnsafeRawBufferPointer, baseOffset: Int) {
        self.input = input
        self.baseOffset = baseOffset
    }

    private func failure(_ reason: String) -> CodecError {
        CodecError("data fields' JSON: \(reason)", offset: baseOffset + position)
    }

    private var next: UInt8? { position < input.count ? input[position] : nil }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard next == byte else { return false }
        position += 1
        return true
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(CodecError) {
        guard take(byte) else { throw failure("\(what) expected") }
    }

    private mutating func skipWhitespace() {
        while let byte = next, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
    }

    /// Throws unless a value at `level` (the object's own being 1) is within ``DataValue/maxDepth``.
    private func checkLevel(_ level: Int) throws(CodecError) {
        guard level <= DataValue.maxDepth else { throw failure("nested deeper than \(DataValue.maxDepth) levels") }
    }

    private mutating func object(level: Int) throws(CodecError) -> [String: DataValue] {
        try checkLevel(level)
        try expect(UInt8(ascii: "{"), "an object")
        var members: [String: DataValue] = [:]
        skipWhitespace()
        if take(UInt8(ascii: "}")) { return members }
        // Room for the commonest objects (one to three members) made at once: a dictionary grown
        // from empty is made for one member, then made again for the second.
        members.reserveCapacity(3)
        repeat {
            skipWhitespace()
            let key = try string()
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "a colon")
            skipWhitespace()
            members[key] = try value(level: level + 1)
            skipWhitespace()
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"), "the object's end")
        return members
    }

    private mutating func value(level: Int) throws(CodecError) -> DataValue {
        try checkLevel(level)
        guard let byte = next else { throw failure("a value expected") }
        switch byte {
        case UInt8(ascii: "{"):
            return .object(try object(level: level))
        case UInt8(ascii: "["):
            position += 1
            var elements: [DataValue] = []
            skipWhitespace()
            if take(UInt8(ascii: "]")) { return .array(elements) }
            repeat {
                skipWhitespace()
                elements.append(try value(level: level + 1))
                skipWhitespace()
            } while take(UInt8(ascii: ","))
            try expect(UInt8(ascii: "]"), "the array's end")
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

    private mutating func literal(_ word: StaticString) throws(CodecError) {
        let start = position
        let matches = word.withUTF8Buffer { letters in
            guard input.count - position >= letters.count else { return false }
            for (index, letter) in letters.enumerated() where input[position + index] != letter { return false }
            return true
        }
        guard matches else { throw failure("`\(word)` expected") }
        position = start + word.utf8CodeUnitCount
    }

    /// An integer (an optional minus and digits, within `Int64`) or, for any other number, a
    /// finite `Double`.
    private mutating func number() throws(CodecError) -> DataValue {
        let start = position
        while let byte = next, JSONSyntax.isNumberByte(byte) { position += 1 }
        let text = UnsafeRawBufferPointer(rebasing: input[start..<position])
        guard !text.isEmpty else { throw failure("a value expected") }
        if let integer = Self.integer(text) { return .integer(integer) }
        guard let number = Double(String(decoding: text, as: UTF8.self)), number.isFinite else {
            position = start
            throw failure("`\(String(decoding: text, as: UTF8.self))` is not a finite number")
        }
        return .number(number)
    }

    /// The value of `text` when it is an optional minus and decimal digits that fit an `Int64`.
    private static func integer(_ text: UnsafeRawBufferPointer) -> Int64? {
        let negative = text.first == UInt8(ascii: "-")
        let digits = UnsafeRawBufferPointer(rebasing: text[(negative ? 1 : 0)...])
        guard !digits.isEmpty else { return nil }
        var magnitude: UInt64 = 0
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            if overflow || carry { return nil }
            magnitude = sum
        }
        if negative { return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }


    /// A JSON string: ASCII without escapes (nearly every key and value) is taken as it is;
    /// escapes are decoded, and anything else is checked to be UTF-8.
    private mutating func string() throws(CodecError) -> String {
        try expect(UInt8(ascii: "\""), "a string")
        let start = position
        var ascii = true
        while let byte = next {
            if byte == UInt8(ascii: "\"") {
                let raw = UnsafeRawBufferPointer(rebasing: input[start..<position])
                position += 1
                if ascii { return String(decoding: raw, as: UTF8.self) }
                guard let text = UTF8Validation.string(raw) else {
                    position = start
                    throw failure("a string that is not UTF-8")
                }
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw failure("a control character in a string") }
            if byte >= 0x80 { ascii = false }
            position += 1
        }
        var decoded = Array(UnsafeRawBufferPointer(rebasing: input[start..<position]))
        while let byte = next {
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = UTF8Validation.string(decoded) else {
                    position = start
                    throw failure("a string that is not UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                try escape(into: &decoded)
            case 0..<0x20:
                position -= 1
                throw failure("a control character in a string")
            default:
                decoded.append(byte)
            }
        }
        throw failure("a string that does not end")
    }

    /// The escape after a backslash, appended to `decoded` as UTF-8.
    private mutating func escape(into decoded: inout [UInt8]) throws(CodecError) {
        guard let escape = next else { throw failure("a string that does not end") }
        position += 1
        if let byte = JSONSyntax.unescaped(escape) {
            decoded.append(byte)
            return
        }
        guard escape == UInt8(ascii: "u") else {
            position -= 1
            throw failure("an unknown escape")
        }
        var code = try hex4()
        if (0xD800..<0xDC00).contains(code) {
            guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")) else { throw failure("a lone surrogate") }
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw failure("a lone surrogate") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(code) else { throw failure("a lone surrogate") }
        UTF8.encode(scalar) { decoded.append($0) }
    }

    private mutating func hex4() throws(CodecError) -> UInt32 {
        guard input.count - position >= 4 else { throw failure("four hex digits expected") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = JSONSyntax.hexValue(input[position]) else { throw failure("four hex digits expected") }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }
}
