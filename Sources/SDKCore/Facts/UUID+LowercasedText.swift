import Foundation

extension UUID {
    /// The length of ``lowercasedText``.
    package static let lowercasedTextLength = 36

    /// The canonical text in lowercase (`8-4-4-4-12` hex digits), the same as
    /// `uuidString.lowercased()` without Foundation's formatting (which goes through `snprintf`;
    /// an idempotency key is made for every request sent).
    package var lowercasedText: String {
        String(unsafeUninitializedCapacity: Self.lowercasedTextLength) { writeLowercasedText(into: $0) }
    }

    /// Appends ``lowercasedText`` to `output` without making the string.
    package func writeLowercasedText(to output: inout ScratchBytes) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.lowercasedTextLength) { text in
            let count = writeLowercasedText(into: text)
            output.append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(text)[..<count]))
        }
    }

    /// Writes the text into `text` (at least 36 bytes); returns its length.
    private func writeLowercasedText(into text: UnsafeMutableBufferPointer<UInt8>) -> Int {
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
