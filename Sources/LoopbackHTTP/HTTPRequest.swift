import Foundation

/// A fully read HTTP/1.x request: head plus de-framed body.
package struct HTTPRequest: Sendable {
    /// The protocol versions the server speaks.
    package enum Version: String, Sendable {
        case http1_0 = "HTTP/1.0"
        case http1_1 = "HTTP/1.1"
    }

    /// The request method exactly as sent, e.g. `"POST"`.
    package let method: String
    /// The origin-form request target, e.g. `"/eu/api/users/update?x=1"`.
    package let target: String
    package let version: Version
    package let headers: HTTPHeaders
    /// The body after removing any chunked framing; empty when there was none.
    package var body: Data = Data()

    /// The target without its query string.
    package var path: String {
        String(target.prefix { $0 != "?" })
    }

    /// The part of the target after the first `?`, or nil when there is none.
    package var query: String? {
        guard let separator = target.firstIndex(of: "?") else { return nil }
        return String(target[target.index(after: separator)...])
    }

    /// Whether the client wants the connection kept open after the response
    /// (HTTP/1.1 unless `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`).
    package var wantsKeepAlive: Bool {
        let options = headers.tokens("connection")
        switch version {
        case .http1_1: return !options.contains("close")
        case .http1_0: return options.contains("keep-alive")
        }
    }

    /// Whether the client waits for `100 Continue` before sending its body.
    package var expectsContinue: Bool {
        version == .http1_1 && headers["expect"]?.lowercased() == "100-continue"
    }
}
