import SDKTesting
import Testing
@testable import SDKCore

/// What issue 43 found leaking through redaction, one test per edge: numbers and ids in free
/// text, names that are also words, URLs judged before they were decoded, data-field keys, and
/// text that made redaction slow.
@Suite("redaction at its edges", .timeLimit(.minutes(1)))
struct RedactionEdgesTests {
    let redactor = Redactor(hash: KeyedHash(key: Array("edges".utf8)))

    /// The text with every token made `#`: what a reader of the copy sees besides tokens.
    func readable(_ text: String) -> String {
        text.replacing(/(email|user|token|data|body|text)(:|%3A)[0-9a-f]{12}/) { _ in "#" }
    }

    @Test("numbers that may name someone become one token each, whatever separates their groups",
          arguments: ["+1 415 555 0199", "4111 1111 1111 1111", "4111-1111-1111-1111", "4111111111111111", "555-867-5309",
                      "(415) 555-0199", "+44 20 7946 0958", "020 7946 0958", "+49 (0)30 901820", "415.555.0199",
                      "1990-05-17", "17/05/1990", "5/17/90", "17.05.1990", "1.5.90", "17 May 1990", "May 17, 1990",
                      "192.168.1.20", "10.0.0.1", "DE89 3704 0044 0532 0130 00", "u123456", "A1B2C3", "2001:db8::1",
                      "2001:4860:4860:0:0:0:0:8888", "4111,1111,1111,1111", "12345", "#12345", "2026-12-06T03:53:30Z"])
    func numbers(number: String) {
        for text in ["call \(number) now", "call \(number).", "(\(number))", "number: \(number)", "'\(number)'", "\"\(number)\""] {
            let redacted = redactor.redact(text: text)
            let digits = readable(redacted).filter(\.isNumber)
            #expect(digits.isEmpty, "\(text) → \(redacted)")
        }
        // One token for the whole number, spaces and all, where it stands alone (an IBAN's
        // country and check digits are a word of their own).
        if !number.hasPrefix("DE") { #expect(readable(redactor.redact(text: "call \(number) now")) == "call # now", "\(number)") }
    }

    @Test("what the SDK itself writes reads the same: counts, durations, statuses, ids, fingerprints")
    func sdkNumbersStay() {
        for reason in ["retries exhausted: 5 attempts; last: HTTP 503", "the disable was not durable within 2000 ms",
                       "module in-app overran its 2000 ms bound on willSwitchProject 9e1f3d9d78320577",
                       "items[0].name: 3,145,728 bytes, at most 1,024", "2 queued event(s) of the outgoing project could not be delivered",
                       "the link resolved after the instance that asked for it was replaced (generation 3, now 4)",
                       "t12 and s3 at 12:30:45, 2.5x, 64KiB, 5xx, 100%", "HTTP 503 BadParams: the request timed out",
                       "Error Domain=NSURLErrorDomain Code=-1001", "The request timed out.", "Could not connect to the server."] {
            #expect(redactor.redact(text: reason) == reason)
        }
    }

    @Test("a capitalized word that is also a name becomes a token; the same word in lower case stays")
    func namesThatAreWords() {
        #expect(readable(redactor.redact(text: "Will May Price Link")) == "# # # #")
        #expect(redactor.redact(text: "the link will resolve, and may change the price") == "the link will resolve, and may change the price")
        #expect(readable(redactor.redact(text: "WILL and Ada")) == "# and #")
    }

    @Test("a URL is judged decoded: an address, a token or a JWT in its path, and a query part with or without `=`, become tokens")
    func urls() {
        let urls = ["https://example.com/unsub/ada%40example.com", "https://example.com/reset/8f14e45fceea167a5a36dedd4bea2543",
                    "https://example.com/reset/k3j4h5g6f7d8s9a0", "https://example.com/auth/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig",
                    "https://example.com/p?4111111111111111", "https://example.com/p?eyJhbGciOiJIUzI1NiJ9",
                    "https://example.com/u/15558675309", "https://example.com/p?%2B15558675309=1", "https://ada:pw@example.com/",
                    "https://example.com/p#ada", "http://192.168.1.20:8080/status", "https://example.com/Ada/profile",
                    "https://example.com/p?email=ada%40example.com&t=SECRET"]
        let secrets = ["ada", "8f14e45", "k3j4h5", "eyJ", "4111", "5558675309", "pw", "192.168", "Ada", "SECRET"]
        for url in urls {
            let redacted = redactor.redact(url: url)
            #expect(redacted.hasPrefix(url.hasPrefix("https") ? "https://" : "http://"))
            for secret in secrets { #expect(!redacted.contains(secret), "\(url) → \(redacted)") }
        }
        #expect(redactor.redact(url: "https://example.com/api/v2/users/offer-2024?utm_source=news")
                .hasPrefix("https://example.com/api/v2/users/offer-2024?utm_source=body%3A"))
        #expect(redactor.redact(url: "http://192.168.1.20:8080/status").hasSuffix(":8080/status"))
        // A percent-encoded email in a query gets the token the same email gets elsewhere.
        #expect(redactor.redact(url: "https://example.com/p?email=ada%40example.com")
                == "https://example.com/p?email=" + redactor.token("ada@example.com", "email").replacingColons())
        let once = redactor.redact(url: urls.joined(separator: "&x="))
        #expect(redactor.redact(url: once) == once, "redacting a redacted URL again changes it")
    }

