/// Lowercase hexadecimal text for byte strings: two characters per byte, `0`–`9` and `a`–`f`.
enum Hex {
    /// The lowercase hex form of `bytes`, two characters per byte.
    static func encode(_ bytes: some Collection<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { write(bytes, into: $0, at: 0) }
    }

    /// Writes the two digits of each of `bytes` into `text` from `offset` (room for them);
    /// returns where they end.
    static func write(_ bytes: some Collection<UInt8>, into text: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        var end = offset
        for byte in bytes {
            text[end] = digit(byte >> 4)
            text[end + 1] = digit(byte & 0x0F)
            end += 2
        }
        return end
    }

    /// The eight lowercase hex digits of `value`, most significant first, as the bytes of the
    /// returned word in little-endian order (store it with `littleEndian`): all eight at once,
    /// spreading the nibbles over the bytes and adding `0` or `a` to each.
    @inline(__always)
    static func digits(of value: UInt32) -> UInt64 {
        var nibbles = UInt64(value)
        nibbles = (nibbles | nibbles << 16) & 0x0000_FFFF_0000_FFFF
        nibbles = (nibbles | nibbles << 8) & 0x00FF_00FF_00FF_00FF
        nibbles = (nibbles | nibbles << 4) & 0x0F0F_0F0F_0F0F_0F0F
        // Byte k holds nibble k (the least significant first): turn it around, most significant first.
        nibbles = nibbles.byteSwapped
        let letters = ((nibbles &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        return nibbles &+ 0x3030_3030_3030_3030 &+ letters &* 0x27
    }

    /// Writes the eight digits of ``digits(of:)`` at `output`.
    @inline(__always)
    static func write(_ value: UInt32, at output: UnsafeMutableRawPointer) {
        output.storeBytes(of: digits(of: value).littleEndian, as: UInt64.self)
    }

    /// The lowercase hex digit of `nibble` (below 16).
    @inline(__always)
    static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &+ nibble &- 10
    }

    /// The bytes spelled by lowercase hex `text`, or nil when `text` has an odd length or holds
    /// any character other than `0`–`9` and `a`–`f` (uppercase is rejected: one value, one spelling).
    static func decode(_ text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 2)
        var index = 0
        while index < characters.count {
            guard let high = value(of: characters[index]), let low = value(of: characters[index + 1]) else {
                return nil
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
