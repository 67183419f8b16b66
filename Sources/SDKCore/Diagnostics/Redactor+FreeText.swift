extension Redactor {
    // MARK: - Free text

    /// Free text (a reason, a module's or a server's error, a failure) as a redacted copy keeps
    /// it, failing closed: a word is kept only when it is one of the SDK's or the platform's own,
    /// as written (``FreeTextVocabulary``; compounds of them such as `input/output` or
    /// `project's`), a short number (at most four digits, with a unit: a status, a count, `30s`),
    /// one of the SDK's short ids (`t12`, `s3`, `#4`) or a project's fingerprint. A number that
    /// may name someone (more than four digits across its groups, a date, an IP address:
    /// ``NumericRun``) becomes one token, spaces and all; a URL keeps what ``redact(url:)``
    /// keeps. Every other word, and every quoted passage (`'…'`, which echoes an argument),
    /// becomes a `text` token; spaces and punctuation around words stay, so the shape reads.
    /// Linear in the text's length, whatever it holds.
    package func redact(text: String) -> String {
        if summarizes { return Self.isToken(text[...]) ? text : token(text, "text") }
        return Self.rewrite(text, keepingTokens: true, replacing: { token($0, "text") }, url: { redact(url: $0) })
    }

    /// Free text with every word ``redact(text:)`` would make a token, quoted passages and URLs
    /// included, made `…`: its shape, with no key needed, the same in every copy. What a column
    /// that groups rows by a reason holds (`replay export --format ndjson`'s `outcome_reason`).
    package static func shape(of text: String) -> String {
        rewrite(text, keepingTokens: false, replacing: { _ in "…" }, url: { _ in "…" })
    }

    /// `text` with each quoted passage, each number run (``NumericRun``) and each word not kept
    /// (``FreeTextWords/keeps(_:keepingTokens:)``) given to `replacing`, and each URL to `url`.
    /// A token already made is kept when `keepingTokens` (redacting a redacted text changes
    /// nothing); a shape makes it `…` like the word it hides. One pass over the bytes: where a
    /// quote closes is found by a cursor that only moves forward.
    static func rewrite(_ text: String, keepingTokens: Bool, replacing: (String) -> String, url: (String) -> String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + bytes.count / 4)
            func piece(_ range: Range<Int>) -> String {
                String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            }
            var closingQuotes = ClosingQuotes(bytes)
            var index = 0
            var atWordStart = true
            while index < bytes.count {
                let byte = bytes[index]
                if FreeTextWords.isSpace(byte) {
                    output.append(byte)
                    index += 1
                    atWordStart = true
                    continue
                }
                if atWordStart {
                    if byte == UInt8(ascii: "'"), index == 0 || FreeTextWords.isSpace(bytes[index - 1]),
                       let close = closingQuotes.close(after: index) {
                        let quoted = UnsafeBufferPointer(rebasing: bytes[(index + 1)..<close])
                        output.append(byte)
                        if keepingTokens && FreeTextWords.isToken(quoted) { output.append(contentsOf: quoted) }
                        else { output.append(contentsOf: replacing(piece((index + 1)..<close)).utf8) }
                        output.append(byte)
                        index = close + 1
                        continue
                    }
                    if let end = NumericRun.end(in: bytes, from: index) {
                        output.append(contentsOf: replacing(piece(index..<end)).utf8)
                        index = end
                        continue
                    }
                    if isOpeningPunctuation(byte) {
                        output.append(byte)
                        index += 1
                        continue
                    }
                }
                var end = index
                while end < bytes.count, !FreeTextWords.isSpace(bytes[end]) { end += 1 }
                rewrite(word: index..<end, of: bytes, keepingTokens: keepingTokens, replacing: replacing, url: url, into: &output)
                index = end
                atWordStart = true
            }
            return String(decoding: output, as: UTF8.self)
        }
    }

    /// Punctuation that opens a word (`(`, `"`, `[`): the word or number after it is judged on
    /// its own.
    private static func isOpeningPunctuation(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "(") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "\"")
            || byte == UInt8(ascii: "<") || byte == UInt8(ascii: "'")
    }

    /// Punctuation that closes a word, kept around the word's redaction.
    private static func isClosingPunctuation(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "\""), UInt8(ascii: ","), UInt8(ascii: "."),
             UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "!"), UInt8(ascii: "?"), UInt8(ascii: ">"), UInt8(ascii: "'"):
            true
        default:
            false
        }
    }

    /// One word of free text: its leading and trailing punctuation kept, its core kept or made a
    /// token (``redact(text:)``).
    private static func rewrite(word: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>, keepingTokens: Bool,
                                replacing: (String) -> String, url: (String) -> String, into output: inout [UInt8]) {
        var coreStart = word.lowerBound
        while coreStart < word.upperBound, isOpeningPunctuation(bytes[coreStart]) { coreStart += 1 }
        var coreEnd = word.upperBound
        while coreEnd > coreStart, isClosingPunctuation(bytes[coreEnd - 1]) { coreEnd -= 1 }
        let core = UnsafeBufferPointer(rebasing: bytes[coreStart..<coreEnd])
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[word.lowerBound..<coreStart]))
        if !core.isEmpty {
            if containsSchemeSeparator(core) {
                output.append(contentsOf: url(String(decoding: core, as: UTF8.self)).utf8)
            } else if FreeTextWords.keeps(core, keepingTokens: keepingTokens) {
                output.append(contentsOf: core)
            } else {
                output.append(contentsOf: replacing(String(decoding: core, as: UTF8.self)).utf8)
            }
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[coreEnd..<word.upperBound]))
    }

    /// Whether `word` holds `://` (a URL, or words run together with one).
    private static func containsSchemeSeparator(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
        guard word.count >= 3 else { return false }
        for index in 0..<(word.count - 2)
        where word[index] == UInt8(ascii: ":") && word[index + 1] == UInt8(ascii: "/") && word[index + 2] == UInt8(ascii: "/") {
            return true
        }
        return false
    }

    /// A token a redaction already made (`text:…`).
    static func isToken(_ word: Substring) -> Bool {
        var word = String(word)
        return word.withUTF8 { FreeTextWords.isToken($0) }
    }
}
