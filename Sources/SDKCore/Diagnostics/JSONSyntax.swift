/// The pieces of JSON's grammar the SDK's JSON readers share (``JSONParser``,
/// ``CanonicalBodyRedaction``, which must read what the parser reads, and the data fields'
/// reader, `DataJSONReader`): the bytes a number's
/// text may hold, the keywords, the one-letter escapes and hex digits.
enum JSONSyntax {
    /// A byte a number's text may hold: digits, signs, the point and the exponent's `e`.
    static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "e"), UInt8(ascii: "E"): true
        default: false
        }
    }

    /// The byte a one-letter escape after a backslash stands for (`n` a line feed, `"` a
    /// quote); nil for `u`, which four hex digits follow, and for a letter that is no escape.
    static func unescaped(_ letter: UInt8) -> UInt8? {
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

    /// How a string's text runs from `start` (just past its opening quote) read as it is, with
    /// no escape decoded.
    enum PlainRun {
        /// To the closing quote at `end`; `ascii` when every byte before it is ASCII.
        case closed(end: Int, ascii: Bool)
        /// To a backslash at `at`: the text has an escape.
        case escape(at: Int)
        /// Into a control character, or off the input's end: no string.
        case broken
    }

    /// Where a string's text runs from `start`, just past its opening quote (``PlainRun``).
    static func plainRun<Bytes: RandomAccessCollection<UInt8>>(in bytes: Bytes, from start: Int) -> PlainRun where Bytes.Index == Int {
        var position = start
        var ascii = true
        while position < bytes.endIndex {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { return .closed(end: position, ascii: ascii) }
            if byte == UInt8(ascii: "\\") { return .escape(at: position) }
            guard byte >= 0x20 else { return .broken }
            if byte >= 0x80 { ascii = false }
            position += 1
        }
        return .broken
    }

    /// `true`, `false` or `null`: the words a value may be.
    enum Keyword {
        case `true`, `false`, null

        /// The keyword a value that starts with `byte` must be, if any.
        init?(startingWith byte: UInt8) {
            switch byte {
            case UInt8(ascii: "t"): self = .true
            case UInt8(ascii: "f"): self = .false
            case UInt8(ascii: "n"): self = .null
            default: return nil
            }
        }

        var text: StaticString {
            switch self {
            case .true: "true"
            case .false: "false"
            case .null: "null"
            }
        }

        /// The keyword's value when it is a boolean; nil for `null`.
        var bool: Bool? {
            switch self {
            case .true: true
            case .false: false
            case .null: nil
            }
        }

        /// The length of the keyword's text when `bytes` spell it from `position`, else nil.
        func length<Bytes: RandomAccessCollection<UInt8>>(in bytes: Bytes, at position: Int) -> Int? where Bytes.Index == Int {
            let length = text.utf8CodeUnitCount
            guard bytes.endIndex - position >= length,
                  bytes[position..<(position + length)].elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: length))
            else { return nil }
            return length
        }
    }
}
