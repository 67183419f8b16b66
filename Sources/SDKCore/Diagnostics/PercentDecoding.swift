/// Percent-decoding of a URL's parts, so that redaction judges what a part says rather than how
/// it is escaped (`ada%40example.com` is an address). A `%` not followed by two hex digits is
/// kept as it is; bytes that do not decode to UTF-8 are replaced (U+FFFD).
enum PercentDecoding {
    /// `part` decoded; `+` becomes a space when `plusIsSpace` (a query's form encoding).
    static func decode(_ part: Substring, plusIsSpace: Bool) -> String {
        guard part.utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(part)
        }
        let bytes = Array(part.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                decoded.append(high << 4 | low)
                index += 3
                continue
            }
            decoded.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
