extension Redactor {
    // MARK: - URLs

    /// A URL as a redacted copy keeps it, each part percent-decoded before it is judged: the
    /// scheme, the host (a literal IP address becomes a token) and port, and each path segment
    /// that is structure (``IdentifierShape/isStructuralSegment(_:)``: `users`, `v2`); every
    /// other segment, the user info and the fragment become tokens, and the query keeps what
    /// ``redact(query:)`` keeps. A URL of another scheme than the web's (``keptSchemes``) is
    /// one token; text that is not a URL (no `scheme://`) is free text (``redact(text:)``).
    /// Tokens in a URL have their colon percent-encoded, and a token already made is kept.
    package func redact(url: String) -> String {
        if summarizes { return Self.isEncodedToken(url[...]) ? url : token(url, "text").replacingColons() }
        guard let schemeEnd = url.firstRange(of: "://") else {
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
        var redacted = String(url[..<schemeEnd.upperBound]) + redact(authority: rest[..<authorityEnd])
        var segments = rest[authorityEnd...].split(separator: "/", omittingEmptySubsequences: false).makeIterator()
        if let first = segments.next() { redacted += first }   // empty: before the path's first `/`
        while let segment = segments.next() { redacted += "/" + redact(segment: segment) }
        if let query { redacted += "?" + redact(query: String(query)) }
        if let fragment { redacted += "#" + tokenUnlessEmpty(fragment, plusIsSpace: false) }
        return redacted
    }

    /// The URL schemes ``redact(url:)`` keeps, with the host and path after them.
    static let keptSchemes: Set<String> = ["http", "https", "ws", "wss", "ftp"]

    /// `user:password@host:port` with the user info a token, the host kept unless it is a
    /// literal IP address.
    private func redact(authority: Substring) -> String {
        var host = authority
        var userInfo = ""
        if let at = authority.lastIndex(of: "@") {
            userInfo = tokenUnlessEmpty(authority[..<at], plusIsSpace: false) + "@"
            host = authority[authority.index(after: at)...]
        }
        var port: Substring = ""
        if let colon = host.lastIndex(of: ":"), !host[colon...].contains("]") {
            port = host[colon...]
            host = host[..<colon]
        }
        return userInfo + (Self.isAddressLiteral(host) ? tokenUnlessEmpty(host, plusIsSpace: false) : String(host)) + port
    }

    /// An IPv6 literal (`[::1]`) or four groups of digits (`10.0.0.1`).
    private static func isAddressLiteral(_ host: Substring) -> Bool {
        if host.hasPrefix("[") { return true }
        let groups = host.split(separator: ".", omittingEmptySubsequences: false)
        return groups.count == 4 && groups.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    /// A path segment: kept when, decoded, it is structure; a token otherwise.
    private func redact(segment: Substring) -> String {
        if segment.isEmpty || Self.isEncodedToken(segment) { return String(segment) }
        var decoded = PercentDecoding.decode(segment, plusIsSpace: false)
        if decoded.withUTF8({ IdentifierShape.isStructuralSegment($0) }) { return decoded }
        return token(decoded, "text").replacingColons()
    }

    /// `part` decoded and made a `text` token, its colon encoded; kept when empty or a token.
    private func tokenUnlessEmpty(_ part: Substring, plusIsSpace: Bool) -> String {
        if part.isEmpty || Self.isEncodedToken(part) { return String(part) }
        return token(PercentDecoding.decode(part, plusIsSpace: plusIsSpace), "text").replacingColons()
    }

    /// A URL's query (or a request's, `a=1&email=x`), each part decoded before it is judged:
    /// a key is kept when it is identifier-shaped (``IdentifierShape/isIdentifier(_:)``) and
    /// becomes a token otherwise; every value becomes a token of the kind its key gives
    /// (`email`, `userId`, `token`; `body` for the rest); a part without `=` is a value with no
    /// key, a token whole.
    package func redact(query: String) -> String {
        if summarizes { return Self.isEncodedToken(query[...]) ? query : token(query, "text").replacingColons() }
        return query.split(separator: "&", omittingEmptySubsequences: false).map { part in
            guard let equals = part.firstIndex(of: "=") else { return tokenUnlessEmpty(part, plusIsSpace: true) }
            let rawKey = part[..<equals]
            let value = part[part.index(after: equals)...]
            let key = PercentDecoding.decode(rawKey, plusIsSpace: true)
            let keptKey = Self.isEncodedToken(rawKey) ? String(rawKey)
                : IdentifierShape.isIdentifier(key) ? key : token(key, "text").replacingColons()
            // A token already (a redacted copy redacted again) stays as it is.
            if Self.isEncodedToken(value) { return keptKey + "=" + value }
            return keptKey + "=" + token(PercentDecoding.decode(value, plusIsSpace: true), Self.kind(forKey: key)).replacingColons()
        }.joined(separator: "&")
    }

    /// A token inside a URL, its colon percent-encoded (``redact(url:)``, ``redact(query:)``).
    static func isEncodedToken(_ text: Substring) -> Bool {
        guard let colon = text.firstRange(of: "%3A") else { return false }
        return isToken(text[..<colon.lowerBound] + ":" + text[colon.upperBound...])
    }
}

extension String {
    /// Tokens are `kind:hex`; in a URL the colon is percent-encoded.
    func replacingColons() -> String {
        split(separator: ":", omittingEmptySubsequences: false).joined(separator: "%3A")
    }
}
