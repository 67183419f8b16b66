/// What free-text redaction keeps of one word (``Redactor/redact(text:)``), judged on its UTF-8
/// bytes: the SDK's and the platform's own words in the case they are written in
/// (``FreeTextVocabulary``), short numbers (``isShortNumber(_:)``), the SDK's ids (`t12`, `s3`),
/// project fingerprints and tokens a redaction already made. Everything else (names, addresses,
/// long numbers, words mixing letters and digits) is not kept. Every function here reads its
/// word once: redacting a text is linear in its length.
enum FreeTextWords {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    /// Whether `word` (no spaces, its surrounding punctuation taken off) is kept as it is; a
    /// token already made only when `keepingTokens`.
    static func keeps(_ word: Bytes, keepingTokens: Bool) -> Bool {
        if isShortNumber(word) || isSDKID(word) || isFingerprint(word) { return true }
        if isToken(word) { return keepingTokens }
        if isVocabulary(word) { return true }
        // A compound of kept words and numbers (`in-app`, `input/output`, `Code=-1001`,
        // `items[0].name`, `HTTP/1.1`), each part judged on its own; its numbers together are
        // short ones (at most two, four digits in all: not an address split by dots).
        var sawPart = false
        var numbers = 0, digits = 0
        var start = 0
        for index in 0...word.count {
            guard index == word.count || isCompoundSeparator(word[index]) else { continue }
            if index > start {
                let part = Bytes(rebasing: word[start..<index])
                if isShortNumber(part) {
                    numbers += 1
                    digits += part.reduce(0) { $0 + (isDigit($1) ? 1 : 0) }
                } else if !isVocabulary(part) {
                    return false
                }
                sawPart = true
            }
            start = index + 1
        }
        return sawPart && numbers <= 2 && digits <= 4
    }

