/// A JSON value with object keys kept in the order they were given, so machine output is stable
/// enough for golden files.
package enum JSONValue: Equatable, Sendable {
    case object([(String, JSONValue)])
    case array([JSONValue])
    case string(String)
    case integer(Int64)
    case unsigned(UInt64)
    case number(Double)
    case bool(Bool)
    case null

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.serialized() == rhs.serialized()
    }

    /// Compact JSON on one line.
    package func serialized() -> String {
        ScratchBytes.withScratch(capacity: 2048) { bytes in
            write(to: &bytes)
            return String(decoding: bytes.written, as: UTF8.self)
        }
    }

    /// Appends the compact JSON of the value, as UTF-8, to `output` (the bytes of
    /// ``serialized()``, with no String built on the way).
    package func write(to output: inout [UInt8]) {
        ScratchBytes.withScratch(capacity: 2048) { bytes in
            write(to: &bytes)
            output.append(contentsOf: bytes.written)
        }
    }

    /// Appends the compact JSON of the value to `output`: what every other writer here ends in.
    package func write(to output: inout ScratchBytes) {
        switch self {
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            var first = true
            for (key, value) in members {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                Self.writeString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .string(let text): Self.writeString(text, to: &output)
        case .integer(let value):
            if value < 0 { output.append(UInt8(ascii: "-")) }
            output.appendDecimal(value.magnitude)
        case .unsigned(let value): output.appendDecimal(value)
        case .number(let value):
            if value.isFinite { output.append(String(value)) } else { output.append("null" as StaticString) }
        case .bool(let value): output.append(value ? "true" as StaticString : "false")
        case .null: output.append("null" as StaticString)
        }
    }

    /// Writes the decimal digits of `value`, as `String(value)` spells them, at `start` (room for
    /// 20); returns how many. Counted first, then written from the last digit back, two digits
    /// at a time, in place: no buffer to copy them from.
    package static func writeDecimal(_ value: UInt64, at start: UnsafeMutablePointer<UInt8>) -> Int {
        let count = decimalDigitCount(value)
        let pairs = digitPairs.utf8Start
        var rest = value
        var index = count
        while rest >= 100 {
            let pair = Int(truncatingIfNeeded: rest % 100) &* 2
            rest /= 100
            index &-= 2
            start[index] = pairs[pair]
            start[index &+ 1] = pairs[pair &+ 1]
        }
        if rest >= 10 {
            let pair = Int(truncatingIfNeeded: rest) &* 2
            start[0] = pairs[pair]
            start[1] = pairs[pair &+ 1]
        } else {
            start[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
        }
        return count
    }

    /// `00` to `99`, one after the other: the two digits of `n` are at `2n` and `2n + 1`.
    private static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// How many decimal digits `value` has (1 for zero): the bit length times log10(2)
    /// (1233/4096) is the count or one less, and one comparison with a power of ten tells which.
    package static func decimalDigitCount(_ value: UInt64) -> Int {
        let odd = value | 1
        let estimate = ((64 &- odd.leadingZeroBitCount) &* 1233) >> 12
        return estimate &+ (odd >= powerOfTen(estimate) ? 1 : 0)
    }

    /// 10 to the power of `exponent`, for 0 to 19 (10^19 is the largest a `UInt64` holds): a
    /// switch of constants, which needs no lazily made global.
    private static func powerOfTen(_ exponent: Int) -> UInt64 {
        switch exponent {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        case 18: 1_000_000_000_000_000_000
        default: 10_000_000_000_000_000_000
        }
    }


    /// A JSON string: `"`, `\\`, newline, return and tab escaped by name, other control
    /// characters as `\u00xx`, everything else (non-ASCII included) as its UTF-8 bytes.
    package static func writeString(_ text: String, to output: inout ScratchBytes) {
        text.utf8.withContiguousBytes { writeString(escaping: $0, to: &output) }
    }

    /// Appends the JSON string of the UTF-8 `text`, as ``writeString(_:to:)`` writes
    /// `String(decoding: text, as: UTF8.self)`: ASCII bytes are written without making the
    /// string; anything else goes through it, so an ill-formed sequence becomes U+FFFD.
    package static func writeString(utf8 text: [UInt8], to output: inout ScratchBytes) {
        let written: Bool = text.withUnsafeBufferPointer { bytes in
            guard isASCII(bytes) else { return false }
            writeString(escaping: bytes, to: &output)
            return true
        }
        if !written { writeString(String(decoding: text, as: UTF8.self), to: &output) }
    }

    /// Whether every byte of `bytes` is below 0x80 (eight at a time).
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var index = 0
        var high: UInt64 = 0
        while bytes.count - index >= 8 {
            high |= UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            index += 8
        }
        while index < bytes.count {
            high |= UInt64(bytes[index])
            index += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// Appends the JSON string of `bytes`, which are well-formed UTF-8 (a string's or a
    /// literal's), as ``writeString(_:to:)`` writes their string.
    package static func writeString(wellFormedUTF8 bytes: UnsafeBufferPointer<UInt8>, to output: inout ScratchBytes) {
        writeString(escaping: bytes, to: &output)
    }

    /// Appends `"`, the escaped well-formed UTF-8 `bytes`, `"`, through one pointer.
    @inline(__always)
    private static func writeString(escaping bytes: UnsafeBufferPointer<UInt8>, to output: inout ScratchBytes) {
        output.appendWriting(atMost: escapedRoom(forUTF8Count: bytes.count)) { writeString(escaping: bytes, at: $0) }
    }

    /// The room ``writeString(_:at:)`` needs for a string of `count` UTF-8 bytes: six bytes per
    /// byte (`\u00xx`), the quotes and one more, so that a whole word stored near the end of
    /// what is kept always fits (a word is read with eight bytes left to read, and the last one
    /// to seven bytes leave at least 6 + 2 bytes of room).
    @inline(__always)
    package static func escapedRoom(forUTF8Count count: Int) -> Int {
        count * 6 + 3
    }

    /// Appends an object member's key, the well-formed UTF-8 `bytes`, as `"key":`, after a
    /// comma when `comma`: what appending the comma, ``writeString(wellFormedUTF8:to:)`` and
    /// the colon give, through one reservation.
    package static func writeMemberKey(wellFormedUTF8 bytes: UnsafeBufferPointer<UInt8>, comma: Bool, to output: inout ScratchBytes) {
        output.appendWriting(atMost: escapedRoom(forUTF8Count: bytes.count) + 2) { start in
            var end = start
            if comma {
                end.pointee = UInt8(ascii: ",")
                end += 1
            }
            end += writeString(escaping: bytes, at: end)
            end.pointee = UInt8(ascii: ":")
            return end + 1 - start
        }
    }

    /// Writes the JSON string of `text` at `start`, which has ``escapedRoom(forUTF8Count:)`` of
    /// its UTF-8 length; returns the bytes written. For writers that reserve a row's room once.
    package static func writeString(_ text: String, at start: UnsafeMutablePointer<UInt8>) -> Int {
        text.utf8.withContiguousBytes { writeString(escaping: $0, at: start) }
    }

    /// Writes `"`, the escaped well-formed UTF-8 `bytes`, `"` at `start`: a word of eight bytes
    /// at a time is stored whole, and kept up to its first byte that needs escaping
    /// (``escapeFlags(_:)`` flags that one exactly: only bytes after a flagged one can be
    /// flagged wrongly), which is escaped before the next word is read.
    @inline(__always)
    private static func writeString(escaping bytes: UnsafeBufferPointer<UInt8>, at start: UnsafeMutablePointer<UInt8>) -> Int {
        var end = start
        end.pointee = UInt8(ascii: "\"")
        end += 1
        func write(_ byte: UInt8) {
            if needsEscaping(byte) {
                end += writeEscape(of: byte, at: UnsafeMutableRawPointer(end))
            } else {
                end.pointee = byte
                end += 1
            }
        }
        if let base = bytes.baseAddress {
            var index = 0
            while bytes.count - index >= 8 {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                UnsafeMutableRawPointer(end).storeBytes(of: word.littleEndian, as: UInt64.self)
                let flagged = escapeFlags(word)
                guard flagged != 0 else {
                    end += 8
                    index += 8
                    continue
                }
                let plain = flagged.trailingZeroBitCount / 8
                end += plain
                index += plain
                write(base[index])
                index += 1
            }
            let rest = bytes.count - index
            if rest > 0 {
                // The last bytes, fewer than eight, as one word: the top of the word that ends
                // the string, moved down, when the string has eight bytes; else two
                // overlapping halves. Stored whole when none needs escaping (the room kept for
                // escapes holds a word).
                let word = bytes.count >= 8
                    ? UInt64(littleEndian: UnsafeRawPointer(base + bytes.count - 8).loadUnaligned(as: UInt64.self)) >> (UInt64(8 - rest) * 8)
                    : shortWord(base, count: rest)
                let kept: UInt64 = (1 << (UInt64(rest) * 8)) - 1
                if escapeFlags(word) & kept == 0 {
                    UnsafeMutableRawPointer(end).storeBytes(of: word.littleEndian, as: UInt64.self)
                    end += rest
                    index = bytes.count
                }
            }
            while index < bytes.count {
                write(base[index])
                index += 1
            }
        }
        end.pointee = UInt8(ascii: "\"")
        return end + 1 - start
    }

    /// The `count` (1 to 7) bytes at `base` as the low bytes of a word (little-endian order),
    /// the rest zero: two overlapping loads of four, or of two, bytes, or the one byte.
    @inline(__always)
    private static func shortWord(_ base: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        let raw = UnsafeRawPointer(base)
        if count >= 4 {
            let low = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
            let high = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)))
            return low | high << (UInt64(count - 4) * 8)
        }
        if count >= 2 {
            let low = UInt64(UInt16(littleEndian: raw.loadUnaligned(as: UInt16.self)))
            let high = UInt64(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self)))
            return low | high << (UInt64(count - 2) * 8)
        }
        return UInt64(base.pointee)
    }

    /// Whether `byte` is escaped in a JSON string: a control character, `"` or `\\`.
    @inline(__always)
    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Writes the escape of `byte` (one that ``needsEscaping(_:)``) at `output`, which has room
    /// for six bytes: `\"`, `\\`, `\n`, `\r` and `\t` by name, other control characters as
    /// `\u00xx`. Returns the bytes written.
    @inline(__always)
    private static func writeEscape(of byte: UInt8, at output: UnsafeMutableRawPointer) -> Int {
        func store(_ value: UInt8, at offset: Int) { output.storeBytes(of: value, toByteOffset: offset, as: UInt8.self) }
        store(UInt8(ascii: "\\"), at: 0)
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): store(byte, at: 1)
        case UInt8(ascii: "\n"): store(UInt8(ascii: "n"), at: 1)
        case UInt8(ascii: "\r"): store(UInt8(ascii: "r"), at: 1)
        case UInt8(ascii: "\t"): store(UInt8(ascii: "t"), at: 1)
        default:
            store(UInt8(ascii: "u"), at: 1)
            store(UInt8(ascii: "0"), at: 2)
            store(UInt8(ascii: "0"), at: 3)
            store(Hex.digit(byte >> 4), at: 4)
            store(Hex.digit(byte & 0x0F), at: 5)
            return 6
        }
        return 2
    }

    /// The length of `text` escaped for a JSON string, without its quotes: what
    /// ``writeString(_:to:)`` writes between them, counted without writing it (the SDK's byte
    /// bounds count request bodies this way).
    static func escapedByteCount(of text: String) -> Int {
        text.utf8.withContiguousBytes { bytes in
            guard let base = bytes.baseAddress else { return 0 }
            var count = bytes.count
            var index = 0
            while index < bytes.count {
                if bytes.count - index >= 8 {
                    let flagged = escapeFlags(UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)))
                    guard flagged != 0 else {
                        index += 8
                        continue
                    }
                    index += flagged.trailingZeroBitCount / 8
                }
                let byte = base[index]
                index += 1
                if needsEscaping(byte) {
                    var escape: (UInt64, UInt64) = (0, 0)
                    count += withUnsafeMutableBytes(of: &escape) { writeEscape(of: byte, at: $0.baseAddress!) } - 1
                }
            }
            return count
        }
    }
}

extension JSONValue {
    /// Whether any of the eight bytes in `word` is a control character, `"` or `\\` (never
    /// false when one is; it may be true when none is, for a byte after one that is): whether
    /// ``escapeFlags(_:)`` flags any.
    @inline(__always)
    static func mayNeedEscaping(_ word: UInt64) -> Bool {
        escapeFlags(word) != 0
    }

    /// The high bit of each byte of `word` (its bytes in little-endian order) that may need
    /// escaping: exact for the lowest flagged byte, as for every byte below it; a byte above a
    /// flagged one may be flagged wrongly (a borrow carries into it).
    @inline(__always)
    static func escapeFlags(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let quote = (quotes &- ones) & ~quotes
        let backslash = (backslashes &- ones) & ~backslashes
        return (control | quote | backslash) & highBits
    }

    /// `value` as JSON, or null when absent.
    package static func optional<Wrapped>(_ value: Wrapped?, _ transform: (Wrapped) -> JSONValue) -> JSONValue {
        value.map(transform) ?? .null
    }
}
