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
        output.appendWriting(atMost: Self.lowercasedTextLength) { writeLowercasedText(at: $0) }
    }

    /// Writes the text into `text` (at least 36 bytes); returns its length.
    private func writeLowercasedText(into text: UnsafeMutableBufferPointer<UInt8>) -> Int {
        writeLowercasedText(at: text.baseAddress!)
    }

    /// Writes the text at `text` (room for 36 bytes); returns its length.
    private func writeLowercasedText(at text: UnsafeMutablePointer<UInt8>) -> Int {
        withUnsafeBytes(of: uuid) { bytes in
            var end = text
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    end.pointee = UInt8(ascii: "-")
                    end += 1
                }
                end[0] = Hex.digit(bytes[index] >> 4)
                end[1] = Hex.digit(bytes[index] & 0x0F)
                end += 2
            }
            return end - text
        }
    }
}
