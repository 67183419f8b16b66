/// Text from bytes that must be UTF-8: what the standard library's `String(validating:as:)` does,
/// which Apple platforms have only from iOS 18 and macOS 15, for the package's lower floor
/// (docs/PLATFORMS.md, "The floor").
///
/// Well-formed means The Unicode Standard's table 3-7 ("Well-Formed UTF-8 Byte Sequences"): no
/// overlong form, no surrogate (U+D800 to U+DFFF), nothing above U+10FFFF, no sequence cut short
/// or broken by a byte that does not continue it. The answer is the standard library's on every
/// input (`UTF8ValidationTests` and `fuzz-journal` hold it to `String(validating:as:)` on Linux).
/// Pure: no allocation but the string made.
package enum UTF8Validation {
    /// `bytes` as a string when they are well-formed UTF-8, nil otherwise.
    @inlinable
    package static func string(_ bytes: some Collection<UInt8>) -> String? {
        if let text = bytes.withContiguousStorageIfAvailable({ string($0) }) { return text }
        return Array(bytes).withUnsafeBufferPointer { string($0) }
    }

    /// `bytes` as a string when they are well-formed UTF-8, nil otherwise.
    package static func string(_ bytes: UnsafeRawBufferPointer) -> String? {
        string(bytes.assumingMemoryBound(to: UInt8.self))
    }

    /// `bytes` as a string when they are well-formed UTF-8, nil otherwise.
    package static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        // Well-formed input is taken as it is: decoding repairs nothing in it.
        isWellFormed(bytes) ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// Whether `bytes` are well-formed UTF-8. Reads nothing outside `bytes`.
    package static func isWellFormed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        while index < count {
            // ASCII, most of the text read, eight bytes at a time.
            while count - index >= 8,
                  UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index += 8
            }
            guard index < count else { return true }
            let lead = base[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            // The sequence's length and the range its second byte must fall in (table 3-7);
            // every later byte is 0x80...0xBF.
            let length: Int
            var second: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; second = 0xA0...0xBF  // below: overlong
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; second = 0x80...0x9F  // above: surrogates
            case 0xF0: length = 4; second = 0x90...0xBF  // below: overlong
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; second = 0x80...0x8F  // above: past U+10FFFF
            default: return false  // a continuation byte, an overlong lead (C0, C1), or F5...FF
            }
            guard count - index >= length, second.contains(base[index + 1]) else { return false }
            for offset in 2..<length where base[index + offset] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }
}
