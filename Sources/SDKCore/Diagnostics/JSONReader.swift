import Journal

/// The SDK's one reader of JSON text: a cursor over the bytes that steps through JSON's grammar
/// (whitespace, punctuation, strings with every escape, keywords, the run of a number's bytes)
/// and says what was wrong and at which byte when the text is not JSON. It builds no value:
/// ``JSONParser`` builds a ``JSONValue`` with it, ``DataValue/members(ofJSON:baseOffset:)`` a
/// data object, and ``CanonicalBodyRedaction`` redacts the SDK's own bodies as it steps.
///
/// It reads any JSON, leniently where the builders were lenient: a number is the run of bytes
/// a number may hold, for the builder to interpret (``numberRun()``). Every read is
/// bounds-checked and never traps. Nesting is the builders' to limit.
struct JSONReader {
    /// Why the text is not JSON, and the offset in the input of the byte that says so.
    struct Failure: Error {
        let reason: String
        let offset: Int
    }

    private let input: UnsafeRawBufferPointer
    /// The offset of the next byte to read.
    private(set) var position = 0

    init(_ input: UnsafeRawBufferPointer) {
        self.input = input
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { position == input.count }

    /// The byte at the cursor, nil at the end.
    var next: UInt8? { position < input.count ? input[position] : nil }

    /// The bytes of `range`, which lies within the input.
    func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: input[range])
    }

    /// A failure for `reason` at the cursor.
    func failure(_ reason: String) -> Failure {
        Failure(reason: reason, offset: position)
    }

    /// Steps past `byte` when it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        guard next == byte else { return false }
        position += 1
        return true
    }

    /// Steps past `byte`, or fails saying `what` was expected.
    mutating func expect(_ byte: UInt8, _ what: String) throws(Failure) {
        guard take(byte) else { throw failure("\(what) expected") }
    }

    /// Steps past spaces, tabs, line feeds and carriage returns.
    mutating func skipWhitespace() {
        while let byte = next, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
    }

    // MARK: Containers

    /// Steps through an array, the cursor at its `[`: `element` reads each element, called
    /// with this reader at it (whitespace before it skipped), in order; then the closing `]`.
    mutating func readArray(_ element: (inout JSONReader) throws(Failure) -> Void) throws(Failure) {
        try expect(UInt8(ascii: "["), "an array")
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return }
        repeat {
            skipWhitespace()
            try element(&self)
            skipWhitespace()
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"), "the array's end")
    }

    /// Steps through an object, the cursor at its `{`: `member` reads each member's value,
    /// called with its key and this reader at the value (whitespace before it skipped), in
    /// order; then the closing `}`. A repeated key is handed over each time.
    mutating func readObject(_ member: (String, inout JSONReader) throws(Failure) -> Void) throws(Failure) {
        try expect(UInt8(ascii: "{"), "an object")
        skipWhitespace()
        if take(UInt8(ascii: "}")) { return }
        repeat {
            skipWhitespace()
            let key = try string()
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "a colon")
            skipWhitespace()
            try member(key, &self)
            skipWhitespace()
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"), "the object's end")
    }

    // MARK: Strings

    /// How a string's text runs from just past its opening quote, read as it is, no escape
    /// decoded.
    private enum PlainRun {
        /// To the closing quote at `end`; `ascii` when every byte before it is ASCII.
        case closed(end: Int, ascii: Bool)
        /// To a backslash at `at`: the text has an escape.
        case escape(at: Int)
        /// Into a control character (at `at`), or off the input's end (`at` the end): no string.
        case broken(at: Int)
    }

    /// Where a string's text runs from the cursor, which is just past its opening quote; the
    /// cursor does not move.
    private func plainRun() -> PlainRun {
        var position = position
        var ascii = true
        while position < input.count {
            let byte = input[position]
            if byte == UInt8(ascii: "\"") { return .closed(end: position, ascii: ascii) }
            if byte == UInt8(ascii: "\\") { return .escape(at: position) }
            guard byte >= 0x20 else { return .broken(at: position) }
            if byte >= 0x80 { ascii = false }
            position += 1
        }
        return .broken(at: position)
    }

    /// Steps past a string whose text is plain (``PlainRun/closed(end:ascii:)``) and returns
    /// its text's range; nil, and the cursor unmoved past the quote, for any other.
    mutating func plainString() -> (range: Range<Int>, ascii: Bool)? {
        let quote = position
        guard take(UInt8(ascii: "\"")) else { return nil }
        guard case .closed(let end, let ascii) = plainRun() else {
            position = quote
            return nil
        }
        defer { position = end + 1 }
        return (position..<end, ascii)
    }

    /// A string: plain ASCII (nearly every key and value) is taken as it is; escapes are
    /// decoded, and anything else is checked to be UTF-8.
    mutating func string() throws(Failure) -> String {
        try expect(UInt8(ascii: "\""), "a string")
        let start = position
        switch plainRun() {
        case .closed(let end, let ascii):
            position = end
            let raw = bytes(start..<end)
            position += 1
            if ascii { return String(decoding: raw, as: UTF8.self) }
            guard let text = UTF8Validation.string(raw) else {
                position = start
                throw failure("a string that is not UTF-8")
            }
            return text
        case .escape(let at):
            position = at
        case .broken(let at):
            position = at
            throw failure(at == input.count ? "a string that does not end" : "a control character in a string")
        }
        var decoded = Array(bytes(start..<position))
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
    private mutating func escape(into decoded: inout [UInt8]) throws(Failure) {
        guard let escape = next else { throw failure("a string that does not end") }
        position += 1
        if let byte = Self.unescaped(escape) {
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

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard input.count - position >= 4 else { throw failure("four hex digits expected") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Self.hexValue(input[position]) else { throw failure("four hex digits expected") }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// The byte a one-letter escape after a backslash stands for (`n` a line feed, `"` a
    /// quote); nil for `u`, which four hex digits follow, and for a letter that is no escape.
    private static func unescaped(_ letter: UInt8) -> UInt8? {
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): letter
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }

    /// The value of a hex digit (either case), nil for any other byte.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    // MARK: Keywords and numbers

    /// `true`, `false` or `null`: the words a value may be.
    enum Keyword {
        case `true`, `false`, null

        /// The keyword's value when it is a boolean; nil for `null`.
        var bool: Bool? {
            switch self {
            case .true: true
            case .false: false
            case .null: nil
            }
        }

        fileprivate var text: StaticString {
            switch self {
            case .true: "true"
            case .false: "false"
            case .null: "null"
            }
        }
    }

    /// The keyword a value starting at the cursor must be, when its first byte is `t`, `f` or
    /// `n`; nil (the cursor unmoved) for any other byte: a number, or no value.
    mutating func keyword() throws(Failure) -> Keyword? {
        let keyword: Keyword
        switch next {
        case UInt8(ascii: "t"): keyword = .true
        case UInt8(ascii: "f"): keyword = .false
        case UInt8(ascii: "n"): keyword = .null
        default: return nil
        }
        let matches = keyword.text.withUTF8Buffer { letters in
            guard input.count - position >= letters.count else { return false }
            for (index, letter) in letters.enumerated() where input[position + index] != letter { return false }
            return true
        }
        guard matches else { throw failure("`\(keyword.text)` expected") }
        position += keyword.text.utf8CodeUnitCount
        return keyword
    }

    /// Steps past the run of bytes a number's text may hold (digits, signs, the point and the
    /// exponent's `e`) and returns its range: empty when no such byte is next. What the run
    /// means, and whether it is a number at all, is the builder's to say.
    mutating func numberRun() -> Range<Int> {
        let start = position
        while let byte = next, Self.isNumberByte(byte) { position += 1 }
        return start..<position
    }

    /// Moves the cursor back to `offset` (at most where it is): a builder that read a run and
    /// found it wanting names the run's start.
    mutating func rewind(to offset: Int) {
        precondition(offset <= position)
        position = offset
    }

    /// The value of a number's run (``numberRun()``) when it is an optional minus and decimal
    /// digits that fit an `Int64`; nil for any other run (a sign, a point, an exponent, too many
    /// digits), which is the builder's to read otherwise.
    static func integer(_ run: UnsafeRawBufferPointer) -> Int64? {
        let negative = run.first == UInt8(ascii: "-")
        let digits = UnsafeRawBufferPointer(rebasing: run[(negative ? 1 : 0)...])
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

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "e"), UInt8(ascii: "E"): true
        default: false
        }
    }
}
