import SDKTesting
import Testing
@testable import SDKCore

/// Free text and URLs as redaction keeps them: the SDK's own words stay, everything else is a
/// token, and the rules hold for any text (random words, quotes, punctuation, URLs, unicode).
@Suite("free-text redaction", .timeLimit(.minutes(1)))
struct FreeTextRedactionTests {
    let redactor = Redactor(hash: KeyedHash(key: Array("free text tests".utf8)))

    @Test("a module's error keeps the SDK's words and its shape; the email and the name become tokens")
    func moduleError() {
        let text = "inbox: could not flush the outbox of ada@example.com (Ada Lovelace), 3 attempts; last: HTTP 503"
        let redacted = redactor.redact(text: text)
        #expect(redacted.hasPrefix("\(redactor.token("inbox", "text")): could not flush the outbox of \(redactor.token("ada@example.com", "text")) ("))
        #expect(redacted.hasSuffix("3 attempts; last: HTTP 503"))
        #expect(!redacted.contains("ada") && !redacted.contains("Lovelace"))
        #expect(Redactor.shape(of: text) == "…: could not flush the outbox of … (… …), 3 attempts; last: HTTP 503")
    }

    @Test("the SDK's own reasons read the same, but for the values they quote")
    func ownReasons() {
        for reason in ["the disable was not durable within 2000 ms", "no push token to disable",
                       "2 queued event(s) of the outgoing project could not be delivered in time and were discarded",
                       "module in-app overran its 2000 ms bound on willSwitchProject 9e1f3d9d78320577",
                       "retries exhausted: 5 attempts; last: HTTP 503", "the project's storage was cleared"] {
            #expect(redactor.redact(text: reason) == reason)
        }
        #expect(redactor.redact(text: "email 'not-an-address' is not an email address")
                == "email '\(redactor.token("not-an-address", "text"))' is not an email address")
    }

    @Test("a URL keeps scheme, host and path; user info, query values, the fragment and an address in the path become tokens")
    func urls() {
        let url = "https://bob:secret@shop.example.com:8443/users/ada@example.com/offer?email=ada%40example.com&ref=news#section-ada"
        let redacted = redactor.redact(url: url)
        #expect(redacted.hasPrefix("https://"))
        #expect(redacted.contains("@shop.example.com:8443/users/"))
        #expect(redacted.contains("/offer?email=") && redacted.contains("&ref="))
        for secret in ["bob", "secret", "ada", "news", "section"] { #expect(!redacted.contains(secret), "\(secret) in \(redacted)") }
        #expect(redactor.redact(url: "not a url, from x@y.z") == redactor.redact(text: "not a url, from x@y.z"))
    }

    @Test("for any text: no word outside the vocabulary survives, redacting twice gives what redacting once gives (quotes aside), the shape holds no token")
    func anyText() {
        var generator = SplitMix64(seed: 34)
        let pieces = ["could", "not", "the", "Ada", "ada@x.io", "'quoted words'", "(s)", "503", "12345", "t12", "9e1f3d9d78320577",
                      "https://h.example/p?q=1#f", "é", "🚀", "—", ",", ";", "'", "\"", "x:y", "text:abc", "in-app", "  ", "\n"]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0..<12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                .joined(separator: Bool.random(using: &generator) ? " " : "")
            let once = redactor.redact(text: text)
            // Quotes run together with other words may pair differently the second time.
            if !text.contains("'") { #expect(redactor.redact(text: once) == once, "not idempotent on \(text.debugDescription)") }
            #expect(!once.contains("Ada") && !once.contains("12345") && !once.contains("🚀"), "\(text.debugDescription) → \(once)")
            let shape = Redactor.shape(of: text)
            #expect(!shape.contains("text:") && !shape.contains("Ada"), "\(text.debugDescription) → \(shape)")
        }
    }
}