    private static func isCompoundSeparator(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "/"), UInt8(ascii: "_"), UInt8(ascii: "="), UInt8(ascii: "."), UInt8(ascii: "["),
             UInt8(ascii: "]"):
            true
        default:
            false
        }
    }

    /// A word of the vocabulary as written (``FreeTextVocabulary/words``), with a possessive
    /// `'s` or a plural `(s)` after it. A word with a capital inside and lowercase letters too
    /// (`willSwitchProject`, `URLError`, `BadParams`) is one of the SDK's or a server's
    /// identifiers when its lowercase is on the list; a word capitalized only at its start
    /// (`Will`, `May`, `Price`) is kept only when that spelling is on the list itself, which
    /// holds no name.
    static func isVocabulary(_ word: Bytes) -> Bool {
        var end = word.count
        if end > 2, word[end - 2] == UInt8(ascii: "'"), word[end - 1] == UInt8(ascii: "s") {
            end -= 2
        } else if end > 3, word[end - 3] == UInt8(ascii: "("), word[end - 2] == UInt8(ascii: "s"), word[end - 1] == UInt8(ascii: ")") {
            end -= 3
        } else if end > 2, word[end - 2] == UInt8(ascii: "("), word[end - 1] == UInt8(ascii: "s") {
            end -= 2
        }
        guard end > 0 else { return false }
        let core = Bytes(rebasing: word[0..<end])
        let text = String(decoding: core, as: UTF8.self)
        if FreeTextVocabulary.words.contains(text) { return true }
        var capitalInside = false, lowercase = false
        for index in 0..<core.count {
            if isUppercase(core[index]) { capitalInside = capitalInside || index > 0 }
            if isLowercase(core[index]) { lowercase = true }
        }
        return capitalInside && lowercase && FreeTextVocabulary.words.contains(text.lowercased())
    }

    /// `503`, `#4`, `-1001`, `2.5`, `1.4.2`, `30s`, `64KiB`, `5xx`, `100%`, `12:30:45`,
    /// `3,145,728`: at most four digits in all (or a time of day, or thousands grouped by
    /// commas), with a unit from ``units``. Not a date (`1.5.90`) and never more than three
    /// groups (an IP address, `10.0.0.1`, is not a short number).
    static func isShortNumber(_ word: Bytes) -> Bool {
        var index = 0
        if index < word.count, word[index] == UInt8(ascii: "#") || word[index] == UInt8(ascii: "-") || word[index] == UInt8(ascii: "+") {
            index += 1
        }
        var lengths: [Int] = []
        var separator: UInt8?
        while index < word.count, isDigit(word[index]) {
            let start = index
            while index < word.count, isDigit(word[index]) { index += 1 }
            lengths.append(index - start)
            guard lengths.count <= 3 else { return false }
            guard index + 1 < word.count else { break }
            let next = word[index]
            guard next == UInt8(ascii: ".") || next == UInt8(ascii: ",") || next == UInt8(ascii: ":"), isDigit(word[index + 1]),
                  separator == nil || separator == next else { break }
            separator = next
            index += 1
        }
        guard !lengths.isEmpty, isUnit(Bytes(rebasing: word[index...])) else { return false }
        let digits = lengths.reduce(0, +)
        switch separator {
        case UInt8(ascii: ",")?:
            // Thousands: 16,384 or 3,145,728.
            return (1...3).contains(lengths[0]) && lengths.dropFirst().allSatisfy { $0 == 3 }
        case UInt8(ascii: ":")?:
            // A time of day or a duration: 12:30 or 1:05:30.
            return lengths.allSatisfy { $0 <= 2 }
        default:
            return digits <= 4 && !(separator == UInt8(ascii: ".") && NumericRun.isDottedDate(lengths))
        }
    }

    /// What may follow a short number: a unit of time, size or rate, an ordinal, `%`, the
    /// `xx` of `5xx`. Not a lone capital (`221B` is a house number).
    private static func isUnit(_ unit: Bytes) -> Bool {
        unit.isEmpty || units.contains(String(decoding: unit, as: UTF8.self))
    }

    static let units: Set<String> = [
        "s", "ms", "us", "ns", "m", "min", "h", "d", "x", "xx", "%", "b", "k", "kb", "KB", "kB", "KiB", "kib",
        "mb", "MB", "MiB", "mib", "gb", "GB", "GiB", "gib", "st", "nd", "rd", "th",
    ]

    /// The SDK's short ids: a task's `t12`, a switch's `s3` (at most nine digits).
    static func isSDKID(_ word: Bytes) -> Bool {
        guard word.count >= 2, word.count <= 10, word[0] == UInt8(ascii: "t") || word[0] == UInt8(ascii: "s") else { return false }
        return Bytes(rebasing: word[1...]).allSatisfy(isDigit)
    }

    /// A project's fingerprint: 16 lowercase hex digits (an identifier support needs).
    static func isFingerprint(_ word: Bytes) -> Bool {
        word.count == 16 && word.allSatisfy(isLowercaseHex)
    }

    /// The kinds of token a redaction makes (``Redactor``).
    static let tokenKinds: Set<String> = ["email", "user", "token", "data", "body", "text"]

    /// A token a redaction already made (`text:0123456789ab`): redacting a redacted copy again
    /// changes nothing.
    static func isToken(_ word: Bytes) -> Bool {
        let hexCount = 2 * KeyedHash.tokenByteCount
        guard word.count > hexCount + 1, word.count <= hexCount + 6, word[word.count - hexCount - 1] == UInt8(ascii: ":") else {
            return false
        }
        let kind = String(decoding: Bytes(rebasing: word[..<(word.count - hexCount - 1)]), as: UTF8.self)
        return tokenKinds.contains(kind) && Bytes(rebasing: word[(word.count - hexCount)...]).allSatisfy(isLowercaseHex)
    }

    static func isToken(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isToken($0) }
    }

    // MARK: - Bytes

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    static func isUppercase(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
    static func isLowercase(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") }
    static func isLetter(_ byte: UInt8) -> Bool { isUppercase(byte) || isLowercase(byte) }
    static func isLowercaseHex(_ byte: UInt8) -> Bool { isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f")) }

    /// ASCII white space: what separates the words of free text. Other spaces (a no-break
    /// space) are part of a word, which then is no word of the vocabulary: a token.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || (byte >= 0x09 && byte <= 0x0D)
    }
}
