/// LEB128 varint helpers shared by the writer's hot path and the readers.
public enum Varint {
    /// The largest number of bytes a 64-bit varint occupies.
    public static let maxLength = 10

    /// Appends `value` as an unsigned LEB128 varint (7 bits per byte, low group first, high
    /// bit = more follow).
    @inlinable
    public static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var remaining = value
        while remaining >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: remaining) | 0x80)
            remaining >>= 7
        }
        bytes.append(UInt8(remaining))
    }

    /// Maps a signed value onto an unsigned one so that small magnitudes stay small:
    /// 0, -1, 1, -2 ... become 0, 1, 2, 3 ...
    @inlinable
    public static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    /// The inverse of ``zigzag(_:)``.
    @inlinable
    public static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    /// How many bytes `value` takes as a varint.
    @inlinable
    public static func length(of value: UInt64) -> Int {
        var count = 1
        var remaining = value >> 7
        while remaining != 0 {
            count += 1
            remaining >>= 7
        }
        return count
    }

    /// Writes `value` at `pointer` and returns the number of bytes written (at most ``maxLength``).
    @inlinable
    public static func store(_ value: UInt64, at pointer: UnsafeMutableRawPointer) -> Int {
        var remaining = value
        var offset = 0
        while remaining >= 0x80 {
            pointer.storeBytes(of: UInt8(truncatingIfNeeded: remaining) | 0x80, toByteOffset: offset, as: UInt8.self)
            remaining >>= 7
            offset += 1
        }
        pointer.storeBytes(of: UInt8(remaining), toByteOffset: offset, as: UInt8.self)
        return offset + 1
    }

    /// Reads a varint from `bytes` starting at `offset`.
    ///
    /// Returns the value and the offset just past it, or nil when the bytes end first or the
    /// varint is longer than ten bytes or overflows 64 bits. Never reads outside `bytes`.
    @inlinable
    public static func load(from bytes: UnsafeRawBufferPointer, at offset: Int) -> (value: UInt64, next: Int)? {
        // Most varints a journal holds (record lengths, kinds, small deltas) are one byte.
        if offset < bytes.count, bytes[offset] < 0x80 { return (UInt64(bytes[offset]), offset + 1) }
        var result: UInt64 = 0
        var shift: UInt64 = 0
        var index = offset
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if shift == 63 && byte > 1 { return nil }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return (result, index) }
            shift += 7
            if shift > 63 { return nil }
        }
        return nil
    }
}
