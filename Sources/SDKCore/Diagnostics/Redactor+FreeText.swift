extension Redactor {
    // MARK: - Free text

    /// Free text (a reason, a module's or a server's error, a failure) as a redacted copy keeps
    /// it, failing closed: a word is kept only when it is one of the SDK's or the platform's own
    /// (``FreeTextVocabulary``, compounds of them such as `input/output` or `project's`), a short
    /// number (at most four digits, with a unit of up to three letters: a status, a count, `30s`)
    /// or one of the SDK's short ids (`t12`, `s3`, `#4`). A URL keeps what ``redact(url:)``
    /// keeps. Every other word, and every quoted passage (`'…'`, which echoes an argument),
    /// becomes a `text` token; spaces and punctuation around words stay, so the shape reads.
    package func redact(text: String) -> String {
        Self.rewrite(text, keepingTokens: true, replacing: { token($0, "text") }, url: { redact(url: $0) })
    }

    /// Free text with every word ``redact(text:)`` would make a token, quoted passages and URLs
    /// included, made `…`: its shape, with no key needed, the same in every copy. What a column
    /// that groups rows by a reason holds (`replay export --format ndjson`'s `outcome_reason`).
    package static func shape(of text: String) -> String {
        rewrite(text, keepingTokens: false, replacing: { _ in "…" }, url: { _ in "…" })
    }

    /// `text` with each quoted passage and each word not kept (``keeps(_:keepingTokens:)``) given
    /// to `replacing`, and each URL to `url`. A token already made is kept when `keepingTokens`
    /// (redacting a redacted text changes nothing); a shape makes it `…` like the word it hides.
    private static func rewrite(_ text: String, keepingTokens: Bool, replacing: (String) -> String,
                                url: (String) -> String) -> String {
        var output = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character.isWhitespace {
                output.append(character)
                index = text.index(after: index)
                continue
            }
            if character == "'", let close = closingQuote(in: text, after: index) {
                let quoted = text[text.index(after: index)..<close]
                output += "'" + (keepingTokens && isToken(quoted) ? String(quoted) : replacing(String(quoted))) + "'"
                index = text.index(after: close)
                continue
            }
            var end = index
            while end < text.endIndex && !text[end].isWhitespace { end = text.index(after: end) }
            output += rewrite(word: text[index..<end], keepingTokens: keepingTokens, replacing: replacing, url: url)
            index = end
        }
        return output
    }

    /// A URL as a redacted copy keeps it: scheme, host and port, and path; the user info, each
    /// query value (its key kept), the fragment and any path segment with an `@` become tokens.
    /// A URL of another scheme than the web's (``keptSchemes``) is one token; text that is not a
    /// URL (no `scheme://`) is free text (``redact(text:)``).
    package func redact(url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else {
            // Free text; a word in it that looks like a URL but is not one is a token whole.
            return Self.rewrite(url, keepingTokens: true, replacing: { token($0, "text") }, url: { token($0, "text") })
        }
        // Only the web's schemes are kept: anything else before `://` (an app's own scheme, or
        // words run together with one) may name someone, so the whole URL is one token.
        guard Self.keptSchemes.contains(String(url[..<schemeEnd.lowerBound])) else { return token(url, "text") }
        var rest = url[schemeEnd.upperBound...]
        var fragment: Substring?
        if let hash = rest.firstIndex(of: "#") {
            fragment = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        }
        var query: Substring?
        if let question = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: question)...]
            rest = rest[..<question]
        }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = String(rest[..<authorityEnd])
        if let at = authority.lastIndex(of: "@"), !Self.isEncodedToken(authority[..<at]) {
            authority = token(String(authority[..<at]), "text").replacingColons() + authority[at...]
        }
        let path = rest[authorityEnd...].split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.contains("@") && !Self.isEncodedToken(segment)
                ? token(String(segment), "text").replacingColons() : String(segment)
        }.joined(separator: "/")
        var redacted = url[..<schemeEnd.upperBound] + authority + path
        if let query { redacted += "?" + redact(query: String(query)) }
        if let fragment {
            let kept = Self.isEncodedToken(fragment)
            redacted += "#" + (kept ? String(fragment) : token(String(fragment), "text").replacingColons())
        }
        return String(redacted)
    }

    /// The URL schemes ``redact(url:)`` keeps, with the host and path after them.
    static let keptSchemes: Set<String> = ["http", "https", "ws", "wss", "ftp"]

    /// One word of free text: its leading and trailing punctuation kept, its core kept or made a
    /// token (``redact(text:)``).
    private static func rewrite(word: Substring, keepingTokens: Bool, replacing: (String) -> String,
                                url: (String) -> String) -> String {
        let leading = word.prefix { "([{\"<".contains($0) }
        let afterLeading = word[leading.endIndex...]
        var coreEnd = afterLeading.endIndex
        while coreEnd > afterLeading.startIndex {
            let before = afterLeading.index(before: coreEnd)
            guard ")]}\",.;:!?>'".contains(afterLeading[before]) else { break }
            coreEnd = before
        }
        let core = afterLeading[..<coreEnd]
        let trailing = afterLeading[coreEnd...]
        guard !core.isEmpty else { return String(word) }
        if core.contains("://") { return leading + url(String(core)) + trailing }
        if keeps(core, keepingTokens: keepingTokens) { return String(word) }
        return leading + replacing(String(core)) + trailing
    }

    /// Where the quote that opens at `open` (at the start, or after a space) closes: a `'`
    /// before a space, punctuation or the end; nil when none does (then it is an apostrophe).
    private static func closingQuote(in text: String, after open: String.Index) -> String.Index? {
        guard open == text.startIndex || text[text.index(before: open)].isWhitespace else { return nil }
        var position = text.index(after: open)
        while position < text.endIndex {
            if text[position] == "'" {
                let next = text.index(after: position)
                if next == text.endIndex || text[next].isWhitespace || ",.;:)!?".contains(text[next]) { return position }
            }
            position = text.index(after: position)
        }
        return nil
    }

    /// Whether a word of free text is kept as it is (``redact(text:)``); a token already made
    /// only when `keepingTokens`.
    static func keeps(_ word: Substring, keepingTokens: Bool = true) -> Bool {
        if isShortNumber(word) || isShortID(word) || isFingerprint(word) { return true }
        if isToken(word) { return keepingTokens }
        var word = word.lowercased()[...]
        if word.hasSuffix("'s") { word = word.dropLast(2) }
        if word.hasSuffix("(s)") { word = word.dropLast(3) } else if word.hasSuffix("(s") { word = word.dropLast(2) }
        if FreeTextVocabulary.words.contains(String(word)) { return true }
        let parts = word.split(whereSeparator: { "-/_".contains($0) })
        return !parts.isEmpty && parts.allSatisfy { part in
            FreeTextVocabulary.words.contains(String(part)) || isShortNumber(part)
        }
    }

    /// `503`, `#4`, `2.5`, `30s`, `64kib`, `5xx`, `100%`: at most four digits a group, a unit of
    /// at most three letters.
    private static func isShortNumber(_ word: Substring) -> Bool {
        var rest = word.drop { $0 == "#" }
        var groups = 0
        while let first = rest.first, first.isASCII, first.isNumber {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard digits.count <= 4 else { return false }
            groups += 1
            rest = rest[digits.endIndex...]
            guard let separator = rest.first, ".,:".contains(separator), rest.dropFirst().first?.isNumber == true else { break }
            rest = rest.dropFirst()
        }
        return groups > 0 && rest.count <= 3 && rest.allSatisfy { ($0.isASCII && $0.isLetter) || $0 == "%" }
    }

    /// A project's fingerprint: 16 lowercase hex digits (an identifier support needs).
    private static func isFingerprint(_ word: Substring) -> Bool {
        word.utf8.count == 16 && word.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// A token a redaction already made (`text:…`): redacting a redacted text changes nothing.
    static func isToken(_ word: Substring) -> Bool {
        guard let colon = word.firstIndex(of: ":") else { return false }
        let hex = word[word.index(after: colon)...]
        return ["email", "user", "token", "data", "body", "text"].contains(String(word[..<colon]))
            && !hex.isEmpty && hex.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// A token inside a URL, its colon percent-encoded (``redact(url:)``, ``redact(query:)``).
    static func isEncodedToken(_ text: Substring) -> Bool {
        isToken(text.replacingOccurrences(of: "%3A", with: ":")[...])
    }

    /// The SDK's short ids: a letter and at most six digits (`t12`, `s3`).
    private static func isShortID(_ word: Substring) -> Bool {
        guard let first = word.first, first.isASCII, first.isLetter else { return false }
        let digits = word.dropFirst()
        return (1...6).contains(digits.count) && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
