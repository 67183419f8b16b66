/// Text the SDK does not write itself (a server's message, a module's or an auth provider's
/// error, a transport's failure) is cut to a bound before it enters a fact: no answer or error,
/// however long, can make a record too large for the journal.
package enum FreeText {
    /// The most bytes of one such text a fact keeps.
    package static let limit = 1_024
    /// The most bytes of an API's `code` a fact keeps.
    package static let codeLimit = 128

    /// `text`, or its first characters within `limit` UTF-8 bytes followed by `…`.
    package static func bounded(_ text: String, limit: Int = FreeText.limit) -> String {
        guard text.utf8.count > limit else { return text }
        var kept = ""
        var bytes = 0
        for character in text {
            let size = character.utf8.count
            if bytes + size > limit - 3 { break }
            kept.append(character)
            bytes += size
        }
        return kept + "…"
    }
}
