/// Reads the primitive encodings written by ``ByteWriter`` from a byte array, with bounds checks.
///
/// Every read either returns a value or throws ``ByteReader/Failure``; it never traps on short
/// or hostile input, and never allocates more than the bytes actually present.
public struct ByteReader: Sendable {
    /// Why a read failed, and at which offset of the input.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Reason: Sendable, Equatable {
            case endOfInput(needed: Int)
            case malformedVarint
            case lengthTooLarge(UInt64, limit: Int)
            case invalidUTF8
        }

        public var reason: Reason
        public var offset: Int

        public var description: String {
            switch reason {
            case .endOfInput(let needed): "input ends at offset \(offset) (\(needed) more bytes needed)"
            case .malformedVarint: "malformed varint at offset \(offset)"
            case .lengthTooLarge(let length, let limit): "length \(length) at offset \(offset) exceeds the limit \(limit)"
            case .invalidUTF8: "invalid UTF-8 string at offset \(offset)"
            }
        }
    }

    public let bytes: [UInt8]
    /// The offset of the next byte to read.
    public private(set) var offset: Int

    public init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// The number of bytes not read yet.
    public var remaining: Int { bytes.count - offset }
    public var isAtEnd: Bool { offset >= bytes.count }

    private func require(_ count: Int) throws(Failure) {
        if count > remaining {
            throw Failure(reason: .endOfInput(needed: count - remaining), offset: offset)
        }
    }

    public mutating func readByte() throws(Failure) -> UInt8 {
        try require(1)
        defer { offset += 1 }
        return bytes[offset]
    }

    public mutating func readUInt16() throws(Failure) -> UInt16 {
        try require(2)
        defer { offset += 2 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    public mutating func readUInt32() throws(Failure) -> UInt32 {
        try readLittleEndian(UInt32.self)
    }

    public mutating func readUInt64() throws(Failure) -> UInt64 {
        try readLittleEndian(UInt64.self)
    }

    private mutating func readLittleEndian<Value: FixedWidthInteger & UnsignedInteger>(_: Value.Type) throws(Failure) -> Value {
        let size = MemoryLayout<Value>.size
        try require(size)
        var value: Value = 0
        for index in 0..<size { value |= Value(bytes[offset + index]) << Value(8 * index) }
        offset += size
        return value
    }

    public mutating func readInt64() throws(Failure) -> Int64 {
        Int64(bitPattern: try readUInt64())
    }

    public mutating func readVarint() throws(Failure) -> UInt64 {
        let decoded = bytes.withUnsafeBytes { Varint.load(from: $0, at: offset) }
        guard let decoded else {
            if remaining < Varint.maxLength, !bytes[offset...].contains(where: { $0 & 0x80 == 0 }) {
                throw Failure(reason: .endOfInput(needed: 1), offset: bytes.count)
            }
            throw Failure(reason: .malformedVarint, offset: offset)
        }
        offset = decoded.next
        return decoded.value
    }

    public mutating func readSignedVarint() throws(Failure) -> Int64 {
        Varint.unzigzag(try readVarint())
    }

    /// Reads exactly `count` bytes.
    public mutating func readBytes(_ count: Int) throws(Failure) -> ArraySlice<UInt8> {
        try require(count)
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    /// Reads a varint length (at most `limit`) and that many bytes.
    public mutating func readLengthPrefixed(limit: Int = .max) throws(Failure) -> ArraySlice<UInt8> {
        let start = offset
        let length = try readVarint()
        guard length <= UInt64(min(limit, Int.max)) else {
            throw Failure(reason: .lengthTooLarge(length, limit: limit), offset: start)
        }
        return try readBytes(Int(length))
    }

    /// Reads a length-prefixed UTF-8 string of at most `limit` bytes.
    public mutating func readString(limit: Int = .max) throws(Failure) -> String {
        let start = offset
        let raw = try readLengthPrefixed(limit: limit)
        guard let string = UTF8Validation.string(raw) else {
            throw Failure(reason: .invalidUTF8, offset: start)
        }
        return string
    }

    /// Skips `count` bytes.
    public mutating func skip(_ count: Int) throws(Failure) {
        try require(count)
        offset += count
    }
}
