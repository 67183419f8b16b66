/// Reads a fuzz input front to back: single bytes, LEB128 varints and byte runs. Every read is
/// bounded by what is left; reading past the end yields nil (or fewer bytes), never traps.
struct FuzzInput {
    private let bytes: [UInt8]
    private(set) var position = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { position >= bytes.count }

    mutating func byte() -> UInt8? {
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    /// An unsigned LEB128 varint of at most ten bytes (extra high bits are dropped).
    mutating func varint() -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while let byte = byte() {
            if shift < 64 { value |= UInt64(byte & 0x7F) << shift }
            if byte & 0x80 == 0 { return value }
            shift += 7
            if shift >= 70 { return value }
        }
        return nil
    }

    /// Up to `count` bytes: fewer when the input ends first.
    mutating func bytes(upTo count: Int) -> [UInt8] {
        let end = position + min(count, bytes.count - position)
        defer { position = end }
        return Array(bytes[position..<end])
    }

    /// Everything not read yet.
    mutating func rest() -> [UInt8] {
        bytes(upTo: bytes.count - position)
    }

    /// Appends `value` as an unsigned LEB128 varint: the inverse of ``varint()``, for writing seeds.
    static func appendVarint(_ value: UInt64, to output: inout [UInt8]) {
        var remaining = value
        while remaining >= 0x80 {
            output.append(UInt8(truncatingIfNeeded: remaining) | 0x80)
            remaining >>= 7
        }
        output.append(UInt8(remaining))
    }
}
