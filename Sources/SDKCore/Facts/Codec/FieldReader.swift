import Journal

/// Why bytes could not be decoded as a fact, and where.
package struct CodecError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    /// The byte offset within the fact's payload.
    public var offset: Int
    /// Whether the bytes are well-formed but use a variant this build does not know (a newer
    /// writer): such a fact is passed through as unknown rather than reported as damage.
    public var isUnknownVariant: Bool

    init(_ reason: String, offset: Int, unknownVariant: Bool = false) {
        self.reason = reason
        self.offset = offset
        self.isUnknownVariant = unknownVariant
    }

    public var description: String { "\(reason) at payload byte \(offset)" }
}

/// Reads a tagged-field message field by field. Every read is bounds-checked; malformed input
/// throws ``CodecError``, never traps, and allocations never exceed the input's size.
///
/// Reads the input in place, through a pointer: a reader (and every field it hands out) lives
/// only inside the `withUnsafeBytes` of the codec entry point that made it (``FactCodec``,
/// ``StateCodec``); decoded values copy what they keep.
struct FieldReader {
    /// One field: its number and its raw value.
    struct Field {
        enum Value {
            case varint(UInt64)
            case fixed64(UInt64)
            case bytes(UnsafeRawBufferPointer)
        }

        let number: Int
        let value: Value
        /// Whether the message it sits in reads data values (``FieldReader/readsDataValues``):
        /// a nested message is read alike.
        let readsDataValues: Bool
        let offset: Int
        /// How deep in nested messages this field sits.
        let depth: Int

        func unsigned() throws(CodecError) -> UInt64 {
            guard case .varint(let raw) = value else { throw CodecError("field \(number) is not a varint", offset: offset) }
            return raw
        }

        func signed() throws(CodecError) -> Int64 {
            Varint.unzigzag(try unsigned())
        }

        func int() throws(CodecError) -> Int {
            let raw = try signed()
            guard let value = Int(exactly: raw) else { throw CodecError("field \(number) is out of range", offset: offset) }
            return value
        }

        func bool() throws(CodecError) -> Bool {
            try unsigned() != 0
        }

        func double() throws(CodecError) -> Double {
            guard case .fixed64(let raw) = value else { throw CodecError("field \(number) is not a fixed64", offset: offset) }
            return Double(bitPattern: raw)
        }

        /// The value's bytes, valid only while the reader's input is.
        func bytes() throws(CodecError) -> UnsafeRawBufferPointer {
            guard case .bytes(let raw) = value else { throw CodecError("field \(number) is not length-delimited", offset: offset) }
            return raw
        }

        func string() throws(CodecError) -> String {
            let raw = try bytes().assumingMemoryBound(to: UInt8.self)
            // ASCII (nearly every string journaled) is valid UTF-8 as it is.
            var ascii = true
            for byte in raw where byte >= 0x80 { ascii = false; break }
            if ascii { return String(decoding: raw, as: UTF8.self) }
            guard let text = UTF8Validation.string(raw) else {
                throw CodecError("field \(number) is not UTF-8", offset: offset)
            }
            return text
        }

        func message<Value: FieldCodable>(_ type: Value.Type = Value.self) throws(CodecError) -> Value {
            guard depth < FieldReader.maxDepth else {
                throw CodecError("messages nested deeper than \(FieldReader.maxDepth) levels", offset: offset)
            }
            var nested = FieldReader(try bytes(), baseOffset: offset, depth: depth + 1, readsDataValues: readsDataValues)
            return try Value(from: &nested)
        }
    }

    /// The deepest nesting decoded; deeper input is rejected, so hostile bytes cannot exhaust
    /// the stack.
    static let maxDepth = 160

    private let input: UnsafeRawBufferPointer
    private var position: Int
    private let baseOffset: Int
    private let depth: Int
    /// Whether data values (the `dataFields` of calls and their items, ``DataObject``) are read;
    /// false reads each as empty without looking at its bytes (``FactCodec/decode(kind:payload:readsDataValues:)``).
    let readsDataValues: Bool

    /// A reader of `bytes`, which must outlive it.
    init(_ bytes: UnsafeRawBufferPointer, baseOffset: Int = 0, depth: Int = 0, readsDataValues: Bool = true) {
        input = bytes
        position = 0
        self.baseOffset = baseOffset
        self.depth = depth
        self.readsDataValues = readsDataValues
    }

    private var offset: Int { baseOffset + position }

    /// The next field, or nil at the end.
    @inline(__always)
    mutating func next() throws(CodecError) -> Field? {
        guard position < input.count else { return nil }
        let start = offset
        let key = try varint()
        guard key >> 3 <= UInt64(Int32.max) else { throw CodecError("field number too large", offset: start) }
        let number = Int(key >> 3)
        switch key & 7 {
        case 0:
            return Field(number: number, value: .varint(try varint()), readsDataValues: readsDataValues, offset: start, depth: depth)
        case 1:
            guard input.count - position >= 8 else { throw CodecError("fixed64 runs past the end", offset: start) }
            let raw = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            position += 8
            return Field(number: number, value: .fixed64(raw), readsDataValues: readsDataValues, offset: start, depth: depth)
        case 2:
            let length = try varint()
            guard length <= UInt64(input.count - position) else { throw CodecError("length \(length) runs past the end", offset: start) }
            let slice = UnsafeRawBufferPointer(rebasing: input[position..<(position + Int(length))])
            position += Int(length)
            return Field(number: number, value: .bytes(slice), readsDataValues: readsDataValues, offset: start, depth: depth)
        default:
            throw CodecError("unknown wire type \(key & 7)", offset: start)
        }
    }

    /// The next varint. Most (field keys, small numbers, lengths below 128) are one byte,
    /// read here; the rest by ``longVarint()``.
    @inline(__always)
    private mutating func varint() throws(CodecError) -> UInt64 {
        if position < input.count {
            let byte = input[position]
            if byte < 0x80 {
                position += 1
                return UInt64(byte)
            }
        }
        return try longVarint()
    }

    private mutating func longVarint() throws(CodecError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        let start = offset
        while position < input.count {
            let byte = input[position]
            position += 1
            if shift == 63 && byte > 1 { throw CodecError("varint overflows 64 bits", offset: start) }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 { throw CodecError("varint longer than 10 bytes", offset: start) }
        }
        throw CodecError("varint runs past the end", offset: start)
    }

    /// Reads every field, handing each to `handle`; fields `handle` ignores are skipped.
    mutating func forEachField(_ handle: (Field) throws(CodecError) -> Void) throws(CodecError) {
        while let field = try next() { try handle(field) }
    }
}

/// A required field that was absent.
func missing(_ name: String) -> CodecError {
    CodecError("required field \(name) is missing", offset: 0)
}
