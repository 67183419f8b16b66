/// A number in free text that may name a person, which redaction makes one token whatever the
/// spaces inside it (``Redactor/redact(text:)``): a run of words made of digits and the
/// separators ``separators`` (`+1 415 555 0199`, `(415) 555-0199`, `4111 1111 1111 1111`,
/// `555-867-5309`) holding more than four digits in all; a date (`1990-05-17`, `5/17/90`,
/// `17.05.1990`, `17 May 1990`, `May 17, 1990`); an IPv4 address (`10.0.0.1`).
///
/// A run holds at most one month name and only words with a digit, so a run that is not one of
/// these stops within five words: looking for runs from each word keeps redaction linear.
enum NumericRun {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    /// What a numeric word may hold besides digits.
    static let separators: Set<UInt8> = Set(" -./()+".utf8)

    /// Where the run that starts at `start` (the first byte of a word) ends, when it is one that
    /// redaction makes a token; nil when none starts there. The end leaves out punctuation and
    /// separators that close the run (`0199.`, `0199)` without its `(`).
    static func end(in text: Bytes, from start: Int) -> Int? {
        var position = start
        var digits = 0
        var words = 0
        var hasMonth = false
        var end = start
        var opened = 0, closed = 0
        var onlyWord: Bytes?
        while position < text.count, mayStartWord(text[position]) {
            var wordEnd = position
            while wordEnd < text.count, !FreeTextWords.isSpace(text[wordEnd]) { wordEnd += 1 }
            // Punctuation that ends a sentence's clause ends the run after this word.
            var coreEnd = wordEnd
            while coreEnd > position, isClosingPunctuation(text[coreEnd - 1]) { coreEnd -= 1 }
            guard coreEnd > position else { break }
            let core = Bytes(rebasing: text[position..<coreEnd])
            let coreDigits = core.reduce(0) { $0 + (FreeTextWords.isDigit($1) ? 1 : 0) }
            if isMonth(core) {
                guard !hasMonth else { break }
                hasMonth = true
            } else if coreDigits > 0, core.allSatisfy({ FreeTextWords.isDigit($0) || separators.contains($0) }) {
                digits += coreDigits
                for byte in core {
                    if byte == UInt8(ascii: "(") { opened += 1 } else if byte == UInt8(ascii: ")") { closed += 1 }
                }
            } else {
                break
            }
            words += 1
            onlyWord = words == 1 ? core : nil
            end = coreEnd
            // A comma goes on only within a date that names its month (`May 17, 1990`).
            let punctuation = Bytes(rebasing: text[coreEnd..<wordEnd])
            let goesOn = punctuation.isEmpty || (hasMonth && punctuation.count == 1 && punctuation[0] == UInt8(ascii: ","))
            guard goesOn else { break }
            // Spaces (not line breaks) join a number's groups.
            position = wordEnd
            while position < text.count, text[position] == UInt8(ascii: " ") { position += 1 }
            guard position > wordEnd, position < text.count else { break }
        }
        guard words > 0 else { return nil }
        // Separators that end the run are not part of it; a `)` only with its `(`.
        while end > start {
            let last = text[end - 1]
            if last == UInt8(ascii: ")") {
                guard closed > opened else { break }
                closed -= 1
            } else if !separators.contains(last) {
                break
            }
            end -= 1
        }
        let tokenized = digits > 4 || (hasMonth && digits > 0) || onlyWord.map(isDateOrAddress) == true
        if !tokenized, words == 1, !hasMonth, let street = streetEnd(in: text, after: end) { return street }
        return tokenized && end > start ? end : nil
    }

