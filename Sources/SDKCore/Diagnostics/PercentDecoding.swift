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
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, let high = JSONReader.hexValue(bytes[index + 1]), let low = JSONReader.hexValue(bytes[index + 2]) {
                decoded.append(high << 4 | low)
                index += 3
                continue
            }
            decoded.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return String(decoding: decoded, as: UTF8.self)
    }
}
