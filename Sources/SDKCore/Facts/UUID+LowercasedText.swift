import Foundation

extension UUID {
    /// The canonical text in lowercase (`8-4-4-4-12` hex digits), the same as
    /// `uuidString.lowercased()` without Foundation's formatting (which goes through `snprintf`;
    /// an idempotency key is made for every request sent).
    package var lowercasedText: String {
        String(unsafeUninitializedCapacity: 36) { text in
            var count = 0
            withUnsafeBytes(of: uuid) { bytes in
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[count] = UInt8(ascii: "-")
                        count += 1
                    }
                    text[count] = Hex.digit(bytes[index] >> 4)
                    text[count + 1] = Hex.digit(bytes[index] & 0x0F)
                    count += 2
                }
            }
            return count
        }
    }
}