    /// Where a street's name ends when the words after a house number (ending at `number`) name
    /// one (`742 Evergreen Terrace`, `12 Rue de la Paix`): up to four capitalized words or
    /// particles, one of them a kind of street (``streetKinds``). Nil when they do not.
    private static func streetEnd(in text: Bytes, after number: Int) -> Int? {
        var position = number
        var end: Int?
        for _ in 0..<4 {
            guard position < text.count, text[position] == UInt8(ascii: " ") else { break }
            position += 1
            var wordEnd = position
            while wordEnd < text.count, !FreeTextWords.isSpace(text[wordEnd]) { wordEnd += 1 }
            var coreEnd = wordEnd
            while coreEnd > position, isClosingPunctuation(text[coreEnd - 1]) || text[coreEnd - 1] == UInt8(ascii: ".") { coreEnd -= 1 }
            guard coreEnd > position else { break }
            let word = String(decoding: Bytes(rebasing: text[position..<coreEnd]), as: UTF8.self)
            let capitalized = FreeTextWords.isUppercase(text[position])
            guard capitalized || streetParticles.contains(word) else { break }
            if streetKinds.contains(word) { end = coreEnd }
            position = wordEnd
            guard coreEnd == wordEnd else { break }
        }
        return end
    }

    /// The kinds of street an address names, as written.
    private static let streetKinds: Set<String> = [
        "Street", "St", "Avenue", "Ave", "Road", "Rd", "Boulevard", "Blvd", "Lane", "Ln", "Drive", "Dr", "Terrace", "Parkway",
        "Pkwy", "Way", "Court", "Ct", "Place", "Pl", "Square", "Sq", "Highway", "Hwy", "Close", "Crescent", "Row", "Rue",
        "Strasse", "Straße", "Weg", "Platz", "Allee", "Via", "Calle", "Avenida",
    ]

    /// Lowercase words inside a street's name (`Rue de la Paix`).
    private static let streetParticles: Set<String> = ["de", "la", "du", "des", "del", "van", "der", "von", "of", "the"]

    /// Whether a word of a run may start with `byte`: a digit, a separator that opens a number
    /// (`+`, `(`), or a month's capital.
    private static func mayStartWord(_ byte: UInt8) -> Bool {
        FreeTextWords.isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "(") || FreeTextWords.isUppercase(byte)
    }

    /// Punctuation after a word that ends a run there.
    private static func isClosingPunctuation(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "!")
            || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "]")
    }

    /// A word of at most four digits that is a date (`5/17/90`, `1-2-24`, `1.5.90`) or an IPv4
    /// address (`10.0.0.1`).
    private static func isDateOrAddress(_ word: Bytes) -> Bool {
        var lengths: [Int] = []
        var separatorsBetween: [UInt8] = []
        var index = 0
        while index < word.count, !FreeTextWords.isDigit(word[index]) { index += 1 }
        while index < word.count {
            let start = index
            while index < word.count, FreeTextWords.isDigit(word[index]) { index += 1 }
            lengths.append(index - start)
            guard index < word.count else { break }
            let separatorStart = index
            while index < word.count, !FreeTextWords.isDigit(word[index]) { index += 1 }
            guard index < word.count else { break }
            // Two bytes between groups (`) `) are no date's separator.
            separatorsBetween.append(index - separatorStart == 1 ? word[separatorStart] : 0)
        }
        guard let first = separatorsBetween.first, separatorsBetween.allSatisfy({ $0 == first }) else { return false }
        switch first {
        case UInt8(ascii: "-"), UInt8(ascii: "/"):
            return lengths.count == 3
        case UInt8(ascii: "."):
            return isDottedDate(lengths) || (lengths.count == 4 && lengths.allSatisfy { $0 <= 3 })
        default:
            return false
        }
    }

    /// Digit groups a date with dots has: day, month and year (`17.5.90`), or year first.
    static func isDottedDate(_ lengths: [Int]) -> Bool {
        guard lengths.count == 3 else { return false }
        return (lengths[0] <= 2 && lengths[1] <= 2 && (lengths[2] == 2 || lengths[2] == 4))
            || (lengths[0] == 4 && lengths[1] <= 2 && lengths[2] <= 2)
    }

    /// A month's name as dates spell it, in full or cut to three letters (`Sept` too), with or
    /// without a period after it.
    static func isMonth(_ word: Bytes) -> Bool {
        var count = word.count
        if count > 3, word[count - 1] == UInt8(ascii: ".") { count -= 1 }
        guard count >= 3, count <= 9 else { return false }
        return months.contains(String(decoding: Bytes(rebasing: word[..<count]), as: UTF8.self))
    }

    private static let months: Set<String> = {
        let names = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
                     "December"]
        return Set(names + names.map { String($0.prefix(3)) } + ["Sept"])
    }()
}
