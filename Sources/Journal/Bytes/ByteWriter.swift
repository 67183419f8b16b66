/// Appends the primitive encodings the journal format uses: little-endian fixed-width integers,
/// LEB128 varints and zigzag-encoded signed varints.
///
/// Codecs layered above the journal reuse it so that every byte on disk follows one convention.
/// It never fails: it only grows its buffer.
public struct ByteWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]

    /// Creates an empty writer, optionally reserving room for `capacity` bytes.
    public init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The number of bytes written so far.
    public var count: Int { bytes.count }

    public mutating func writeByte(_ value: UInt8) {
        bytes.append(value)
    }

    public mutating func writeBytes(_ value: some Sequence<UInt8>) {
        bytes.append(contentsOf: value)
    }

    public mutating func writeUInt16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    public mutating func writeUInt32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
        }
    }

    public mutating func writeUInt64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    public mutating func writeInt64(_ value: Int64) {
        writeUInt64(UInt64(bitPattern: value))
    }

    /// Writes an unsigned LEB128 varint (7 bits per byte, low group first, high bit = more).
    public mutating func writeVarint(_ value: UInt64) {
        Varint.append(value, to: &bytes)
    }

    /// Writes a signed value as a zigzag varint, so small magnitudes of either sign stay short.
    public mutating func writeSignedVarint(_ value: Int64) {
        writeVarint(Varint.zigzag(value))
    }

    /// Writes a varint length followed by the bytes.
    public mutating func writeLengthPrefixed(_ value: some Collection<UInt8>) {
        writeVarint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// Writes a varint length followed by the UTF-8 bytes of `value`.
    public mutating func writeString(_ value: String) {
        writeLengthPrefixed(Array(value.utf8))
    }
}
