import Foundation

extension UUID {
    /// The canonical text in lowercase (`8-4-4-4-12` hex digits), the same as
    /// `uuidString.lowercased()` without Foundation's formatting (which goes through `snprintf`;
    /// an idempotency key is made for every request sent).
    package var lowercasedText: String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(36)
        withUnsafeBytes(of: uuid) { bytes in
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: text, as: UTF8.self)
    }
}
