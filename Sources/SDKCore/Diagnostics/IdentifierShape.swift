/// The shapes of text a redacted copy keeps because they name a thing, not a person: a key of
/// data fields or of a URL's query (``isIdentifier(_:)``) and a path segment of a URL
/// (``isStructuralSegment(_:)``). Neither holds more than four digits in a row (a phone number
/// or an account id used as a key or a segment).
enum IdentifierShape {
    /// The most bytes a kept key has.
    static let maximumKeyBytes = 64
    /// The most bytes a kept path segment has.
    static let maximumSegmentBytes = 32

    /// A key such as `plan`, `order_id`, `user.tier`, `utm-source`, `address_line2`,
    /// `mergeNestedObjects`: ASCII letters, digits, `_`, `.` and `-`, starting with a letter, at
    /// most ``maximumKeyBytes`` bytes, no digit run longer than four. Shaped like words, not
    /// like a random token (`sk_live_4eC39HqLyj…`, `AKIAIOSFODNN7…`): letters and digits
    /// alternate, and a lowercase letter turns to a capital, at most four times in all, and no
    /// run of capitals is longer than six.
    static func isIdentifier(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, FreeTextWords.isLetter(first), bytes.count <= maximumKeyBytes else { return false }
        var digitRun = 0, capitalRun = 0
        var changes = 0
        var previous: UInt8 = 0
        for byte in bytes {
            if FreeTextWords.isDigit(byte) {
                digitRun += 1
                guard digitRun <= 4 else { return false }
                if FreeTextWords.isLetter(previous) { changes += 1 }
            } else {
                digitRun = 0
                guard FreeTextWords.isLetter(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
                else { return false }
                if FreeTextWords.isDigit(previous) && FreeTextWords.isLetter(byte) { changes += 1 }
                if FreeTextWords.isLowercase(previous) && FreeTextWords.isUppercase(byte) { changes += 1 }
            }
            capitalRun = FreeTextWords.isUppercase(byte) ? capitalRun + 1 : 0
            guard capitalRun <= 6 else { return false }
            previous = byte
        }
        return changes <= 4
    }

    static func isIdentifier(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isIdentifier($0) }
    }

    /// A path segment such as `users`, `v2`, `unsub`, `offer-2024`: lowercase ASCII letters,
    /// digits, `-` and `_`, at most ``maximumSegmentBytes`` bytes, at most four digits in all
    /// (not a phone number, an account id or a date such as `1990-05-17`), and letters and digits
    /// alternating at most twice (a random id such as `k3j4h5g6` does more).
    static func isStructuralSegment(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty, bytes.count <= maximumSegmentBytes else { return false }
        var digits = 0
        var alternations = 0
        var lastWasDigit: Bool?
        for byte in bytes {
            let digit = FreeTextWords.isDigit(byte)
            guard digit || FreeTextWords.isLowercase(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") else { return false }
            if digit { digits += 1 }
            guard digits <= 4 else { return false }
            guard digit || FreeTextWords.isLowercase(byte) else { continue }
            if let last = lastWasDigit, last != digit { alternations += 1 }
            lastWasDigit = digit
        }
        return alternations <= 2
    }
}
