import Foundation

extension UUID {
    /// The length of ``lowercasedText``.
    package static let lowercasedTextLength = 36

    /// The canonical text in lowercase (`8-4-4-4-12` hex digits), the same as
    /// `uuidString.lowercased()` without Foundation's formatting (which goes through `snprintf`;
    /// an idempotency key is made for every request sent).
    package var lowercasedText: String {
        String(unsafeUninitializedCapacity: Self.lowercasedTextLength) { writeLowercasedText(at: $0.baseAddress!) }
    }

    /// Appends ``lowercasedText`` to `output` without making the string.
    package func writeLowercasedText(to output: inout ScratchBytes) {
        output.appendWriting(atMost: Self.lowercasedTextLength) { writeLowercasedText(at: $0) }
    }

    /// Writes the text at `text` (room for 36 bytes); returns its length: `8-4-4-4-12` digits,
    /// the uuid's four big-endian words eight digits at a time, dashes between the groups.
    package func writeLowercasedText(at text: UnsafeMutablePointer<UInt8>) -> Int {
        withUnsafeBytes(of: uuid) { bytes in
            let output = UnsafeMutableRawPointer(text)
            func word(_ index: Int) -> UInt32 { UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self)) }
            func dash(at offset: Int) { output.storeBytes(of: UInt8(ascii: "-"), toByteOffset: offset, as: UInt8.self) }
            Hex.write(word(0), at: output)
            dash(at: 8)
            let second = Hex.digits(of: word(1))
            output.storeBytes(of: UInt32(truncatingIfNeeded: second).littleEndian, toByteOffset: 9, as: UInt32.self)
            dash(at: 13)
            output.storeBytes(of: UInt32(truncatingIfNeeded: second >> 32).littleEndian, toByteOffset: 14, as: UInt32.self)
            dash(at: 18)
            let third = Hex.digits(of: word(2))
            output.storeBytes(of: UInt32(truncatingIfNeeded: third).littleEndian, toByteOffset: 19, as: UInt32.self)
            dash(at: 23)
            output.storeBytes(of: UInt32(truncatingIfNeeded: third >> 32).littleEndian, toByteOffset: 24, as: UInt32.self)
            Hex.write(word(3), at: output + 28)
            return Self.lowercasedTextLength
        }
    }
}