    @Test("a data-field key that is not identifier-shaped becomes a token, at every depth")
    func dataKeys() {
        let fields: [String: DataValue] = ["contacts": .object(["+15558675309": true, "ada@example.com": .object(["Ada Lovelace": 1])]),
                                           "plan": "gold", "order_id": 7, "user.tier": "x", "utm-source": "y",
                                           "phone15558675309": "z", "4111111111111111": .array([.object(["x y": 1])])]
        let redacted = redactor.redact(data: fields)
        let text = DataValue.object(redacted).json()
        for secret in ["5558675309", "ada", "Ada", "4111", "x y"] { #expect(!text.contains(secret), "\(text)") }
        for kept in ["contacts", "plan", "order_id", "user.tier", "utm-source"] { #expect(redacted[kept] != nil, "\(kept) in \(text)") }
        #expect(redacted[redactor.token("4111111111111111", "data")] != nil)
        #expect(Set(redactor.redact(data: redacted).keys) == Set(redacted.keys), "a redacted copy redacted again changes its keys")
    }

    @Test("a call made while declined keeps identifier keys, numbers the others, and holds no value")
    func declinedKeys() {
        let call = PublicCall.track(event: "opened", dataFields: ["+15558675309": "x", "ada@example.com": 1, "plan": "gold"])
        guard case .track(let event, let fields?) = call.withoutPersonalValues else { Issue.record("not a track"); return }
        #expect(event == "opened")
        #expect(fields == ["plan": .null, "#1": .null, "#2": .null])
    }

    @Test("request bodies lose keys that may name someone, in the one pass and in the parser's")
    func bodyKeys() {
        let body = Array(#"{"email":"a@b.c","dataFields":{"+15558675309":{"Ada Lovelace":1},"plan":"x"},"k y":2}"#.utf8)
        let redacted = String(decoding: redactor.redact(body: body), as: UTF8.self)
        for secret in ["5558675309", "Ada", "k y"] { #expect(!redacted.contains(secret), "\(redacted)") }
        #expect(redacted.contains(#""plan":"data:"#) && redacted.contains(#""email":"email:"#))
        #expect(redactor.redactParsing(body: body) == redactor.redact(body: body))
    }

    @Test("free text is linear in its length: a hostile text of 10 MB finishes", .timeLimit(.minutes(1)))
    func hostileText() {
        // Quotes that never close (each once made redaction scan to the end), and stretches
        // that look like the start of a number run, a date or a URL and never finish one.
        // The quotes that never close come last: no closing quote after them.
        let units = ["1 - ", "( ", "May ", "https://", "x:/", "' '", "1 1 1 (", "May 1, ", String(repeating: "1", count: 9_000), " 'a"]
        let text = units.map { String(repeating: $0, count: (1 << 20) / $0.utf8.count) }.joined()
        #expect(text.utf8.count > 9 << 20)
        let redacted = redactor.redact(text: text)
        #expect(!redacted.contains("May 1"))
    }
}
